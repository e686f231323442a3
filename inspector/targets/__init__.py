"""Targets: what the user points the inspector at, parsed once (``target``)."""
