"""The keys that act on the highlighted call: export it, edit and resend it, cancel it while it is in flight, copy
the requestState its highlighted round shows.

``CallKeys`` is the container of the main screen's panes, so its keys work (and the footer shows them) wherever the
focus is among the panes, as they did when they were the screen's own. It holds no session and calls nobody:
attributes down, messages up. The screen says what is highlighted (``point_at``) and whether a live session is
behind it (``live``); a key posts a message that the screen acts on. ``check_action`` hides a key that would do
nothing now (cancel on a call that has ended or is being cancelled, resend on a call that cannot be resent, copy
with no requestState shown), so that neither the footer nor the help offers it.

Cancel is the one key that does not post: a message would wait behind every timeline message queued on its way up
(a call sending progress queues hundreds), and the cancel must leave at once. The screen hands the keys what acts
on it instead (``cancels``, the main screen's long work), and ``k`` acts as the app reads it (a priority key). That
also decides which call ``k`` is for: right after a call was sent, before its row is highlighted, the call just
sent, not the row highlighted before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Protocol

from textual.binding import BindingType
from textual.containers import Vertical
from textual.message import Message

from inspector.protocol.methods import INPUT_REQUIRED_METHODS
from inspector.ui.key_hold import hold_keys
from inspector.ui.keys import Key, bindings, typing

if TYPE_CHECKING:
    from textual.widget import Widget

    from inspector.timeline.model import Call, RequestState
    from inspector.ui.key_hold import Hold


class CancelKey(Protocol):
    """What ``k`` acts through (the main screen's ``LongWork``): whether it cancels something now, and the cancel."""

    def offered(self, highlighted: Call | None) -> bool:
        """Whether ``k`` would cancel a call now (``highlighted``: the call the keys point at)."""
        ...

    def pressed(self, highlighted: Call | None) -> None:
        """``k`` was pressed: cancel the call it is for, at once."""
        ...


@dataclass
class CallKeyPressed(Message):
    """A key that opens a dialog on the highlighted call (or one of its rounds) was pressed."""

    call: Call
    round: int
    """The highlighted round (0: the call row)."""
    hold: Hold | None = None
    """The keys typed after it, held for the dialog."""


class CallKeys(Vertical):
    """Holds the panes; its keys act on the highlighted call (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "call",
        Key("e", "export", "export", "Export the call: curl, JSON-RPC messages, Python", priority=True),
        Key(
            "s",
            "resend",
            "edit & resend",
            "Send it again: its arguments (call row) or answers (round row)",
            priority=True,
        ),
        Key(
            "k",
            "cancel_call",
            "cancel call",
            "Cancel (kill, as in top) the call in flight; the server is told at once",
            priority=True,
        ),
        Key("c", "copy_state", "copy state", "Copy the requestState of the highlighted round to the clipboard"),
    )

    KEYS_WHERE: ClassVar[str] = "highlighted call"
    """What the help screen names as where these keys work."""

    DEFAULT_CSS = """
    CallKeys { height: 1fr; }
    """

    class ExportRequested(CallKeyPressed):
        """``e``: export ``call`` (``round`` is the highlighted round, 0 for the call row); ``hold`` is released once
        the dialog is open."""

    class ResendRequested(CallKeyPressed):
        """``s``: resend ``call``; from a round row (``round`` > 0), with its answers edited; ``hold`` is released
        once the dialog is open (or the resend refused)."""

    @dataclass
    class CancelRequested(Message):
        """``k``: cancel ``call``, which is in flight."""

        call: Call

    def __init__(self, *children: Widget, id: str | None = None) -> None:
        super().__init__(*children, id=id)
        self.call: Call | None = None
        """The highlighted call (None: nothing highlighted)."""
        self.round = 0
        """The highlighted round of ``call`` (0: the call row)."""
        self.live = False
        """A live session is behind the timeline (False in a replay, or before the session is built)."""
        self.state: RequestState | None = None
        """The requestState shown for the highlighted call or round (``c`` copies it)."""
        self.cancels: CancelKey | None = None
        """What ``k`` acts through, at once (see the module docstring); None: it posts ``CancelRequested``."""

    def point_at(self, call: Call | None, round_: int = 0, state: RequestState | None = None) -> None:
        """What is highlighted now, and the requestState shown for it; the footer is redrawn for it."""
        self.call, self.round, self.state = call, round_, state
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        call = self.call
        if action in ("export", "resend", "cancel_call") and typing(self.app):
            return False  # a letter typed in the search or filter box
        if action == "export":
            return call is not None
        if action == "resend":
            # In a replay the key stays, so that pressing it says the recording is read-only.
            return call is not None and (not self.live or call.method in INPUT_REQUIRED_METHODS)
        if action == "cancel_call":
            if not self.live:
                return False
            if self.cancels is not None:
                return self.cancels.offered(call)
            # A call being cancelled already waits for the server to stop: pressing k again would do nothing.
            return call is not None and call.in_flight and call.status != "cancelling"
        if action == "copy_state":
            return self.state is not None
        return True

    # Export and resend open a dialog: the keys typed until it has the focus are held for it (the screen that
    # opens it releases them), so they never reach the panes behind it.
    def action_export(self) -> None:
        if self.call is not None:
            self.post_message(self.ExportRequested(self.call, self.round, hold_keys(self.app)))

    def action_resend(self) -> None:
        if self.call is not None:
            self.post_message(self.ResendRequested(self.call, self.round, hold_keys(self.app)))

    def action_cancel_call(self) -> None:
        if self.cancels is not None:
            self.cancels.pressed(self.call)
        elif self.call is not None and self.call.in_flight:
            self.post_message(self.CancelRequested(self.call))
        self.refresh_bindings()

    def action_copy_state(self) -> None:
        if self.state is not None:
            self.app.copy_to_clipboard(self.state.value)
            self.notify(f"requestState copied to the clipboard ({self.state.length:,} characters)")
