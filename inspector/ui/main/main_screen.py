"""The main screen: catalog, timeline, detail, requestState panel and console around one session or a recording.

The screen orchestrates: given a ``LiveSession`` (the app builds it on the injected factory), it owns the session
the factory builds, runs every network operation in a worker, turns bridge messages into attribute updates on its
widgets, and acts on the messages its widgets post (a catalog item chosen, a key pressed on the highlighted call).
Widgets never touch the session or each other. The keys on the highlighted call (export, edit & resend, cancel)
belong to the ``CallKeys`` container of the panes; cancels, the subscriptions panel and the tasks toggle are
``LongWork``'s. Given a ``Recording`` instead (``inspector replay FILE``), the screen holds a ``ReplayWalk`` that
shows the recorded timeline read-only and walks it with ``n`` and ``N``: no session is built, no server started,
and every key that would send says so.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, ClassVar, Final

from textual import on, work
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from inspector.timeline.model import (
    CallFinished,
    CallStarted,
    ConsoleAppended,
    RoundStarted,
    RoundUpdated,
    SessionChanged,
    SessionRowChanged,
    Timeline,
)
from inspector.ui.bridge import TimelineBridge, TimelineChanged
from inspector.ui.composer.call_composer import CallComposer, CallRequest
from inspector.ui.detail.call_document import item_document
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.detail.skill_document import skill_document
from inspector.ui.interactive_answers import InteractiveAnswers
from inspector.ui.key_hold import hold_keys, released
from inspector.ui.keys import Key, bindings, typing
from inspector.ui.lab.offered_calls import offered
from inspector.ui.login.login_watch import LoginWatch
from inspector.ui.main.detail_show import DetailShow
from inspector.ui.main.live_session import LiveSession
from inspector.ui.main.long_work import LongWork
from inspector.ui.main.pane_layout import PANES, Pane, PaneLayout, Panes
from inspector.ui.main.replay_walk import ReplayWalk
from inspector.ui.modals.dialog import open_dialog
from inspector.ui.recorded import READ_ONLY, Recording
from inspector.ui.widgets.call_keys import CallKeys
from inspector.ui.widgets.catalog import Catalog, CatalogList
from inspector.ui.widgets.connect_error import ConnectErrorPanel
from inspector.ui.widgets.console import Console
from inspector.ui.widgets.key_footer import KeyFooter
from inspector.ui.widgets.listen_panel import ListenPanel
from inspector.ui.widgets.query_box import FilterBox
from inspector.ui.widgets.request_state import RequestStatePanel
from inspector.ui.widgets.session_header import SessionHeader
from inspector.ui.widgets.timeline_view import TimelineView

if TYPE_CHECKING:
    from textual import events
    from textual.app import ComposeResult
    from textual.worker import Worker

    from inspector.answers.source import AnswerSource
    from inspector.targets.target import Target
    from inspector.ui.lab_port import LabFactory
    from inspector.ui.login.tui_login import ScreenLogin
    from inspector.ui.main.sent_calls import SentCall
    from inspector.ui.session_port import SessionPort


LAYOUT_CLASSES: Final = frozenset({"-stacked", "-drawer", *(f"-no-{pane}" for pane in PANES)})
"""The screen's classes that ``Panes.classes`` sets (the others are left alone)."""
PANE_GROUP: Final = Binding.Group("panes")
"""The footer's one item for the pane keys."""
PANE_IDS: Final[dict[Pane, str]] = {"catalog": "#catalog", "detail": "#right", "console": "#console"}
"""What each pane hides: the detail goes with the requestState (and subscriptions) panel beside it."""


