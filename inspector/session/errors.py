"""How a request can fail, as values the faces turn into messages and exit codes."""

from __future__ import annotations

from typing import Any

from inspector.protocol.jsonrpc import JsonObject


class RpcError(Exception):
    """The server answered with a JSON-RPC error object."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.data = data

    @classmethod
    def from_error(cls, error: Any) -> RpcError:
        """From the ``error`` member of a response (tolerating a malformed one)."""
        if not isinstance(error, dict):
            return cls(-32603, f"malformed error object: {error!r}")
        code = error.get("code")
        message = error.get("message")
        return cls(
            code if isinstance(code, int) else -32603, str(message) if message is not None else "", error.get("data")
        )

    def to_json(self) -> JsonObject:
        """The error object."""
        out: JsonObject = {"code": self.code, "message": self.message}
        if self.data is not None:
            out["data"] = self.data
        return out


class RequestFailed(Exception):
    """No usable response: timeout, transport fault, the server went away, or the user cancelled.

    ``kind`` is one of: timeout, transport, closed, cancelled, session-expired, invalid.
    """

    def __init__(
        self, kind: str, message: str, hint: str = "", *, fatal: bool = False, fault_kind: str | None = None
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.fault_kind = fault_kind
        """The transport's own name for what went wrong (``http-401``, ``stream-cut``...), when it was a fault."""
        self.fatal = fatal
        self.message = message
        self.hint = hint
