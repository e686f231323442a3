"""The transport tests' fixtures, written (and type-checked) in transport_support.py: the event recorder and a fresh
scriptable HTTP server per test."""

from transport_support import http_server, recorder

__all__ = ["http_server", "recorder"]
