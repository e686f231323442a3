"""What a call ended with, as the faces need it: status, result or error, and the exit code of the headless CLI."""

from __future__ import annotations

from typing import Final

from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.values import message_value
from inspector.timeline.model import CallStatus

EXIT_CONNECT: Final = 3
"""The headless CLI's exit code for a connection or transport failure (a call's, or the connect's itself)."""
EXIT_CODES: dict[CallStatus, int] = {
    "complete": 0,
    "tool-error": 1,
    "failed": EXIT_CONNECT,
    "cancelled": EXIT_CONNECT,
    "pending": EXIT_CONNECT,
    "input-required": 5,
    "error": 4,
    "no-answer": 5,
    "round-cap": 6,
}
"""0 complete, 1 tool result isError, 2 usage (typer), 3 connection/transport failure, 4 JSON-RPC error,
5 input needed but no answer available, 6 round cap hit."""
EXIT_NOT_OFFERED: Final = 7
"""The headless CLI's exit code when the server did not declare what the command needs (``list prompts`` against a
server without ``prompts``): nothing was sent; ``--force`` sends it anyway."""


@message_value
class Outcome:
    """The end of one call, settled: nothing about it changes after the session returned it (a ``message_value``:
    one is made for every call, and a frozen dataclass's construction costs four times as much).

    The call itself, with every round the wire told of, is on the timeline: ``InspectorSession.call(index)``."""

    call_index: int
    """The call's number on the timeline (``#N``)."""
    status: CallStatus
    result: JsonObject | None = None
    error: JsonObject | None = None
    detail: str = ""
    """For anything but complete: what happened."""
    hint: str = ""
    """What to try, when there is something to try."""

    @property
    def exit_code(self) -> int:
        """The headless CLI's exit code for this outcome."""
        return EXIT_CODES.get(self.status, EXIT_CONNECT)

    @property
    def ok(self) -> bool:
        """True when the call completed (a tool result with isError counts as not ok)."""
        return self.status == "complete"
