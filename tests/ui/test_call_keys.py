"""The keys on the highlighted call (``CallKeys``, the container of the main screen's panes): which of export, edit &
resend and cancel are offered for what is highlighted, that they work wherever the focus is among the panes, and
cancel on a call in flight (on the wire, or between rounds) and on the call just sent, before its row is highlighted
(in both eras); pilot tests and an SVG snapshot (the docstring says
what a person should see). Export and resend are the export dialog's and the composer's / answers editor's tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import peers
import pytest
from textual.widgets import Input
from ui_support import DEMO, SIZE, WORK_ITEM, burst, connected, detail_shows_now, finished_call, make_app, wait_for

from inspector.answers.source import Answer
from inspector.timeline.model import Call
from inspector.ui.app import InspectorApp
from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.composer.compose_dialog import ComposeScreen
from inspector.ui.composer.resend import ComposePlan
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.keys import gather_keys
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.widgets.call_keys import CallKeys
from inspector.ui.widgets.catalog import Catalog, CatalogList
from inspector.ui.widgets.timeline_rows import Row

AppFactory = Callable[..., InspectorApp]
SnapCompare = Callable[..., bool]
CALL_KEYS = ("export", "resend", "cancel_call")


def offered(keys: CallKeys) -> dict[str, bool]:
    """Which call keys ``check_action`` offers now (what the footer, the help and the palette show)."""
    return {action: keys.check_action(action, ()) is True for action in CALL_KEYS}


async def stalled_call(pilot: Any, screen: MainScreen) -> int:
    """Start ``stall`` (it waits until cancelled), highlight it, and return its index."""
    screen.run_call(CallRequest("tools", "stall", {}))
    await wait_for(pilot, lambda: screen.timeline.calls[-1].name == "stall" and screen.timeline.calls[-1].rounds != [])
    call = screen.timeline.calls[-1].index
    screen.timeline_view.focus()
    screen.timeline_view.select_call(call)
    await wait_for(pilot, lambda: screen.selected == (call, 0))
    return call


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_the_keys_offered_follow_the_highlighted_call(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        keys = screen.query_one(CallKeys)
        assert keys.live is True
        # The catalog has the focus: once its first item is previewed, no call is highlighted.
        await wait_for(pilot, lambda: screen.selected is None and keys.call is None)
        assert offered(keys) == {"export": False, "resend": False, "cancel_call": False}  # nothing highlighted
        screen.timeline_view.focus()
        await wait_for(pilot, lambda: screen.selected == (5, 0))
        assert keys.call is not None and keys.call.method == "resources/templates/list"
        assert offered(keys) == {"export": True, "resend": False, "cancel_call": False}  # a listing is not resent
        await finished_call(pilot, "add", {"a": 1, "b": 2})
        assert keys.call is not None and keys.call.name == "add" and keys.round == 0
        assert offered(keys) == {"export": True, "resend": True, "cancel_call": False}  # ended: nothing to cancel
        # The keys work wherever the focus is among the panes: the footer lists them with the catalog focused too.
        screen.query_one(CatalogList).focus()
        await pilot.pause()
        footer = {binding.binding.action for binding in screen.active_bindings.values()}
        assert {"export", "resend"} <= footer and "cancel_call" not in footer
        where = {key.id: key.where for key in gather_keys(screen)}
        assert where["call.export"] == where["call.resend"] == "highlighted call"


async def test_cancel_a_call_waiting_on_the_server(app_factory: AppFactory) -> None:
    app = app_factory(peer=peers.with_test_tools)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        index = await stalled_call(pilot, screen)
        call = screen.timeline.calls[-1]
        keys = screen.query_one(CallKeys)
        assert call.status == "pending" and keys.check_action("cancel_call", ()) is True
        await pilot.press("k")
        await wait_for(pilot, lambda: call.status == "cancelled")
        assert call.index == index and call.status_detail == "cancelled by the user"
        # The server was told: notifications/cancelled went out on the call's round.
        sent = [note.raw for note in call.rounds[0].notifications]
        assert any('"notifications/cancelled"' in raw for raw in sent)
        await wait_for(pilot, lambda: not [w for w in screen.workers if w.group == "call" and w.is_running])
        await pilot.pause()
        assert keys.check_action("cancel_call", ()) is False


class Waiting:
    """An answer source that never answers (the user has not answered yet)."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()

    async def answer(self, key: str | None, request: dict[str, Any]) -> Answer:
        self.asked.set()
        await asyncio.Future()
        raise AssertionError("unreachable")


