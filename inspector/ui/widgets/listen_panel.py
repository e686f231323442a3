"""The subscriptions panel (``l``): pick what to listen for, start a ``subscriptions/listen``, watch its events come,
see how it ended (by the server, or lost), stop it or listen again.

Attributes down, messages up: the screen's ``LongWork`` hands the panel the subscription calls to show (``show``)
and whether the server is a legacy one; the panel posts ``Asked`` (listen with these filters, stop this one, listen
again like this one) and the screen acts on it. It holds no session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, Literal

from rich.text import Text
from textual import on
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, OptionList, Static
from textual.widgets.option_list import Option

from inspector.protocol.methods import listen_kept, listen_offered
from inspector.timeline.listen_span import END_SAID, event_gist, wanted
from inspector.ui.keys import Key, bindings
from inspector.ui.safe_text import one_line

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual.app import ComposeResult

    from inspector.protocol.jsonrpc import JsonObject
    from inspector.timeline.model import Call

FILTERS: Final = {
    "listen-tools": "toolsListChanged",
    "listen-prompts": "promptsListChanged",
    "listen-resources": "resourcesListChanged",
    "listen-uris": "resourceSubscriptions",
    "listen-tasks": "taskIds",
}
"""Each filter of the panel, by widget id, and the ``notifications`` field it asks for."""
NOTHING_OFFERED: Final = "The server declares no subscriptions (no listChanged, no resources.subscribe)."
EVENTS_SHOWN: Final = 3
"""The latest events shown under each subscription (the detail pane of its call has more, and how many came)."""
Action = Literal["listen", "stop", "again"]


def listen_text(call: Call) -> Text:
    """One subscription as the panel lists it: its call, its state, what it honours, its latest events, its end."""
    span = call.listen
    text = Text(f"#{call.index} ", style="bold", end="")
    if span is None:  # 2025-11-25 resources/subscribe: the call's own rounds
        uris = call.params.get("uris")
        count = len(uris) if isinstance(uris, list) else 0
        state = "subscribed" if call.in_flight else "ended by the client"
        text.append(f"resources/subscribe · {count} URI{'s' if count != 1 else ''} · {state}")
        return text
    if call.in_flight:
        text.append("listening", style="bold cyan")
    elif span.end == "lost":
        text.append(END_SAID["lost"], style="bold red")
    else:
        text.append(END_SAID.get(span.end or "", call.status), style="bold green")
    text.append(f"\n  {one_line(span.summary(), 200)}", style="dim")
    for event in span.events.newest(EVENTS_SHOWN):
        text.append(f"\n  +{event.at - call.started_at:.2f} s {one_line(event_gist(event.message or {}), 120)}")
    if not call.in_flight and span.end != "client-ended":
        text.append("\n  r listens again", style="italic")
    return text


class ListenList(OptionList):
    """The subscriptions, newest first; ``k`` stops the highlighted one, ``r`` listens again like it."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "listen",
        Key("k", "stop", "stop listening", "End the highlighted subscription (the client ends it)"),
        Key(
            "r",
            "again",
            "listen again",
            "Listen again with the same filters (the server ended it, or it was lost)",
        ),
    )

    KEYS_WHERE: ClassVar[str] = "subscriptions panel"
    """What the help screen names as where these keys work."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.calls: dict[str, Call] = {}
        """The subscription call of each option, by option id."""

    def highlighted_call(self) -> Call | None:
        """The subscription highlighted."""
        option = self.highlighted_option
        return self.calls.get(option.id or "") if option is not None else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        call = self.highlighted_call()
        if action == "stop":
            return call is not None and call.in_flight
        if action == "again":
            return call is not None and call.ended and call.listen is not None
        return True

    def action_stop(self) -> None:
        call = self.highlighted_call()
        if call is not None and call.in_flight:
            self.post_message(ListenPanel.Asked("stop", call=call.index))

    def action_again(self) -> None:
        call = self.highlighted_call()
        if call is not None and call.ended and call.listen is not None:
            self.post_message(ListenPanel.Asked("again", dict(call.listen.asked), call.index))


class PanelField(Input):
    """A one-line field of the panel (resource URIs, task ids): a compact input, so its one row shows what is
    typed (a bordered input needs three rows, and the panel gave it one: the text was hidden), typing every
    letter (``e``, ``l`` are no commands here), enter listens, escape leaves to the subscriptions, tab moves on."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "listen-field",
        Key("enter", "submit", "listen", "Listen with the filters shown (subscriptions/listen)"),
        Key("escape", "leave", "leave field", "Leave the field for the subscriptions list; what you typed stays"),
    )
    KEYS_WHERE: ClassVar[str] = "subscriptions panel"
    """What the help screen names as where these keys work."""

    def __init__(self, *, placeholder: str, id: str) -> None:
        super().__init__(placeholder=placeholder, id=id, compact=True)

    def action_leave(self) -> None:
        # set_focus, not focus(): the move is made now, so the keys typed next go to the list, not to this field.
        self.screen.set_focus(self.screen.query_one(ListenList))


