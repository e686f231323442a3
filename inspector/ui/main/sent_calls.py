"""The calls the main screen sent, while they run: the worker that drives each, and the call ``k`` is for before
the row of the call just sent is highlighted.

A call is sent in the step that closes the composer, and its row is highlighted some turns later: its worker runs,
the session starts the call, the timeline's message reaches the timeline widget and then the screen. ``k`` read in
between acted on the row highlighted before the call was sent (another call in flight, cancelled by mistake; or an
ended one, and the key did nothing). So until the row of the call just sent (or of a later call) has been
highlighted, ``k`` is for the call just sent: ``LongWork`` cancels it at once once the session has started it, or
as it starts, before anything of it is sent, when it has not yet.

``SentCalls`` is plain bookkeeping, held by ``LongWork``: the screen says when it sends a call, when the session
started it, which row was highlighted, and when the worker ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.worker import Worker


@dataclass(eq=False)
class SentCall:
    """One call the screen sent, from the moment it was asked for until its worker ended and its row was seen."""

    worker: Worker[None] | None = None
    """The worker that makes the call (None until the screen has started it)."""
    index: int | None = None
    """Its number on the timeline, once the session started it (None: not started yet)."""
    seen: bool = False
    """Its row, or a later call's, was highlighted: ``k`` is for the highlighted call again."""
    cancel_asked: bool = False
    """``k`` was pressed before the session started it: it is cancelled as it starts."""
    done: bool = False
    """Its worker ended."""


class SentCalls:
    """The calls the screen sent and the one ``k`` is for until its row is highlighted (see the module docstring)."""

    def __init__(self) -> None:
        self._calls: list[SentCall] = []
        """Oldest first."""

    def sent(self) -> SentCall:
        """The screen is sending a call (its worker not started yet)."""
        call = SentCall()
        self._calls.append(call)
        return call

    def ours(self, index: int) -> bool:
        """Call ``index`` is one the screen sent."""
        return any(call.index == index for call in self._calls)

    def waiting(self) -> SentCall | None:
        """The call ``k`` is for instead of the highlighted one: the newest sent whose row (or a later call's) has
        not been highlighted yet (None: ``k`` is for the highlighted call)."""
        for call in reversed(self._calls):
            if not call.seen and not (call.done and call.index is None):
                return call
        return None

    def worker_of(self, index: int) -> Worker[None] | None:
        """The worker still making call ``index`` (None: not one the screen sent, or it ended)."""
        for call in self._calls:
            if call.index == index and not call.done:
                return call.worker
        return None

    def highlighted(self, index: int) -> None:
        """Call ``index``'s row is highlighted: the calls sent up to it have been seen (``k`` is for it now)."""
        for call in self._calls:
            if call.index is not None and call.index <= index:
                call.seen = True
        self._forget()

    def not_shown(self, index: int) -> None:
        """Call ``index`` started, and its row is not shown (the timeline's filter leaves it out): it will never be
        highlighted, so ``k`` is for the highlighted call again."""
        for call in self._calls:
            if call.index == index:
                call.seen = True
        self._forget()

    def finished(self, call: SentCall) -> None:
        """``call``'s worker ended (the call ended, or it was never made)."""
        call.done = True
        self._forget()

    def _forget(self) -> None:
        # A call is kept until both its worker ended (``worker_of``) and k is no longer for it (``waiting``).
        self._calls = [call for call in self._calls if not (call.done and (call.seen or call.index is None))]