async def test_cancel_between_rounds_cancels_the_worker(app_factory: AppFactory) -> None:
    waiting = Waiting()
    app = app_factory(answers=waiting)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.run_call(CallRequest("tools", "update_work_item", WORK_ITEM))
        await wait_for(pilot, waiting.asked.is_set)
        call = screen.timeline.calls[-1]
        screen.timeline_view.select_call(call.index)
        await wait_for(pilot, lambda: screen.selected == (call.index, 0))
        await pilot.press("k")  # nothing on the wire: the worker driving the call is cancelled
        await wait_for(pilot, lambda: call.status == "cancelled")
        assert call.status_detail == "interrupted before the call finished"
        view = screen.timeline_view

        def row() -> str:
            view.ensure_rows()
            return str(view.render_line(view.rows.index(Row(call.index, 0, 0))).text)

        # The row is drawn again once the call's end reaches the timeline (a message; until then its line is cached).
        await wait_for(pilot, lambda: "cancelled" in row())


# -------------------------------------------------------------------------------------------- k right after sending
LEGACY_DEMO = DEMO.__class__.from_spec("python -m inspector.demo", name="demo", era="legacy")
"""The demo spoken to in 2025-11-25 (``initialize``, no probe)."""


async def composer_on(pilot: Any, screen: MainScreen, tool: str) -> None:
    """Open the composer on ``tool`` and wait until its first field has the focus."""
    item = next(item for item in screen.query_one(Catalog).items["tools"] if item["name"] == tool)
    screen.composer.compose(ComposePlan("tools", item))
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, ComposeScreen) and isinstance(app.focused, Input))


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_k_typed_with_the_composers_enter_cancels_the_call_just_sent(app_factory: AppFactory, era: str) -> None:
    """``k`` in the same burst as the Enter that sends slow_count (every key queued before the app reads the first),
    as a person cancels what they have just sent: slow_count ends cancelled, whether its row was highlighted by
    the time the key was read or not, and ``stall``, highlighted before, runs on."""
    app = app_factory(peer=peers.with_test_tools, target=DEMO if era == "modern" else LEGACY_DEMO)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        stalled = await stalled_call(pilot, screen)
        assert screen.query_one(CallKeys).call is screen.timeline.call(stalled)  # k would have cancelled it
        await composer_on(pilot, screen, "slow_count")
        burst(app, "200", "enter", "k")  # 200 steps of 10 ms: uncancelled, it completes after 2 s

        def sent() -> Call | None:
            last = screen.timeline.calls[-1]
            return last if last.name == "slow_count" else None

        await wait_for(pilot, lambda: (call := sent()) is not None and call.ended)
        call = sent()
        assert call is not None
        assert call.status == "cancelled", (call.status, call.status_detail)
        assert call.params == {"name": "slow_count", "arguments": {"n": 200}}
        stall = screen.timeline.call(stalled)
        assert stall is not None and stall.in_flight, "the call highlighted before is not touched"
        assert isinstance(app.screen, MainScreen)
        # k is for the highlighted call again once slow_count's row was highlighted: stall, selected, is cancelled.
        await wait_for(pilot, lambda: screen.selected == (call.index, 0))
        screen.timeline_view.select_call(stalled)
        await wait_for(pilot, lambda: screen.selected == (stalled, 0))
        await pilot.press("k")
        await wait_for(pilot, lambda: stall.status == "cancelled")


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_k_read_while_the_call_just_sent_is_not_highlighted_yet_cancels_that_call(
    app_factory: AppFactory, era: str
) -> None:
    """``k`` read once slow_count's request is on the wire, before the timeline's message about it has reached the
    screen: the keys still point at ``stall``, highlighted before (in flight), and k used to cancel it. Now k is for
    slow_count: its request is cancelled on the wire, and stall runs on."""
    app = app_factory(peer=peers.with_test_tools, target=DEMO if era == "modern" else LEGACY_DEMO)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        stalled = await stalled_call(pilot, screen)
        keys = screen.query_one(CallKeys)
        session = screen.session
        assert session is not None
        transport = session.transport  # type: ignore[attr-defined]
        send = transport.send
        pointed: list[Call | None] = []

        def press_k() -> None:
            pointed.append(keys.call)
            keys.action_cancel_call()  # k, as the app runs it

        async def sending(message: Any) -> None:
            await send(message)
            if message.method == "tools/call" and not pointed:
                # Read on the next turn of the loop: after the request left, before any message about it was handled.
                asyncio.get_running_loop().call_soon(press_k)

        transport.send = sending
        screen.run_call(CallRequest("tools", "slow_count", {"n": 200}))
        await wait_for(
            pilot, lambda: screen.timeline.calls[-1].name == "slow_count" and screen.timeline.calls[-1].ended
        )
        call = screen.timeline.calls[-1]
        stall = screen.timeline.call(stalled)
        assert pointed == [stall], "as k was read, the keys still pointed at the call highlighted before"
        assert call.status == "cancelled" and call.status_detail == "cancelled by the user", call.status_detail
        assert any('"notifications/cancelled"' in note.raw for note in call.rounds[0].notifications)
        assert stall is not None and stall.in_flight


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_k_before_the_session_started_the_call_stops_it_before_anything_is_sent(
    app_factory: AppFactory, era: str
) -> None:
    """``k`` read before the worker making the call has run (the row highlighted is stall's, in flight): the call
    just sent is held back as it starts, and ends cancelled with no request on the wire; stall runs on."""
    app = app_factory(peer=peers.with_test_tools, target=DEMO if era == "modern" else LEGACY_DEMO)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        stalled = await stalled_call(pilot, screen)
        keys = screen.query_one(CallKeys)
        before = len(screen.timeline.calls)
        screen.run_call(CallRequest("tools", "slow_count", {"n": 200}))
        assert keys.check_action("cancel_call", ()) is True
        keys.action_cancel_call()  # k, as the app runs it: the call's worker has not run yet
        assert keys.check_action("cancel_call", ()) is False  # asked once: k again would do nothing
        await wait_for(pilot, lambda: len(screen.timeline.calls) > before and screen.timeline.calls[-1].ended)
        call = screen.timeline.calls[-1]
        assert call.name == "slow_count" and call.status == "cancelled"
        assert call.status_detail == "cancelled by the user before it was sent"
        assert call.rounds == [], "nothing of it went on the wire"
        stall = screen.timeline.call(stalled)
        assert stall is not None and stall.in_flight


