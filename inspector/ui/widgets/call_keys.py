"""The keys that act on the highlighted call: export it, edit and resend it, cancel it while it is in flight.

``CallKeys`` is the container of the main screen's panes, so its keys work (and the footer shows them) wherever the
focus is among the panes, as they did when they were the screen's own. It holds no session and calls nobody:
attributes down, messages up. The screen says what is highlighted (``point_at``) and whether a live session is
behind it (``live``); a key posts a message that the screen acts on. ``check_action`` hides a key that would do
nothing now (cancel on a call that has ended, resend on a call that cannot be resent).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message

from inspector.protocol.methods import INPUT_REQUIRED_METHODS

if TYPE_CHECKING:
    from textual.widget import Widget

    from inspector.session.timeline import Call


class CallKeys(Vertical):
    """Holds the panes; its keys act on the highlighted call (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "export", "export", id="main.export", tooltip="Export the call: curl, JSON-RPC messages, Python"),
        Binding(
            "s",
            "resend",
            "edit & resend",
            id="main.resend",
            tooltip="Send the call again on the live connection: its arguments (call row) or answers (round row)",
        ),
        Binding(
            "k",
            "cancel_call",
            "cancel call",
            id="main.cancel",
            tooltip="Cancel (kill, as in top) the highlighted call in flight; the server is told when it can be",
        ),
    ]

    KEYS_WHERE: ClassVar[str] = "highlighted call"
    """What the help screen names as where these keys work."""

    DEFAULT_CSS = """
    CallKeys { height: 1fr; }
    """

    class ExportRequested(Message):
        """``e``: export ``call`` (``round`` is the highlighted round, 0 for the call row)."""

        def __init__(self, call: Call, round_: int) -> None:
            super().__init__()
            self.call = call
            self.round = round_

    class ResendRequested(Message):
        """``s``: resend ``call``; from a round row (``round`` > 0), with its answers edited."""

        def __init__(self, call: Call, round_: int) -> None:
            super().__init__()
            self.call = call
            self.round = round_

    class CancelRequested(Message):
        """``k``: cancel ``call``, which is in flight."""

        def __init__(self, call: Call) -> None:
            super().__init__()
            self.call = call

    def __init__(self, *children: Widget, id: str | None = None) -> None:
        super().__init__(*children, id=id)
        self.call: Call | None = None
        """The highlighted call (None: nothing highlighted)."""
        self.round = 0
        """The highlighted round of ``call`` (0: the call row)."""
        self.live = False
        """A live session is behind the timeline (False in a replay, or before the session is built)."""

    def point_at(self, call: Call | None, round_: int = 0) -> None:
        """What is highlighted now; the footer is redrawn for it."""
        self.call, self.round = call, round_
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        call = self.call
        if action == "export":
            return call is not None
        if action == "resend":
            # In a replay the key stays, so that pressing it says the recording is read-only.
            return call is not None and (not self.live or call.method in INPUT_REQUIRED_METHODS)
        if action == "cancel_call":
            return self.live and call is not None and call.in_flight
        return True

    def action_export(self) -> None:
        if self.call is not None:
            self.post_message(self.ExportRequested(self.call, self.round))

    def action_resend(self) -> None:
        if self.call is not None:
            self.post_message(self.ResendRequested(self.call, self.round))

    def action_cancel_call(self) -> None:
        if self.call is not None and self.call.in_flight:
            self.post_message(self.CancelRequested(self.call))
