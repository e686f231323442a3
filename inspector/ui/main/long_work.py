"""The main screen's long work: cancelling a call (``k``), the subscriptions of the panel (``l``), the catalog kept
up to date by the list changes they bring, and the tasks toggle (``T``).

``LongWork`` is held by the main screen, which hands it the live session's work, the timeline widget, the panel and
the catalog, and tells it what changed on the timeline; it runs the subscriptions and the catalog's listings in the
screen's workers. It is no widget: it draws nothing itself.

A cancel leaves at once: the row says "cancelling" from the key on, and the cancel is handed to the transport
before the key's action returns (``notifications/cancelled``, an HTTP stream closed, or ``tasks/cancel`` for a
task, even while one of its polls waits for its reply), with nothing slow awaited before it. A ``k`` pressed right
after a call was sent, before its row is highlighted, is for that call (``sent_calls``): never dropped, never
turned on the call highlighted before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Final, Protocol

from textual.widgets import Checkbox

from inspector.protocol.methods import LIST_CHANGED, SUBSCRIPTION_METHODS, CatalogKind
from inspector.session.eager import start_now
from inspector.ui.main.sent_calls import SentCall, SentCalls

if TYPE_CHECKING:
    from textual.widget import Widget

    from inspector.protocol.jsonrpc import JsonObject
    from inspector.timeline.model import Call, Timeline
    from inspector.ui.main.live_session import LiveSession
    from inspector.ui.widgets.catalog import Catalog
    from inspector.ui.widgets.listen_panel import ListenPanel
    from inspector.ui.widgets.timeline_view import TimelineView

REFRESHED: Final[dict[str, tuple[CatalogKind, ...]]] = LIST_CHANGED
"""The catalog kinds a list change makes the catalog list again."""


class WorkHost(Protocol):
    """What the long work needs of the screen it serves (the main screen is one): a word to the person, and the
    screen's workers to run subscriptions and listings in (they end with the screen)."""

    def notify(self, message: str, *, timeout: float | None = None) -> None: ...

    def run_worker(
        self, work: Coroutine[Any, Any, None], name: str | None = "", group: str = "default", *, exclusive: bool = False
    ) -> object: ...


