"""How a request can fail, as values the faces turn into messages and exit codes."""

from __future__ import annotations

import asyncio
from typing import Any, NoReturn

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


MISSING_CAPABILITY = -32021
INVALID_PARAMS = -32602


def explain(error: RpcError, method: str, *, legacy: bool, tasks_declared: bool) -> str:
    """What to try after a JSON-RPC error, when the error says it (empty when it does not)."""
    if error.code == MISSING_CAPABILITY:
        data = error.data if isinstance(error.data, dict) else {}
        wanted = data.get("requiredCapabilities")
        extensions = wanted.get("extensions") if isinstance(wanted, dict) else None
        if isinstance(extensions, dict) and "io.modelcontextprotocol/tasks" in extensions:
            if legacy:
                return "the server wants the 2026-07-28 Tasks extension: connect with --era modern"
            if not tasks_declared:
                return "the server wants the Tasks extension: drop --no-tasks (or turn Tasks on in the TUI)"
            return "the Tasks extension was declared: the server did not read it from this request's _meta"
        named = ", ".join(sorted(wanted)) if isinstance(wanted, dict) and wanted else "a client capability"
        return f"the server needs {named}, which this request did not declare"
    if error.code == INVALID_PARAMS and method.startswith("tasks/"):
        return "the task is unknown or has expired (past its ttl): `inspector task list` shows the tasks recorded"
    return ""


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


async def raised_when_awaited(error: Exception) -> NoReturn:
    """A coroutine that raises ``error`` when awaited: for a plain function that hands back a coroutine, so its
    callers see a failure where they await, as they would from an ``async def``."""
    raise error


def cancel_reason(cancelled: asyncio.CancelledError) -> str | None:
    """Why the caller's task was cancelled, when whoever cancelled it said (``task.cancel(reason)``): a load run's
    drain, say; None for a plain cancel (Ctrl-C, a UI worker replaced)."""
    said = cancelled.args[0] if cancelled.args else None
    return said if isinstance(said, str) and said else None