class ListenButton(Button):
    """The listen button; the footer says what enter does on it (a button's own keys are not shown)."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "listen-button", Key("enter,space", "press", "listen", "Listen with the filters shown (subscriptions/listen)")
    )
    KEYS_WHERE: ClassVar[str] = "subscriptions panel"
    """What the help screen names as where these keys work."""


class ListenPanel(Vertical):
    """Subscriptions: the filters, the listen button, the subscriptions (see the module docstring)."""

    # One row each, no blank rows between them (the fields stand out on their own band): at 80x24 the panel has
    # nine rows below the timeline, and with blank rows between them its subscriptions and its border were cut off.
    DEFAULT_CSS = """
    ListenPanel {
        height: 1fr; min-height: 7; border: round $panel; background: $surface;
        border-title-color: $primary; border-subtitle-color: $foreground-muted;
    }
    ListenPanel:focus-within { border: round $primary; }
    ListenPanel Horizontal { height: 1; }
    ListenPanel Checkbox { margin-right: 1; }
    ListenPanel PanelField { height: 1; padding: 0 1; background: $panel; }
    ListenPanel PanelField:focus { background: $primary-muted; }
    ListenPanel #listen-none { height: auto; color: $warning; display: none; }
    ListenPanel ListenList, ListenPanel ListenList:focus { border: none; height: 1fr; min-height: 1; }
    """

    class Asked(Message):
        """The user asked to listen (``notifications``), to stop subscription ``call``, or to listen again."""

        def __init__(self, action: Action, notifications: JsonObject | None = None, call: int | None = None) -> None:
            super().__init__()
            self.action: Action = action
            self.notifications = notifications
            """What to listen for (``subscriptions/listen``'s ``notifications``)."""
            self.call = call
            """The subscription call stopped, or listened to again."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.legacy = False
        """The server is a legacy one: only resource URIs are subscribed (2025-11-25 ``resources/subscribe``)."""
        self.capabilities: Mapping[str, object] | None = None
        """What the server declared (None: not known yet, so every filter is offered): a filter it does not offer
        (``protocol.methods.listen_offered``) is not shown, nor asked for."""

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Checkbox("tools", id="listen-tools", compact=True, tooltip="Tools list changes")
            yield Checkbox("prompts", id="listen-prompts", compact=True, tooltip="Prompts list changes")
            yield Checkbox("resources", id="listen-resources", compact=True, tooltip="Resources list changes")
        yield PanelField(placeholder="resource URIs to watch (space between)", id="listen-uris")
        yield PanelField(placeholder="task ids to watch (space between)", id="listen-tasks")
        yield Static(NOTHING_OFFERED, id="listen-none")
        # Its own row, after the fields: in the filters' row a narrow panel cut it off, and tab reached it unseen.
        yield ListenButton("listen", id="listen-start", compact=True, tooltip="subscriptions/listen (enter in a field)")
        yield ListenList(id="listen-list")

    def on_mount(self) -> None:
        self.border_title = "Subscriptions"
        self.border_subtitle = self._note()

    def _note(self) -> str:
        if self.legacy:
            return "2025-11-25: the URIs are subscribed (resources/subscribe)"
        return "nothing ticked: every list change"  # (every one the server offers: the others are not shown)

    def offered(self, kind: str) -> bool:
        """Whether the server offers the listen filter ``kind`` (a 2025 server: only resource URIs, subscribed
        with ``resources/subscribe``; its list changes come unasked)."""
        if self.legacy and kind != "resourceSubscriptions":
            return False
        return listen_offered(kind, self.capabilities)

    def notifications(self) -> JsonObject:
        """What the filters ask for (every list change offered when nothing is picked), only what is offered."""
        ticked = {box.id: box.value for box in self.query(Checkbox) if box.display}
        uris = self.query_one("#listen-uris", Input).value.split()
        tasks = self.query_one("#listen-tasks", Input).value.split()
        picks = (ticked.get("listen-tools", False), ticked.get("listen-prompts", False))
        asked = listen_kept(wanted(*picks, ticked.get("listen-resources", False), uris, tasks), self.capabilities)
        return {kind: value for kind, value in asked.items() if self.offered(kind)}

    def show(self, calls: list[Call], *, legacy: bool, capabilities: Mapping[str, object] | None = None) -> None:
        """The subscription calls, newest first (the highlight stays on the one it was on), and the filters the
        server offers."""
        if legacy != self.legacy or capabilities != self.capabilities:
            self.legacy, self.capabilities = legacy, capabilities
            self.border_subtitle = self._note()
            self._offer()
        listing = self.query_one(ListenList)
        kept = listing.highlighted_option.id if listing.highlighted_option is not None else None
        listing.calls = {f"listen:{call.index}": call for call in calls}
        listing.set_options(Option(listen_text(call), id=f"listen:{call.index}") for call in reversed(calls))
        if kept in listing.calls:
            listing.highlighted = listing.get_option_index(kept)
        elif calls:
            listing.highlighted = 0  # the newest
        listing.refresh_bindings()

    def _offer(self) -> None:
        """Show only the filters the server offers; say so when it offers none."""
        for node_id, kind in FILTERS.items():
            self.query_one(f"#{node_id}").display = self.offered(kind)
        none = not any(self.offered(kind) for kind in FILTERS.values())
        self.query_one("#listen-none").display = none
        self.query_one("#listen-start", Button).disabled = none

    @on(Button.Pressed, "#listen-start")
    @on(Input.Submitted)
    def _listen(self, event: Button.Pressed | Input.Submitted) -> None:
        event.stop()
        asked = self.notifications()
        if asked:
            self.post_message(self.Asked("listen", asked))
        else:
            self.border_subtitle = "nothing to listen for: tick a filter or type what to watch"
