"""The main screen: catalog, timeline, detail, requestState panel and console around one session or a recording.

The screen orchestrates: it owns the session (built by the injected factory), runs every network operation in a
worker, turns bridge messages into attribute updates on its widgets, and opens the composer. Widgets never touch
the session or each other. Given a ``Recording`` instead (``inspector replay FILE``), it shows the recorded timeline
read-only: no session is built, no server started, and every key that would send says so. The keys on the
selected call (export, edit & resend, cancel, replay steps) live in ``CallActions``.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input

from inspector.protocol.methods import CATALOG, CATALOG_KINDS, CatalogKind
from inspector.ui import known_targets
from inspector.ui.answers import calling
from inspector.ui.bridge import (
    CallWasFinished,
    CallWasStarted,
    ConsoleWasAppended,
    FindingWasRaised,
    RoundWasStarted,
    RoundWasUpdated,
    SessionWasChanged,
    TimelineBridge,
)
from inspector.ui.recorded import READ_ONLY
from inspector.ui.resend import SwitchableAnswers
from inspector.ui.screens.call_actions import CallActions
from inspector.ui.screens.compose import ComposeResultValue, ComposeScreen
from inspector.ui.widgets.catalog import Catalog, CatalogList
from inspector.ui.widgets.connect_error import ConnectErrorPanel
from inspector.ui.widgets.console import Console
from inspector.ui.widgets.detail_view import DetailView
from inspector.ui.widgets.document import Document
from inspector.ui.widgets.request_state import RequestStatePanel
from inspector.ui.widgets.session_header import SessionHeader
from inspector.ui.widgets.timeline_view import TimelineView

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import ComposeResult

    from inspector.answers.base import AnswerSource
    from inspector.session.timeline import Timeline
    from inspector.ui.recorded import Recording
    from inspector.ui.session_port import SessionFactory, SessionPort
    from inspector.ui.target import Target


class MainScreen(CallActions):
    """Everything about one session (or one recording, read-only)."""

    BINDINGS: ClassVar[list[BindingType]] = [
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
        self.factory = factory
        self.answers = answers
        self.switch = SwitchableAnswers(answers)
        """What the session answers with: ``answers``, or a resend's edited answers while it runs."""
        self.replay = replay
        """The recording shown read-only (None: a live session)."""
        self.recording = recording
        self.config_dir = config_dir
        self.can_go_back = can_go_back
        self.session: SessionPort | None = session
        """The live session (None until the factory built it)."""
        self.state = "replay" if replay is not None else "connecting"
        """connecting, connected, failed, closed, or replay (shown in the header)."""
        self.failure: BaseException | None = None
        """Why the last connect failed."""
        self.selected: tuple[int, int] | None = None
        """(call, round) shown in the detail pane."""
        self.catalog_loaded = False
        """True once every catalog list came back (tests wait on it)."""
        self.resent_from: dict[int, int] = {}
        self._resend_of: int | None = None
        self._bridge: TimelineBridge | None = None
        self._unfold = False

    # ------------------------------------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield SessionHeader(id="header")
        with Horizontal(id="body"):
            yield Catalog(id="catalog")
            with Vertical(id="middle"):
                yield ConnectErrorPanel(id="connect-error")
                yield TimelineView(self._timeline(), id="timeline")
                yield Input(
                    placeholder="filter: method:tools/call name:weather status:complete error findings", id="filter"
                )
            with Vertical(id="right"):
                yield DetailView(id="detail")
                yield RequestStatePanel(id="state")
        yield Console(id="console")
        yield Footer()

    def _timeline(self) -> Timeline:
        from inspector.session.timeline import Timeline

        if self.replay is not None:
            return self.replay.timeline
        return self.session.timeline if self.session is not None else Timeline(target=self.target.display_name)

    @property
    def timeline_view(self) -> TimelineView:
        """The timeline widget."""
        return self.query_one(TimelineView)

    def on_mount(self) -> None:
        self.query_one("#timeline").border_title = "Timeline"
        self.query_one("#detail").border_title = "Detail"
        self.query_one("#console").border_title = "Console  stderr · logs · transport"
        self.query_one(ConnectErrorPanel).display = False
        self.query_one("#filter").display = False
        self._header()
        if self.replay is not None:
            self.open_replay(self.replay)
        else:
            self.query_one(CatalogList).focus()
            self.connect()

    def _header(self) -> None:
        self.query_one(SessionHeader).show(
            self._timeline(), self.target.display_name, self.recording, self.state, self.step_note
        )

    # ------------------------------------------------------------------------------------------------ session work
    def _use_session(self, session: SessionPort) -> None:
        self.session = session
        view = self.timeline_view
        view.timeline = session.timeline
        view.refresh_model()
        if self._bridge is not None:
            self._bridge.close()
        self._bridge = TimelineBridge(session.timeline, self)
        console = self.query_one(Console)
        for line in session.timeline.console:
            console.append(line)

    @work(exclusive=True, group="connect")
    async def connect(self) -> None:
        """Build the session, connect, and list the catalog."""
        retrying = self.failure is not None
        self.failure = None
        self.state = "connecting"
        self.query_one(ConnectErrorPanel).display = False
        self._header()
        try:
            if self.session is None or (retrying and self.factory is not None):
                if self.factory is None:
                    raise RuntimeError("no session factory was given")
                self._use_session(self.factory(self.target, self.switch))
            elif self._bridge is None:
                self._use_session(self.session)
            assert self.session is not None
            if not self.session.timeline.connected:
                await self.session.connect()
        except Exception as error:  # a server that fails to start must show its error, not a traceback
            self._failed(error)
            return
        self.state = "connected"
        self._header()
        if self.config_dir is not None and self.target.source != "replay":
            known_targets.remember(self.config_dir, self.target)
        await self._list_catalog(self.session)

    async def _list_catalog(self, session: SessionPort) -> None:
        caps = session.timeline.server_capabilities
        for kind in CATALOG_KINDS:
            if caps is not None and CATALOG[kind].capability not in caps:
                continue
            outcome = await session.list_all(kind)
            if outcome.ok and outcome.result is not None:
                items = next((value for value in outcome.result.values() if isinstance(value, list)), [])
                self.query_one(Catalog).set_items(kind, [item for item in items if isinstance(item, dict)])
        self.catalog_loaded = True

    def _failed(self, error: BaseException) -> None:
        self.failure = error
        self.state = "failed"
        self._header()
        stderr = [line.text for line in self._timeline().console if line.source == "stderr"]
        panel = self.query_one(ConnectErrorPanel)
        panel.show_failure(error, stderr)
        panel.display = True
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
        session = self.session
        if session is None:
            return
        self._resend_of = resend_of
        if resend_of is None:
            self.timeline_view.cursor = 0
        method = {"tools": "tools/call", "prompts": "prompts/get"}.get(kind, "resources/read")
        # the modals this call opens are titled with it
        with calling(f"{method} {name}"), self.switch.using(answers):
            if kind == "tools":
                await session.call_tool(name, arguments)
            elif kind == "prompts":
                await session.get_prompt(name, {k: str(v) for k, v in (arguments or {}).items()})
            else:
                await session.read_resource(name)

    async def close_session(self) -> None:
        """Stop listening and close the session (bounded)."""
        if self._bridge is not None:
            self._bridge.close()
            self._bridge = None
        if self.session is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.session.close(), 5)

    # ------------------------------------------------------------------------------------------------ catalog
    @on(Catalog.Chosen)
    def _chosen(self, event: Catalog.Chosen) -> None:
        item, kind = event.item, event.kind
        if self.replay is not None:
            self.notify(READ_ONLY, title="replay", severity="warning")
            return
        if self.session is None or self.state != "connected":
            self.notify("not connected", severity="warning")
            return
        if kind == "resources":
            self.run_call(kind, str(item.get("uri", "")), None)
            return
        if kind == "prompts" and not item.get("arguments"):
            self.run_call(kind, str(item.get("name", "")), {})
            return

        def composed(value: ComposeResultValue | None) -> None:
            if value is None:
                return
            name, arguments = value
            if kind == "templates":
                self.run_call("resources", str(arguments.get("uri", name)), None)
            else:
                self.run_call(kind, name, arguments)

        self.app.push_screen(ComposeScreen(item, kind=kind), composed)

    @on(Catalog.Previewed)
    def _previewed(self, event: Catalog.Previewed) -> None:
        doc = Document()
        doc.add("heading", f"{event.kind[:-1]}: {event.item.get('name', event.item.get('uri', ''))}")
        doc.json(event.item, unfold=False)
        self.query_one(DetailView).show(doc)
        self.selected = None
        self.refresh_bindings()

    # ------------------------------------------------------------------------------------------------ timeline
    def on_call_was_started(self, message: CallWasStarted) -> None:
        view = self.timeline_view
        view.refresh_model(message.call.index)
        if self._resend_of is not None and self.replay is None:
            self.resent_from[message.call.index] = view.follows[message.call.index] = self._resend_of
            self._resend_of = None
            view.select_call(message.call.index)

    def on_round_was_started(self, message: RoundWasStarted) -> None:
        if message.round.index > 1:
            self.timeline_view.auto_unfold(message.call.index)
        self.timeline_view.refresh_model(message.call.index)
        self._maybe_show(message.call.index)

    def on_round_was_updated(self, message: RoundWasUpdated) -> None:
        self.timeline_view.refresh_model(message.call.index)
        self._maybe_show(message.call.index)

    def on_call_was_finished(self, message: CallWasFinished) -> None:
        self.timeline_view.refresh_model(message.call.index)
        self._maybe_show(message.call.index)

    def on_console_was_appended(self, message: ConsoleWasAppended) -> None:
        self.query_one(Console).append(message.line)

    def on_finding_was_raised(self, message: FindingWasRaised) -> None:
        count = len(message.timeline.findings)
        self.timeline_view.border_subtitle = f"⚠ {count} finding{'s' if count != 1 else ''}"
        self.timeline_view.refresh_model(message.finding.call_index)

    def on_session_was_changed(self, message: SessionWasChanged) -> None:
        if not message.timeline.connected and self.state == "connected":
            self.state = "closed"
        self._header()

    # ------------------------------------------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        available = self.call_action_available(action)
        if available is not None:
            return available
        if action == "reconnect":
            return self.state == "failed"
        if action == "back":
            return self.can_go_back or self.focused is self.query_one("#filter")
        return True

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
