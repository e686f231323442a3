"""The HTTP side of one message (method, URL, status, headers, a body that was not JSON-RPC), as the recording
keeps it: written by the HTTP transport's records, read back by the builder, shown in the detail pane and exported
as curl."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from inspector.protocol.jsonrpc import JsonObject


@dataclass(slots=True)
class HttpInfo:
    """The HTTP side of one message (status and headers), as recorded."""

    method: str | None = None
    url: str | None = None
    status: int | None = None
    request_headers: dict[str, str] = field(default_factory=dict)
    response_headers: dict[str, str] = field(default_factory=dict)
    content_type: str | None = None
    elapsed_ms: float | None = None
    body: str | None = None
    """A response body that was not JSON-RPC (an HTML error page), verbatim up to 1 MiB."""
    body_truncated: bool = False
    """The body was longer than 1 MiB, and ``body`` is its beginning."""

    def to_json(self) -> JsonObject:
        """Compact dict for the recording (empty fields left out)."""
        out: JsonObject = {}
        for key in ("method", "url", "status", "content_type", "elapsed_ms", "body"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.body_truncated:
            out["body_truncated"] = True
        if self.request_headers:
            out["request_headers"] = self.request_headers
        if self.response_headers:
            out["response_headers"] = self.response_headers
        return out

    @classmethod
    def from_json(cls, data: Any) -> HttpInfo | None:
        """Inverse of ``to_json``; tolerant of missing or wrong-typed fields."""
        if not isinstance(data, dict):
            return None
        return cls(
            **exchange_fields(data, ("method", "url", "content_type", "body")),
            body_truncated=data.get("body_truncated") is True,
        )


def exchange_fields(data: dict[str, Any], text: Iterable[str]) -> dict[str, Any]:
    """What a recorded HTTP exchange ``data`` holds with the right type, by field name: the ``text`` fields, the
    status, the time it took and both header maps. A field missing or of the wrong type is left out, so it keeps
    its default: a recording may be damaged or come from another version, and reading it back must not fail."""
    found: dict[str, Any] = {key: data[key] for key in text if isinstance(data.get(key), str)}
    if isinstance(data.get("status"), int):
        found["status"] = data["status"]
    if isinstance(data.get("elapsed_ms"), int | float):
        found["elapsed_ms"] = float(data["elapsed_ms"])
    for key in ("request_headers", "response_headers"):
        value = data.get(key)
        if isinstance(value, dict):
            found[key] = {str(k): str(v) for k, v in value.items()}
    return found
