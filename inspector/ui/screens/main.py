"""The main screen: catalog, timeline, detail, requestState panel and console around one session or a recording.

The screen orchestrates: it owns the session (built by the injected factory), runs every network operation in a
worker, turns bridge messages into attribute updates on its widgets, and acts on the messages its widgets post (a
catalog item chosen, a key pressed on the highlighted call). Widgets never touch the session or each other. The
keys on the highlighted call (export, edit & resend, cancel) belong to the ``CallKeys`` container that holds the
panes. Given a ``Recording`` instead (``inspector replay FILE``), the screen holds a ``ReplayWalk`` that shows the
recorded timeline read-only and walks it with ``n`` and ``N``: no session is built, no server started, and every key
that would send says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input

from inspector.protocol.methods import CatalogKind
from inspector.session.timeline import Timeline
from inspector.ui.bridge import (
    CallWasFinished,
    CallWasStarted,
    ConsoleWasAppended,
    RoundWasStarted,
    RoundWasUpdated,
    SessionWasChanged,
    TimelineBridge,
)
from inspector.ui.modals.export import ExportModal
from inspector.ui.recorded import READ_ONLY
from inspector.ui.screens.call_composer import CallComposer
from inspector.ui.screens.live_session import LiveSession
from inspector.ui.screens.replay_walk import ReplayWalk
from inspector.ui.selection import selection
from inspector.ui.widgets.call_keys import CallKeys
from inspector.ui.widgets.catalog import Catalog, CatalogList
from inspector.ui.widgets.connect_error import ConnectErrorPanel
from inspector.ui.widgets.console import Console
from inspector.ui.widgets.detail_view import DetailView
from inspector.ui.widgets.document import item_document
from inspector.ui.widgets.request_state import RequestStatePanel
from inspector.ui.widgets.session_header import SessionHeader
from inspector.ui.widgets.timeline_view import TimelineView

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import ComposeResult

    from inspector.answers.base import AnswerSource
    from inspector.session.timeline import Call
    from inspector.targets.target import Target
    from inspector.ui.recorded import Recording
    from inspector.ui.session_port import SessionFactory, SessionPort


class MainScreen(Screen[None]):
    """Everything about one session (or one recording, read-only)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next_step", "next message", id="replay.next", tooltip="Replay: reveal the next message"),
        Binding("N", "all_steps", "all", id="replay.all", tooltip="Replay: reveal every remaining message"),
        Binding("slash", "search", "search", id="main.search", tooltip="Search the catalog"),
        Binding(
            "f",
            "filter",
            "filter",
            id="main.filter",
            tooltip="Filter the timeline: method:, name:, status:, error, findings",
        ),
        Binding("r", "reconnect", "retry", id="main.reconnect", tooltip="Try to connect again"),
        Binding("escape", "back", "servers", id="main.back", tooltip="Close this session and choose another server"),
    ]

    def __init__(
        self,
        target: Target,
        factory: SessionFactory | None,
        answers: AnswerSource,
        *,
        recording: str | None = None,
        config_dir: Path | None = None,
        can_go_back: bool = False,
        session: SessionPort | None = None,
        replay: Recording | None = None,
    ) -> None:
        super().__init__()
        self.target = target
        self.answers = answers
        self.live = LiveSession(target, factory, answers, session, config_dir=config_dir) if replay is None else None
        """The live session's work (None for a recording)."""
        self.walk = ReplayWalk(replay) if replay is not None else None
        """Shows the recording and walks it step by step (None: a live session)."""
        self.recording = recording
        self.can_go_back = can_go_back
        self.state = "replay" if replay is not None else "connecting"
        """connecting, connected, failed, closed, or replay (shown in the header)."""
        self.failure: BaseException | None = None
        """Why the last connect failed."""
        self.selected: tuple[int, int] | None = None
        """(call, round) shown in the detail pane."""
        self.catalog_loaded = False
        """True once every catalog list came back (tests wait on it)."""
        self.resent_from: dict[int, int] = {}
        """Resent call -> the call it resent (their results are compared in the detail pane)."""
        self._resend_of: int | None = None
        self._bridge: TimelineBridge | None = None
        self._unfold = False
        self._show_queued = False
        self._empty = Timeline(target=target.display_name)

    @property
    def session(self) -> SessionPort | None:
        """The live session (None until the factory built it, and for a recording)."""
        return self.live.session if self.live is not None else None

    # ------------------------------------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield SessionHeader(id="header")
        with CallKeys(id="panes"):
            with Horizontal(id="body"):
                yield Catalog(id="catalog")
                with Vertical(id="middle"):
                    yield ConnectErrorPanel(id="connect-error")
                    yield TimelineView(self.timeline, id="timeline")
                    yield Input(
                        placeholder="filter: method:tools/call name:weather status:complete error findings",
                        id="filter",
                    )
                with Vertical(id="right"):
                    yield DetailView(id="detail")
                    yield RequestStatePanel(id="state")
            yield Console(id="console")
        yield Footer()

    @property
    def timeline(self) -> Timeline:
        """The timeline shown: the recording's, the session's, or an empty one until the session is built."""
        if self.walk is not None:
            return self.walk.timeline
        return self.session.timeline if self.session is not None else self._empty

    @property
    def timeline_view(self) -> TimelineView:
        """The timeline widget."""
        return self.query_one(TimelineView)

    def on_mount(self) -> None:
        self.composer = CallComposer(self.app, self.run_call, self.answers)
        """Opens the composer (or the answers editor of a resend) and makes the call composed."""
        self.query_one("#timeline").border_title = "Timeline"
        self.query_one("#detail").border_title = "Detail"
        self.query_one("#console").border_title = "Console  stderr · logs · transport"
        self._header()
        if self.walk is not None:
            self._open_recording(self.walk)
        else:
            self.query_one(CatalogList).focus()
            self.connect()

    def _header(self) -> None:
        note = self.walk.note if self.walk is not None else ""
        self.query_one(SessionHeader).show(self.timeline, self.target.display_name, self.recording, self.state, note)

    def _open_recording(self, walk: ReplayWalk) -> None:
        """Show the recorded timeline (grown message by message in step mode); nothing connects."""
        # Step mode grows the timeline as a live session does.
        self._bridge = TimelineBridge(walk.timeline, self.timeline_view)
        walk.show_on(self.timeline_view, self.query_one(Console), self.query_one(Catalog))
        self.catalog_loaded = True
        self._header()

    # ------------------------------------------------------------------------------------------------ session work
    def _use_session(self, session: SessionPort) -> None:
        self.query_one(CallKeys).live = True
        view = self.timeline_view
        view.timeline = session.timeline
        view.refresh_model()
        if self._bridge is not None:
            self._bridge.close()
        self._bridge = TimelineBridge(session.timeline, view)
        self.query_one(Console).extend(session.timeline.console)

    @work(exclusive=True, group="connect")
    async def connect(self) -> None:
        """Build the session, connect, and list the catalog."""
        live = self.live
        if live is None:
            return
        retrying = self.failure is not None
        self.failure = None
        self.state = "connecting"
        self.query_one(ConnectErrorPanel).display = False
        self._header()
        try:
            session, new = live.fresh(retrying=retrying)
            if new or self._bridge is None:
                self._use_session(session)
            await live.connect()
        except Exception as error:  # a server that fails to start must show its error, not a traceback
            if self.is_attached:  # (not when the screen went away while it connected: nothing to show it on)
                self._failed(error)
            return
        if not self.is_attached:
            return
        self.state = "connected"
        self._header()
        async for kind, items in live.catalog():
            if not self.is_attached:
                return
            self.query_one(Catalog).set_items(kind, items)
        self.catalog_loaded = True

    def _failed(self, error: BaseException) -> None:
        self.failure = error
        self.state = "failed"
        self._header()
        stderr = [line.text for line in self.timeline.console if line.source == "stderr"]
        self.query_one(ConnectErrorPanel).show_failure(error, stderr)
        self.refresh_bindings()

    @work(exclusive=True, group="call")
    async def run_call(
        self,
        kind: CatalogKind,
        name: str,
        arguments: dict[str, Any] | None,
        *,
        answers: AnswerSource | None = None,
        resend_of: int | None = None,
    ) -> None:
        """Make one call; the session drives its rounds and asks the answers source (``answers`` if given, for a
        resend with edited answers) for input. A resend (``resend_of``) is shown next to the call it resent."""
        if self.live is None or self.live.session is None:
            return
        self._resend_of = resend_of
        if resend_of is None:
            self.timeline_view.cursor = 0
        await self.live.call(kind, name, arguments, answers)

    async def close_session(self) -> None:
        """Stop listening and close the session (bounded)."""
        if self._bridge is not None:
            self._bridge.close()
            self._bridge = None
        if self.live is not None:
            await self.live.close()

    def _can_send(self, what: str = "nothing can be sent") -> bool:
        """Whether a call can be made now; if not, says why."""
        if self.walk is not None:
            self.notify(READ_ONLY, title="replay", severity="warning")
            return False
        if self.session is None or self.state != "connected":
            self.notify(f"not connected: {what}" if what else "not connected", severity="warning")
            return False
        return True

    # ------------------------------------------------------------------------------------------------ catalog
    @on(Catalog.Chosen)
    def _chosen(self, event: Catalog.Chosen) -> None:
        if self._can_send(""):
            self.composer.choose(event.item, event.kind)

    @on(Catalog.Previewed)
    def _previewed(self, event: Catalog.Previewed) -> None:
        self.query_one(DetailView).show(item_document(event.kind, event.item))
        self.selected = None
        self.query_one(CallKeys).point_at(None)

    # ------------------------------------------------------------------------------------------------ timeline
    # The bridge posts to the timeline widget, which redraws itself from them; the messages then bubble up here.
    def on_call_was_started(self, message: CallWasStarted) -> None:
        if self._resend_of is not None and self.walk is None:
            self.resent_from[message.call.index] = self._resend_of
            self.timeline_view.show_resend(message.call.index, self._resend_of)
            self._resend_of = None

    @on(RoundWasStarted)
    @on(RoundWasUpdated)
    @on(CallWasFinished)
    def _call_changed(self, message: RoundWasStarted | RoundWasUpdated | CallWasFinished) -> None:
        self._maybe_show(message.call.index)

    def on_console_was_appended(self, message: ConsoleWasAppended) -> None:
        if self.walk is None:  # a recording's console is written by its walk, in record order
            self.query_one(Console).append(message.line)

    def on_session_was_changed(self, message: SessionWasChanged) -> None:
        if not message.timeline.connected and self.state == "connected":
            self.state = "closed"
        self._header()

    # ------------------------------------------------------------------------------------------------ detail
    @on(TimelineView.Highlighted)
    def _highlighted(self, event: TimelineView.Highlighted) -> None:
        if (event.call, event.round) == self.selected:
            return  # announced again (the timeline got the focus back) while still shown
        self._unfold = False
        self._show(event.call, event.round)

    @on(DetailView.UnfoldRequested)
    def _unfold_requested(self) -> None:
        self._unfold = True
        if self.selected is not None:
            self._show(*self.selected, keep_scroll=True)

    def _maybe_show(self, call: int) -> None:
        """The call shown changed: drawn again once for however many changes are queued. A call that sends
        progress changes hundreds of times a second, and a key pressed meanwhile (``k`` to cancel it) must not wait
        behind as many redraws of its detail."""
        if self.selected is not None and self.selected[0] == call and not self._show_queued:
            self._show_queued = True
            self.call_later(self._show_again)

    def _show_again(self) -> None:
        self._show_queued = False
        if self.selected is not None:
            self._show(*self.selected, keep_scroll=True)

    def _show(self, call_index: int, round_index: int, *, keep_scroll: bool = False) -> None:
        shown = selection(self.timeline, call_index, round_index, unfold=self._unfold, resent_from=self.resent_from)
        if shown is None:
            return
        self.selected = (call_index, round_index)
        self.query_one(DetailView).show(shown.document, keep_scroll=keep_scroll)
        panel = self.query_one(RequestStatePanel)
        panel.where = shown.where
        panel.state = shown.state
        self.query_one(CallKeys).point_at(shown.call, round_index)  # (which redraws the footer)

    # ------------------------------------------------------------------------------------------------ call keys
    @on(CallKeys.ExportRequested)
    def _export(self, event: CallKeys.ExportRequested) -> None:
        header = self.walk.recording.header if self.walk is not None else None
        self.app.push_screen(ExportModal(self.timeline, event.call.index, event.round, header=header))

    @on(CallKeys.ResendRequested)
    def _resend(self, event: CallKeys.ResendRequested) -> None:
        if self._can_send():
            refused = self.composer.resend(event.call, event.round, self.query_one(Catalog).items)
            if refused is not None:
                self.notify(refused)

    @on(CallKeys.CancelRequested)
    async def _cancel(self, event: CallKeys.CancelRequested) -> None:
        """The session fails the call's request in flight (and tells the server); when nothing was on the wire
        (e.g. between rounds) the worker driving the call is cancelled instead."""
        call: Call = event.call
        if not call.in_flight or self.live is None or self.live.session is None:
            return
        if not await self.live.cancel(call.index):
            self.workers.cancel_group(self, "call")
        self.notify(f"#{call.index} cancelled", timeout=3)

    # ------------------------------------------------------------------------------------------------ screen keys
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("next_step", "all_steps"):
            return self.walk is not None and self.walk.steps_left
        if action == "reconnect":
            return self.state == "failed"
        if action == "back":
            return self.can_go_back or self.focused is self.query_one("#filter")
        return True

    def action_next_step(self) -> None:
        """Reveal the next recorded message."""
        if self.walk is not None:
            self.walk.next_step()
            self._header()
            self.refresh_bindings()

    def action_all_steps(self) -> None:
        """Reveal every remaining recorded message."""
        if self.walk is not None:
            self.walk.all_steps()
            self._header()
            self.refresh_bindings()

    def action_search(self) -> None:
        self.query_one(Catalog).focus_search()

    def action_filter(self) -> None:
        field = self.query_one("#filter", Input)
        field.display = True
        field.focus()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.timeline_view.filter_text = event.value

    @on(Input.Submitted, "#filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        field = self.query_one("#filter", Input)
        field.display = bool(event.value)
        self.timeline_view.focus()

    def action_reconnect(self) -> None:
        self.connect()

    async def action_back(self) -> None:
        field = self.query_one("#filter", Input)
        if self.focused is field:
            field.display = bool(field.value)
            self.timeline_view.focus()
            return
        await self.close_session()
        self.dismiss(None)