class LongWork:
    """Cancels, subscriptions and the catalog's refreshes for one main screen (see the module docstring)."""

    def __init__(
        self,
        screen: WorkHost,
        live: LiveSession,
        view: TimelineView,
        panel: ListenPanel,
        catalog: Catalog,
    ) -> None:
        self.screen = screen
        self.live = live
        self.view, self.panel, self.catalog = view, panel, catalog
        self.sent = SentCalls()
        """The calls the screen sent, while they run (and the one ``k`` is for before its row is highlighted)."""
        self._cancels: set[asyncio.Future[None]] = set()
        self.stops: dict[int, asyncio.Event] = {}
        """What ends each subscription call the panel started, by call."""
        self._unclaimed: list[asyncio.Event] = []
        self._seen: dict[int, int] = {}

    # ------------------------------------------------------------------------------------------------ cancel
    def offered(self, highlighted: Call | None) -> bool:
        """Whether ``k`` cancels something now: the call just sent, before its row is highlighted (see
        ``sent_calls``), else the highlighted call; not a call that has ended or is being cancelled already."""
        sent = self.sent.waiting()
        if sent is None:
            return highlighted is not None and self._cancellable(highlighted)
        if sent.index is None:
            return not sent.cancel_asked
        call = self._call(sent.index)
        return call is not None and self._cancellable(call)

    def pressed(self, highlighted: Call | None) -> None:
        """``k``, as the app reads the key: cancel the call just sent (as it starts, when the session has not
        started it yet), else the highlighted call."""
        sent = self.sent.waiting()
        if sent is None:
            if highlighted is not None and self._cancellable(highlighted):
                self.cancel(highlighted)
        elif sent.index is None:
            if not sent.cancel_asked:
                sent.cancel_asked = True
                self.screen.notify("cancel asked: the call just sent stops before anything of it is sent", timeout=3)
        else:
            call = self._call(sent.index)
            if call is not None and self._cancellable(call):
                self.cancel(call)

    def started(self, sent: SentCall, index: int) -> None:
        """The session started ``sent`` as call ``index``, before anything of it is sent. A ``k`` pressed before
        this is applied now: the session sends nothing of the call, which ends cancelled."""
        sent.index = index
        if sent.cancel_asked and self.live.session is not None:
            self.view.cancelling(index)
            held = start_now(self._hold_back(index))
            self._cancels.add(held)
            held.add_done_callback(self._cancels.discard)

    async def _hold_back(self, call: int) -> None:
        await self.live.cancel(call)  # (nothing of it on the wire yet: the session sends none of it)

    def _call(self, index: int) -> Call | None:
        session = self.live.session
        return session.timeline.call(index) if session is not None else None

    def _cancellable(self, call: Call) -> bool:
        # A call being cancelled already waits for the server to stop: k again would do nothing.
        return call.in_flight and call.status != "cancelling" and call.index not in self.view.work.cancelling

    def cancel(self, call: Call) -> None:
        """``k`` on a call in flight, as the app reads the key: its row says "cancelling" from now on, and the
        cancel is handed to the transport before this returns, with nothing awaited before it (no Textual message
        queue, no reply of the server): ``notifications/cancelled`` or a closed HTTP stream, ``tasks/cancel`` for a
        task, the client's end for a subscription."""
        if not call.in_flight or self.live.session is None:
            return
        self.view.cancelling(call.index)
        stop = self.stops.get(call.index)
        if stop is not None:
            stop.set()
        else:
            cancelling = start_now(self._cancel(call.index))  # (sent before this returns: see session.eager)
            self._cancels.add(cancelling)
            cancelling.add_done_callback(self._cancels.discard)
        self.screen.notify(f"#{call.index}: cancel asked", timeout=3)  # (it only asks: the row says how it ends)

    async def _cancel(self, call: int) -> None:
        if not await self.live.cancel(call):
            # Nothing of the call was on the wire (between rounds, an answer awaited): the worker driving it stops,
            # and only that one (the other calls in flight run on).
            worker = self.sent.worker_of(call)
            if worker is not None:
                worker.cancel()

    def act(self, what: str, instead: Widget, timeline: Timeline) -> None:
        """A key of the screen: ``panel`` shows the subscriptions panel where ``instead`` was, or hides it;
        ``tasks`` toggles the Tasks extension."""
        if what == "panel":
            self.toggle_panel(instead, timeline)
        elif what == "tasks":
            self.screen.notify(self.toggle_tasks(), timeout=4)

    # ------------------------------------------------------------------------------------------------ tasks toggle
    @property
    def note(self) -> str:
        """What the header says of the toggle: nothing while the extension is declared (the default)."""
        if self.live.tasks:
            return ""
        return "params.task not sent (T)" if self.live.legacy else "Tasks extension not declared (T)"

    def toggle_tasks(self) -> str:
        """Declare the Tasks extension on later calls, or stop declaring it; says which."""
        self.live.tasks = not self.live.tasks
        if self.live.legacy:
            # 2025: capabilities are the session's, declared once at initialize; only params.task can change.
            if self.live.tasks:
                return "Tasks asked for again: a tools/call of a task tool carries params.task"
            return (
                "Tasks not asked for: a tools/call carries no params.task (initialize declared the tasks "
                "capability; reconnect with --no-tasks to declare none)"
            )
        if self.live.tasks:
            return "Tasks extension declared: a tool may answer with a task"
        return "Tasks extension not declared: see how the server answers a client without it"

    # ------------------------------------------------------------------------------------------------ subscriptions
    def toggle_panel(self, instead: Widget, timeline: Timeline) -> None:
        """Show the subscriptions panel where ``instead`` was (its filters focused), or hide it again."""
        panel = self.panel
        panel.display = not panel.display
        instead.display = not panel.display
        if panel.display:
            self.show(timeline)
            panel.query_one(Checkbox).focus()

    def asked(self, event: ListenPanel.Asked) -> None:
        """What the panel asked: listen (again), or stop a subscription."""
        if event.action == "stop" and event.call is not None:
            self.stop(event.call)
        elif event.notifications is not None:
            self.listen(event.notifications)

    def listen(self, notifications: JsonObject) -> None:
        """Start a subscription for ``notifications`` in a worker of the screen; it is shown once its call starts."""
        stop = asyncio.Event()
        self._unclaimed.append(stop)
        self.screen.run_worker(self.live.listen(notifications, stop), group="listen", exclusive=False)

    def stop(self, call: int) -> None:
        """End subscription ``call`` (the client ends it)."""
        stop = self.stops.get(call)
        if stop is not None:
            self.view.cancelling(call)
            stop.set()

    def changed(self, call: Call, timeline: Timeline) -> None:
        """``call`` changed on the timeline: a subscription's new events, a list change that makes the catalog
        list that kind again, its end."""
        if call.method not in SUBSCRIPTION_METHODS:
            return
        if call.index not in self.stops and self._unclaimed:
            self.stops[call.index] = self._unclaimed.pop(0)  # (its call started: calls start in the order asked)
        span = call.listen
        if span is not None:
            fresh = span.events.since(self._seen.get(call.index, 0))
            self._seen[call.index] = span.events.count
            kinds = {kind for event in fresh for kind in REFRESHED.get(str((event.message or {}).get("method")), ())}
            if kinds:
                self.screen.run_worker(self._relist(sorted(kinds)), group="relist", exclusive=False)
        self.show(timeline)

    def show(self, timeline: Timeline) -> None:
        """Show every subscription of the session on the panel."""
        calls = [call for call in timeline.calls if call.method in SUBSCRIPTION_METHODS]
        legacy = self.live.session is not None and self.live.legacy
        self.panel.show(calls, legacy=legacy, capabilities=timeline.server_capabilities)

    async def _relist(self, kinds: list[CatalogKind]) -> None:
        for kind in kinds:
            if self.live.offers(kind):
                items = await self.live.relist(kind)
                if items is not None:
                    self.catalog.set_items(kind, items)
