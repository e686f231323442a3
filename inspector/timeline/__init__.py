"""The Timeline model, its records, its builder and the findings catalog: what every face reads.

Below the engine (``inspector.session``) and above the answers interface; it imports nothing of the engine, so
the read-only faces (headless printing, replay's loader) can read a recording without it."""
