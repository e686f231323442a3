"""One message exactly as it crossed the wire: what the model's rounds, spans and findings point at."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from inspector.protocol.jsonrpc import JsonObject
from inspector.timeline.http_info import HttpInfo

Direction = Literal["c2s", "s2c"]
"""Client to server, or server to client."""


@dataclass(slots=True)
class WireMessage:
    """One message exactly as it crossed the wire, with its parsed form when it parsed."""

    raw: str
    at: float
    direction: Direction
    message: JsonObject | None = None
    http: HttpInfo | None = None
    undecodable: bytes | None = None
    """The exact bytes, when they were not valid UTF-8 (``raw`` is their decoding with U+FFFD)."""
