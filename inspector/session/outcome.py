"""What a call ended with, as the faces need it: status, result or error, and the exit code of the headless CLI."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field

from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.values import message_value
from inspector.session.timeline import Call, CallStatus

EXIT_CODES: dict[CallStatus, int] = {
    "complete": 0,
    "tool-error": 1,
    "failed": 3,
    "cancelled": 3,
    "pending": 3,
    "input-required": 5,
    "error": 4,
    "no-answer": 5,
    "round-cap": 6,
}
"""0 complete, 1 tool result isError, 2 usage (typer), 3 connection/transport failure, 4 JSON-RPC error,
5 input needed but no answer available, 6 round cap hit."""


@message_value
class Outcome:
    """The end of one call."""

    timeline_call: Call
    """The call as the timeline has it so far; read ``call`` instead, which is brought up to date first."""
    status: CallStatus
    result: JsonObject | None = None
    error: JsonObject | None = None
    detail: str = ""
    """For anything but complete: what happened and what to try."""
    settle: Callable[[], None] | None = field(default=None, repr=False, compare=False)
    """Applies what the session still has queued for the timeline (the final reply's bookkeeping may be)."""

    @property
    def call(self) -> Call:
        """The call on the timeline, with every round the wire told of."""
        if self.settle is not None:
            self.settle()
        return self.timeline_call

    @property
    def exit_code(self) -> int:
        """The headless CLI's exit code for this outcome."""
        return EXIT_CODES.get(self.status, 3)

    @property
    def ok(self) -> bool:
        """True when the call completed (a tool result with isError counts as not ok)."""
        return self.status == "complete"