# ---------------------------------------------------------------------------------------------------- snapshots
def test_cancelled_call(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """After k on #6 tools/call stall, which was waiting on the server: the timeline's top row reads "#6 tools/call
    stall cancelled 1 round no reply" (cancelled in the error colour), highlighted; the detail pane heads "#6
    tools/call stall", "cancelled · 1 round · no reply from the server · 36 ms in all", then "cancelled by the user"
    and the params. The footer offers export and edit &
    resend, no longer cancel."""

    async def steps(pilot: Any) -> None:
        screen = await connected(pilot)
        await stalled_call(pilot, screen)
        await pilot.press("k")
        await wait_for(pilot, lambda: screen.timeline.calls[-1].ended)
        await wait_for(pilot, lambda: not [w for w in screen.workers if w.group == "call" and w.is_running])
        # The detail pane shows the end once its queued redraw has run (the call was highlighted all along).
        await wait_for(pilot, lambda: detail_shows_now(screen))
        assert screen.query_one(DetailView).plain_lines[1].startswith("cancelled")
        pilot.app.clear_notifications()  # the "#6 cancelled" toast goes after 3 s: not in a picture
        await pilot.pause()

    assert snap_compare(make_app(tmp_path, peer=peers.with_test_tools), terminal_size=SIZE, run_before=steps)
