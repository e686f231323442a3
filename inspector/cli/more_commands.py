"""Commands beyond the single-call ones: demo, connect, load. Registered on import."""

from __future__ import annotations