class MainScreen(Screen[None]):
    """Everything about one session (or one recording, read-only)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # First, so that a narrow footer still shows how to bring back a pane the size hid; one footer item for
        # the four ("C D ` z panes"), each key with its own words in the help.
        *(
            replace(binding, group=PANE_GROUP) if isinstance(binding, Binding) else binding
            for binding in bindings(
                "main",
                Key("C", "pane('catalog')", "catalog", "Show or hide the catalog (a drawer under 100 columns)"),
                Key("D", "pane('detail')", "detail", "Show or hide the detail and requestState panes"),
                Key("grave_accent", "pane('console')", "console", "Show or hide the console", display="`"),
                Key("z", "zoom", "zoom", "The timeline alone, full width; again: every pane back"),
            )
        ),
        *bindings(
            "main",
            Key("n", "step(False)", "next message", "Replay: reveal the next message"),
            Key("N", "step(True)", "all", "Replay: reveal every remaining message"),
            Key("slash", "search", "search", "Search the catalog", priority=True),
            Key(
                "f", "filter", "filter", "Filter the timeline: method:, name:, status:, error, findings", priority=True
            ),
            Key("r", "reconnect", "retry", "Try to connect again"),
            Key(
                "R",
                "refresh",
                "refresh",
                "List the catalog again from the server: the cache of lists and reads is emptied first",
                show=False,
            ),
            Key("l", "work('panel')", "subscriptions", "Show or hide the subscriptions panel (subscriptions/listen)"),
            Key("T", "work('tasks')", "tasks on/off", "Declare the Tasks extension on later calls, or not"),
            Key("L", "lab", "lab", "The statelessness lab on this server: instances A and B, tamper, eras", show=False),
            Key("a", "login", "login", "The session's OAuth logins, step by step, and the one that waits", show=False),
            Key("escape", "back", "servers", "Close this session and choose another server"),
        ),
    ]

    def __init__(
        self,
        shown: LiveSession | Recording,
        answers: AnswerSource,
        *,
        recording: str | None = None,
        can_go_back: bool = False,
        login: ScreenLogin | None = None,
        lab: LabFactory | None = None,
    ) -> None:
        super().__init__()
        self.live = shown if isinstance(shown, LiveSession) else None
        """The live session's work (None for a recording)."""
        self.walk = ReplayWalk(shown) if isinstance(shown, Recording) else None
        """Shows the recording and walks it step by step (None: a live session)."""
        self.target: Target = shown.target if isinstance(shown, LiveSession) else shown.target()
        self.answers = answers
        self.recording = recording
        """Where the live session records, as the header shows it (None: it does not)."""
        self.can_go_back = can_go_back
        self.state = "replay" if self.walk is not None else "connecting"
        """connecting, connected, failed, closed, or replay (shown in the header)."""
        self.failure: BaseException | None = None
        """Why the last connect failed."""
        self.catalog_loaded = False
        """True once every catalog list came back (tests wait on it)."""
        self.lab = lab
        """Starts lab runs for the Lab screen (None: the lab is not available here)."""
        self.logins = LoginWatch(self, login)
        """Brings up the login screen when a login starts (``a`` any time)."""
        self._bridge: TimelineBridge | None = None
        self._empty = Timeline(target=self.target.display_name)
        self.layout_panes = PaneLayout()
        """Which panes show at the terminal's size, and the toggles (``C``, ``D``, the backtick, ``z``) over that."""

    @property
    def session(self) -> SessionPort | None:
        """The live session (None until the factory built it, and for a recording)."""
        return self.live.session if self.live is not None else None

    def compose(self) -> ComposeResult:
        # The panes the size shows, as classes before any pane is mounted: set once mounted, they restyled every
        # widget of the screen a second time before its first frame (a tenth of a second at start, issue 33).
        self._set_layout_classes(self.layout_panes.resized(*self.app.size))
        yield SessionHeader(id="header")
        with CallKeys(id="panes"):
            with Horizontal(id="body"):
                yield Catalog(id="catalog")
                # Timeline and detail side by side, or the detail below (``-stacked``): the CSS lays #work out.
                with Horizontal(id="work"):
                    with Vertical(id="middle"):
                        yield ConnectErrorPanel(id="connect-error")
                        timeline = TimelineView(self.timeline, id="timeline")
                        yield timeline
                        yield FilterBox(
                            timeline,
                            placeholder="filter: method:tools/call name:weather status:complete error findings",
                            id="filter",
                        )
                    with Horizontal(id="right"):
                        yield DetailView(id="detail")
                        with Vertical(id="side"):
                            yield RequestStatePanel(id="state")
                            yield ListenPanel(id="listen")
            yield Console(id="console")
        yield KeyFooter()

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
        self.composer = CallComposer(self.app, self._send_composed, self.answers)
        """Opens the composer (or the answers editor of a resend) and makes the call composed."""
        keys = self.query_one(CallKeys)
        self.shown = DetailShow(
            lambda: self.timeline, self.query_one(DetailView), self.query_one(RequestStatePanel), keys
        )
        """Shows the highlighted call or round on the detail pane, the requestState panel and the call keys."""
        panels = self.timeline_view, self.query_one(ListenPanel), self.query_one(Catalog)
        self.work = LongWork(self, self.live, *panels) if self.live is not None else None
        """Cancels, subscriptions and the catalog's refreshes, the tasks toggle (None: a recording)."""
        keys.cancels = self.work  # ``k`` acts through the long work (none on a recording)
        self.query_one("#timeline").border_title = "Timeline"
        self.query_one("#detail").border_title = "Detail"
        self.query_one("#console").border_title = "Console  stderr · logs · transport"
        self._header()
        self._lay_out(self.layout_panes.resized(*self.app.size))
        if self.walk is not None:
            self._open_recording(self.walk)
        else:
            if self.layout_panes.is_shown("catalog"):
                self.query_one(CatalogList).focus()
            else:
                self.timeline_view.focus()
            # Once the screen is on the terminal (issue 33: the first frame before the server answers): building
            # the session and starting its server no longer run ahead of the first paint.
            self.call_after_refresh(self.connect)

    # ------------------------------------------------------------------------------------------------ layout
    def on_resize(self, event: events.Resize) -> None:
        self._lay_out(self.layout_panes.resized(event.size.width, event.size.height))

    def _lay_out(self, panes: Panes) -> None:
        """Apply ``panes`` (the CSS reads the classes); a pane hidden with the focus in it hands it to the
        timeline, so the keys typed next still land somewhere visible."""
        self._set_layout_classes(panes)
        focused = self.focused
        hidden = [self.query_one(PANE_IDS[pane]) for pane in PANES if not getattr(panes, pane)]
        if focused is not None and any(focused is pane or pane in focused.ancestors for pane in hidden):
            self.timeline_view.focus()
        self.refresh_bindings()

    def _set_layout_classes(self, panes: Panes) -> None:
        wanted = panes.classes()
        if wanted != LAYOUT_CLASSES & set(self.classes):
            # (one set_classes: a remove_class then an add_class restyled every widget of the screen twice; the
            # restyle was a quarter of a resize's profile. bench_tui.py times a resize to its frame)
            self.set_classes((set(self.classes) - LAYOUT_CLASSES) | wanted)

    def action_pane(self, pane: Pane) -> None:
        """``C`` the catalog, ``D`` the detail (and the requestState panel), the backtick the console: shown or
        hidden; the catalog brought back takes the focus (what it is asked for: choosing what to call)."""
        self._lay_out(self.layout_panes.toggle(pane))
        if pane == "catalog" and self.layout_panes.is_shown("catalog"):
            self.query_one(CatalogList).focus()

    def action_zoom(self) -> None:
        """The timeline alone, full width (the highlighted call's detail one ``D`` away); again: the panes back."""
        self._lay_out(self.layout_panes.zoom())

    def _header(self) -> None:
        note = self.walk.note if self.walk is not None else self.work.note if self.work is not None else ""
        self.query_one(SessionHeader).show(self.timeline, self.target.display_name, self.recording, self.state, note)

    def _open_recording(self, walk: ReplayWalk) -> None:
        """Show the recorded timeline (grown message by message in step mode); nothing connects."""
        # Step mode grows the timeline as a live session does.
        self._bridge = TimelineBridge(walk.timeline, self.timeline_view)
        walk.show_on(self.timeline_view, self.query_one(Console), self.query_one(Catalog))
        self.catalog_loaded = True
        self._header()

    def _use_session(self, session: SessionPort) -> None:
        self.query_one(CallKeys).live = True
        view = self.timeline_view
        view.timeline = session.timeline
        view.refresh_model()
        if self._bridge is not None:
            self._bridge.close()
        self._bridge = TimelineBridge(session.timeline, view)
        self.logins.follow(session.timeline)
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
        # Each list as it comes, then the highlighted item previewed (False: the catalog went away meanwhile, the
        # app shutting down before the screen is detached).
        self.catalog_loaded = await self.query_one(Catalog).fill(live.catalog())

    def _failed(self, error: BaseException) -> None:
        self.failure = error
        self.state = "failed"
        self._header()
        self._show_failure(error)
        self.refresh_bindings()

    def _show_failure(self, error: BaseException) -> None:
        """The failure on its panel, with the server's stderr as far as it has come."""
        stderr = [line.text for line in self.timeline.console if line.source == "stderr"]
        self.query_one(ConnectErrorPanel).show_failure(error, stderr)

    def _send_composed(self, request: CallRequest) -> None:
        """A call composed in a dialog (or chosen in the catalog): the drawer closes, the call is what to watch now.
        It closes now, in the step that closes the dialog, not when the call's worker first runs: by then the keys
        typed after the dialog's enter (``/slow``) have moved on, and the drawer closing under them took the focus
        from the search box they opened (``s`` then resent)."""
        self._close_drawer()
        self.run_call(request)

    def _close_drawer(self) -> None:
        """The catalog, when it is a drawer over the timeline (under ``CATALOG_FROM`` columns), closes."""
        if self.layout_panes.shown.drawer and self.layout_panes.is_shown("catalog"):
            self._lay_out(self.layout_panes.toggle("catalog"))

    def run_call(self, request: CallRequest) -> Worker[None]:
        """Make one call, in a worker of its own (``_call``). Until the call's row is highlighted, ``k`` is for it
        (``LongWork.sent``): a cancel pressed right after Enter is never turned on the call highlighted before."""
        sent = self.work.sent.sent() if self.work is not None else None
        worker = self._call(request, sent)
        if sent is not None:
            sent.worker = worker
        return worker

    @work(exclusive=False, group="call")
    async def _call(self, request: CallRequest, sent: SentCall | None) -> None:
        """The session drives the call's rounds and asks the answers source (the request's, for a resend with
        edited answers) for input. A resend is shown next to the call it resent. Calls run side by side (a worker
        each): a new call never cancels one in flight, such as a task being followed; `k` cancels one."""
        long_work = self.work
        try:
            if self.live is None or self.live.session is None:
                return
            if request.resend_of is None:
                self.timeline_view.cursor = 0
            started = partial(long_work.started, sent) if long_work is not None and sent is not None else None
            await self.live.call(request, started)
        finally:
            if isinstance(self.answers, InteractiveAnswers):
                self.answers.release_between()  # the call ended before asking the question the keys waited for
            if long_work is not None and sent is not None:
                long_work.sent.finished(sent)

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
    # A key that asks for a dialog holds the keys typed after it (``key_hold``); the handlers release the hold
    # once the dialog is open (it holds them on until its first field has the focus) or will not be.
    @on(Catalog.Chosen)
    def _chosen(self, event: Catalog.Chosen) -> None:
        with released(event.hold):
            if self._can_send(""):
                self.composer.choose(event.item, event.kind)

    @on(Catalog.Previewed)
    def _previewed(self, event: Catalog.Previewed) -> None:
        self.shown.preview(item_document(event.kind, event.item))

    @on(Catalog.SkillShown)
    def _skill_shown(self, event: Catalog.SkillShown) -> None:
        """A skill highlighted: its entry (and its last load); ``v`` or enter: loaded now, a call of the screen's
        like any other (the timeline highlights it; ``k`` cancels it)."""
        loads = self.live.skill_loads if self.live is not None else {}
        self.shown.preview(skill_document(event.entry, loads.get(str(event.entry.get("uri", "")))))
        if event.load and self._can_send("the skill cannot be loaded"):
            self._close_drawer()
            sent = self.work.sent.sent() if self.work is not None else None
            worker = self._load_skill(event.entry, sent)
            if sent is not None:
                sent.worker = worker

    @work(exclusive=False, group="call")
    async def _load_skill(self, entry: dict[str, object], sent: SentCall | None) -> None:
        """Read the skill's SKILL.md and verify it (``LiveSession.load_skill``): its call's detail shows the text
        read and, when it failed verification, the error finding; the skill's own preview says which, from then on."""
        long_work = self.work
        try:
            if self.live is None or self.live.session is None:
                return
            self.timeline_view.cursor = 0
            started = partial(long_work.started, sent) if long_work is not None and sent is not None else None
            await self.live.load_skill(entry, started)
        finally:
            if long_work is not None and sent is not None:
                long_work.sent.finished(sent)

    # ------------------------------------------------------------------------------------------------ timeline
    # The bridge posts to the timeline widget, which redraws itself from them; the messages then bubble up here.
    def on_timeline_changed(self, message: TimelineChanged) -> None:
        match message.event:
            case CallStarted(call):
                self._call_started(call.index, call.resends)
            case RoundStarted(call) | RoundUpdated(call) | CallFinished(call):
                self.shown.changed(call.index)
                if self.work is not None:
                    self.work.changed(call, message.timeline)
            case SessionRowChanged():
                self.shown.changed(0)  # (a session row shown is call 0's)
            case ConsoleAppended(line):
                if self.walk is None:  # a recording's console is written by its walk, in record order
                    self.query_one(Console).append(line)
                if self.state == "failed" and self.failure is not None and line.source == "stderr":
                    # A server that dies at once is found dead by the first request, before its stderr has been
                    # read: the panel shows the lines as they come, where its hint says they are.
                    self._show_failure(self.failure)
            case SessionChanged():
                if not message.timeline.connected and self.state == "connected":
                    self.state = "closed"
                self._header()

    def _call_started(self, index: int, resends: int | None) -> None:
        if resends is not None and self.walk is None:
            self.timeline_view.show_resend(index)
        elif self.work is not None and self.work.sent.ours(index):
            self.timeline_view.select_call(index)  # the call just sent is what to watch now
        if self.work is not None and self.work.sent.ours(index):
            current = self.timeline_view.current
            if current is None or current.call != index:
                self.work.sent.not_shown(index)  # (the filter leaves it out: k is for the highlighted call again)

    @on(TimelineView.Highlighted)
    def _highlighted(self, event: TimelineView.Highlighted) -> None:
        self.shown.highlighted(event.call, event.round)
        if self.work is not None:
            self.work.sent.highlighted(event.call)  # (k is for the highlighted call from now on)

    @on(DetailView.UnfoldRequested)
    def _unfold_requested(self) -> None:
        self.shown.unfolded()

    @on(DetailView.ViewChanged)
    def _view_changed(self) -> None:
        self.shown.rebuilt()  # (j or m: the result by content type or as JSON, markdown rendered or not)

    @on(DetailView.ReadRequested)
    def _read_link(self, event: DetailView.ReadRequested) -> None:
        """A resource link's key: read it, as a call of its own (the timeline highlights it)."""
        if self._can_send("the link cannot be read"):
            self._send_composed(CallRequest("resources", event.uri, None))

    @property
    def selected(self) -> tuple[int, int] | None:
        """(call, round) shown in the detail pane."""
        return self.shown.selected

    @on(CallKeys.ExportRequested)
    def _export(self, event: CallKeys.ExportRequested) -> None:
        header = self.walk.recording.header if self.walk is not None else None
        from inspector.ui.modals.export_dialog import CallToExport, ExportModal  # (when first opened: see ui/app.py)

        with released(event.hold):
            exported = CallToExport(self.timeline, event.call.index, event.round, header)
            open_dialog(self.app, ExportModal(exported))

    @on(CallKeys.ResendRequested)
    def _resend(self, event: CallKeys.ResendRequested) -> None:
        with released(event.hold):
            if self._can_send():
                refused = self.composer.resend(event.call, event.round, self.query_one(Catalog).items)
                if refused is not None:
                    self.notify(refused)

    @on(ListenPanel.Asked)
    def _listen_asked(self, event: ListenPanel.Asked) -> None:
        if self.work is not None and self._can_send("nothing can be listened to"):
            self.work.asked(event)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("search", "filter") and typing(self.app):
            return False  # the letter is typed in the text field that has the cursor
        if action == "step":
            return self.walk is not None and self.walk.steps_left
        if action == "reconnect":
            return self.state == "failed"
        if action == "back":
            return self.can_go_back
        if action == "work":
            return self.work is not None and not typing(self.app)
        if action in ("pane", "zoom"):
            return not typing(self.app)
        if action == "refresh":
            return self.walk is None and not typing(self.app)
        return True

    def action_work(self, what: str) -> None:
        """``l`` the subscriptions panel (where the requestState panel was), ``T`` the tasks toggle."""
        if what == "panel":
            self._close_drawer()  # (the drawer covered the panel it opened, and its focused box: at 80x24)
        if self.work is not None:
            self.work.act(what, self.query_one(RequestStatePanel), self.timeline)
            self._header()

    def action_step(self, rest: bool) -> None:
        """Reveal the next recorded message (``rest``: every remaining one)."""
        if self.walk is not None:
            if rest:
                self.walk.all_steps()
            else:
                self.walk.next_step()
            self._header()
            self.refresh_bindings()

    def action_search(self) -> None:
        if not self.layout_panes.is_shown("catalog"):
            self._lay_out(self.layout_panes.show("catalog"))  # (hidden at this size: the search brings it)
        self.query_one(Catalog).focus_search()

    def action_filter(self) -> None:
        field = self.query_one(FilterBox)
        field.display = True
        field.focus()

    def action_reconnect(self) -> None:
        self.connect()

    def action_refresh(self) -> None:
        """``R``: every list asked of the server again, the session's cache emptied (nothing served from it)."""
        if self._can_send("the catalog cannot be listed again"):
            self.notify("refresh: the cache emptied, the catalog asked of the server again", timeout=3)
            self._refreshed()

    @work(exclusive=True, group="refresh")
    async def _refreshed(self) -> None:
        if self.live is not None:
            await self.query_one(Catalog).fill(self.live.catalog(fresh=True))

    def action_lab(self) -> None:
        """The Lab screen over this one, on the live session's target."""
        if self.walk is not None:
            self.notify(
                "a recording has no server to run the lab on: open the lab from a live session", severity="warning"
            )
            return
        if self.lab is None:
            self.notify("the lab is not available here", severity="warning")
            return
        from inspector.ui.lab.lab_screen import LabScreen  # (when first opened: see ui/app.py)

        tools = self.query_one(Catalog).items.get("tools", [])
        choices = offered(self.timeline, self.lab.suggested(self.target), tools)
        self.app.push_screen(LabScreen(self.lab, self.target, choices, self.answers, hold=hold_keys(self.app)))

    def action_login(self) -> None:
        self.logins.show()

    async def action_back(self) -> None:
        await self.close_session()
        self.dismiss(None)
