"""The subscriptions panel (``l``): a ``subscriptions/listen`` with the filters picked, its events live, a list
change that lists the catalog again, its end (by the client, by the server, lost) and listening again. Pilot tests
on the real session, to the demo server on the official SDK (its own subscriptions) with a tool that changes the
tools list (``peers.with_list_changes``), or to a scripted server for the ends the SDK does not produce; and SVG
snapshots (each docstring says what a person should see)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import peers
import pytest
from scripted import CACHE, TASKS, Exchange, Handler, Json, Script, complete, tool
from textual.widgets import Button, Checkbox, Input
from ui_support import SIZE, burst, connected, make_app, wait_for

from inspector.timeline.listen_span import SUBSCRIPTION_ID
from inspector.timeline.model import Call
from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.keys import typing as typing_in
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.widgets.catalog import Catalog
from inspector.ui.widgets.listen_panel import ListenList, ListenPanel, PanelField
from inspector.ui.widgets.request_state import RequestStatePanel

SnapCompare = Callable[..., bool]


def listens(screen: MainScreen) -> list[Call]:
    return [call for call in screen.timeline.calls if call.listen is not None]


def option_text(listing: ListenList, index: int = 0) -> str:
    """What subscription ``index`` (0: the newest) says on the panel ("" before it is shown)."""
    return str(listing.get_option_at_index(index).prompt) if index < listing.option_count else ""


async def open_panel(pilot: Any) -> tuple[MainScreen, ListenPanel]:
    screen = await connected(pilot)
    await pilot.press("l")
    panel = screen.query_one(ListenPanel)
    await wait_for(pilot, lambda: panel.display is True and screen.query_one(RequestStatePanel).display is False)
    return screen, panel


class Listener:
    """A scripted ``subscriptions/listen``: acknowledges what was asked, sends ``events`` (method, params), then
    waits for ``end``; then ends as ``ending`` says: ``graceful`` (its response) or ``lost`` (a reply that is no
    JSON-RPC: the stream is broken)."""

    def __init__(self, events: list[tuple[str, Json]], ending: str = "graceful") -> None:
        self.events, self.ending = events, ending
        self.end = asyncio.Event()

    async def __call__(self, exchange: Exchange) -> Json:
        meta = {SUBSCRIPTION_ID: exchange.id}
        asked = exchange.params.get("notifications", {})
        await exchange.notify("notifications/subscriptions/acknowledged", {"notifications": asked, "_meta": meta})
        for method, params in self.events:
            await exchange.notify(method, {**params, "_meta": meta})
        await self.end.wait()
        if self.ending == "lost":
            await exchange.out.write(f'{{"jsonrpc":"2.0","id":{exchange.id},"result":"cut"}}\n')
            await asyncio.Future()  # (never answers properly)
        return {"resultType": "complete"}


LISTENS: Json = {"tools": {"listChanged": True}, "resources": {"subscribe": True}, "extensions": {TASKS: {}}}
"""What the scripted server declares: tools list changes and resource subscriptions (no prompts, no resource list
changes: the panel offers neither)."""


async def no_resources(exchange: Exchange) -> Json:
    return complete({"resources": [], **CACHE})


async def no_templates(exchange: Exchange) -> Json:
    return complete({"resourceTemplates": [], **CACHE})


def listen_app(tmp_path: Path, listener: Listener, capabilities: Json = LISTENS) -> Any:
    handlers: dict[str, Handler] = {
        "subscriptions/listen": listener,
        "resources/list": no_resources,
        "resources/templates/list": no_templates,
    }
    script = Script(tools=[tool("only_tool")], handlers=handlers)
    script.capabilities = capabilities
    return make_app(tmp_path, peer=script.peer)


def _honoured(call: Call) -> bool:
    return call.listen is not None and call.listen.honoured is not None


UPDATED = ("notifications/resources/updated", {"uri": "demo://report"})
TOOLS_CHANGED: tuple[str, dict[str, object]] = ("notifications/tools/list_changed", {})


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_a_listen_brings_its_events_and_a_list_change_lists_the_catalog_again(tmp_path: Path) -> None:
    app = make_app(tmp_path, peer=peers.with_list_changes)
    async with app.run_test(size=SIZE) as pilot:
        screen, panel = await open_panel(pilot)
        assert isinstance(app.focused, Checkbox)  # the first filter has the focus
        await pilot.press("space")  # tick "tools"
        assert panel.notifications() == {"toolsListChanged": True}
        panel.query_one("#listen-start", Button).press()
        await wait_for(pilot, lambda: bool(listens(screen)) and _honoured(listens(screen)[0]))
        (call,) = listens(screen)
        assert call.listen is not None and call.listen.honoured == {"toolsListChanged": True}
        listing = panel.query_one(ListenList)
        await wait_for(pilot, lambda: "listening" in option_text(listing))
        before = len([c for c in screen.timeline.calls if c.method == "tools/list"])
        screen.run_call(CallRequest("tools", "change_tools", {}))
        await wait_for(pilot, lambda: "tools list changed" in option_text(listing))
        catalog = screen.query_one(Catalog)
        await wait_for(pilot, lambda: "fresh_tool" in catalog.visible_names)
        assert len([c for c in screen.timeline.calls if c.method == "tools/list"]) == before + 1
        # k on the highlighted subscription ends it (the client's end), and r is not needed for it.
        listing.focus()
        await wait_for(pilot, lambda: listing.highlighted_call() is call)
        assert listing.check_action("stop", ()) is True
        await pilot.press("k")
        await wait_for(pilot, lambda: call.ended)
        assert call.status == "complete" and call.listen.end == "client-ended"
        # The panel is drawn again once the call's end reaches the screen (a message, not at once).
        await wait_for(pilot, lambda: "ended by the client" in option_text(listing))
        assert "r listens again" not in option_text(listing)
        assert listing.check_action("stop", ()) is False
        cancel = [n for n in call.rounds[0].notifications if n.direction == "c2s"]
        assert [(n.message or {}).get("method") for n in cancel] == ["notifications/cancelled"]


async def test_filters_become_the_listen_request(tmp_path: Path) -> None:
    listener = Listener([UPDATED])
    app = listen_app(tmp_path, listener)
    async with app.run_test(size=SIZE) as pilot:
        screen, panel = await open_panel(pilot)
        assert panel.notifications() == {"toolsListChanged": True}  # nothing picked: every list change offered
        shown = [node.id for node in panel.query("Checkbox, PanelField") if node.display]
        assert shown == ["listen-tools", "listen-uris", "listen-tasks"]  # what the server declared (and task ids)
        panel.query_one("#listen-uris", Input).value = "demo://report demo://about"
        panel.query_one("#listen-tasks", Input).value = "task-7f3a"
        panel.query_one("#listen-uris", Input).focus()
        await pilot.press("enter")  # enter in a field listens
        await wait_for(pilot, lambda: bool(listens(screen)))
        (call,) = listens(screen)
        assert call.params["notifications"] == {
            "resourceSubscriptions": ["demo://report", "demo://about"],
            "taskIds": ["task-7f3a"],
        }


@pytest.mark.parametrize(("ending", "said"), [("graceful", "ended by the server"), ("lost", "lost")])
async def test_a_graceful_end_and_a_lost_one_offer_listening_again(tmp_path: Path, ending: str, said: str) -> None:
    listener = Listener([UPDATED], ending)
    app = listen_app(tmp_path, listener)
    async with app.run_test(size=SIZE) as pilot:
        screen, panel = await open_panel(pilot)
        panel.query_one("#listen-uris", Input).value = "demo://report"
        panel.query_one("#listen-start", Button).press()
        listing = panel.query_one(ListenList)
        await wait_for(pilot, lambda: "resource updated demo://report" in option_text(listing))
        listener.end.set()
        (call,) = listens(screen)
        await wait_for(pilot, lambda: call.ended)
        assert call.listen is not None and call.listen.end == ending
        # The panel is drawn again once the call's end reaches the screen (a message, not at once).
        await wait_for(pilot, lambda: said in option_text(listing))
        assert "r listens again" in option_text(listing)
        listing.focus()
        await wait_for(pilot, lambda: listing.highlighted_call() is call)
        assert listing.check_action("again", ()) is True and listing.check_action("stop", ()) is False
        listener.end.clear()
        await pilot.press("r")
        await wait_for(pilot, lambda: len(listens(screen)) == 2)
        assert listens(screen)[1].params == call.params  # the same filters again


async def test_the_fields_show_what_is_typed_and_let_tab_and_escape_out(tmp_path: Path) -> None:
    """Every letter typed in a field is in it (``e`` exports and ``l`` hides the panel elsewhere, not here), its
    one row shows the text (a compact input: no border to take the row), tab goes on to the listen button and
    the list, escape leaves the field for the list, and the footer names what the field takes."""
    app = listen_app(tmp_path, Listener([]))
    async with app.run_test(size=SIZE) as pilot:
        screen, panel = await open_panel(pilot)
        uris = panel.query_one("#listen-uris", PanelField)
        tasks = panel.query_one("#listen-tasks", PanelField)
        button = panel.query_one("#listen-start", Button)
        await pilot.press("tab")  # the URIs field (prompts and resource list changes are not offered: not shown)
        assert app.focused is uris
        burst(app, "demo://el")
        await wait_for(pilot, lambda: uris.value == "demo://el")
        assert panel.display is True  # l typed, not the panel hidden
        assert uris.size.height == 1 and "demo://el" in str(uris.render_line(0).text)  # drawn on its one row
        footer = [binding.description for binding in (a.binding for a in screen.active_bindings.values())]
        assert "listen" in footer and "leave field" in footer
        burst(app, "tab", "task-7", "tab")
        await wait_for(pilot, lambda: app.focused is button)
        assert tasks.value == "task-7"
        assert button.region.height == 1 and panel.region.contains_region(button.region)  # reached, and in sight
        footer = [binding.description for binding in (a.binding for a in screen.active_bindings.values())]
        assert "listen" in footer
        await pilot.press("tab")
        assert isinstance(app.focused, ListenList)
        uris.focus()
        await wait_for(pilot, lambda: app.focused is uris)
        burst(app, "escape", "k")  # escape leaves the field: the k after it is no letter of the field
        await wait_for(pilot, lambda: isinstance(app.focused, ListenList))
        assert uris.value == "demo://el" and isinstance(app.screen, MainScreen)


async def test_at_80x24_the_whole_panel_is_on_screen(tmp_path: Path) -> None:
    """Under the timeline at 80x24 the panel has nine rows: every filter, the listen button and the subscriptions
    are in it, and its border is whole (it was cut off below the task ids field)."""
    app = make_app(tmp_path, peer=peers.with_list_changes)
    async with app.run_test(size=(80, 24)) as pilot:
        screen, panel = await open_panel(pilot)
        panel.query_one("#listen-start", Button).press()
        listing = panel.query_one(ListenList)
        await wait_for(pilot, lambda: "listening" in option_text(listing))
        await pilot.pause()
        inside = panel.content_region
        assert panel.region.bottom <= screen.query_one("#body").region.bottom, (panel.region, screen.size)
        for node in [*panel.query("Checkbox, PanelField"), panel.query_one("#listen-start"), listing]:
            assert inside.contains_region(node.region) and node.region.height >= 1, (node, node.region, inside)


async def test_at_80x24_l_closes_the_catalog_drawer_the_panel_would_be_under(tmp_path: Path) -> None:
    """Found in tmux at 80x24: ``/``, escape (the drawer stays, its list focused), then ``l`` opened the panel under
    the drawer, its focused filter out of sight. The drawer closes; the panel's first filter has the focus, and a
    space ticks it."""
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await connected(pilot)
        catalog, panel = screen.query_one(Catalog), screen.query_one(ListenPanel)
        burst(app, "/", "escape")
        await wait_for(pilot, lambda: catalog.display and catalog.has_focus_within and not typing_in(app))
        burst(app, "l", " ")
        first = panel.query(Checkbox).first()
        await wait_for(pilot, lambda: panel.display and first.value)
        assert app.focused is first and not catalog.display


async def test_only_the_subscriptions_the_server_declares_are_offered(tmp_path: Path) -> None:
    """A server that declares no list changes and no resource subscriptions: the panel offers only task ids (the
    Tasks extension, negotiated apart); with nothing typed, listen asks for nothing and says so."""
    bare: Json = {"tools": {}, "extensions": {TASKS: {}}}
    app = listen_app(tmp_path, Listener([]), capabilities=bare)
    async with app.run_test(size=SIZE) as pilot:
        screen, panel = await open_panel(pilot)
        shown = [node.id for node in panel.query("Checkbox, PanelField") if node.display]
        assert shown == ["listen-tasks"] and panel.notifications() == {}
        panel.query_one("#listen-start", Button).press()
        await wait_for(pilot, lambda: "nothing to listen for" in str(panel.border_subtitle))
        assert not listens(screen)
        panel.query_one("#listen-tasks", Input).value = "task-7f3a"
        panel.query_one("#listen-start", Button).press()
        await wait_for(pilot, lambda: bool(listens(screen)))
        assert listens(screen)[0].params["notifications"] == {"taskIds": ["task-7f3a"]}


async def test_quitting_ends_an_open_subscription_as_the_client(tmp_path: Path) -> None:
    """The person quit: the subscription was ended by the client, never "by the server" (the demo server answers
    the listen as its connection closes, which read as the server's graceful end)."""
    app = make_app(tmp_path, peer=peers.with_list_changes)
    async with app.run_test(size=SIZE) as pilot:
        screen, panel = await open_panel(pilot)
        panel.query_one("#listen-start", Button).press()
        await wait_for(pilot, lambda: bool(listens(screen)) and _honoured(listens(screen)[0]))
        (call,) = listens(screen)
        await screen.close_session()  # what q does before the app exits
        assert call.ended and call.listen is not None and call.listen.end == "client-ended"
        assert call.status_detail == "the client ended the subscription"


async def test_l_hides_the_panel_again(tmp_path: Path) -> None:
    app = listen_app(tmp_path, Listener([]))
    async with app.run_test(size=SIZE) as pilot:
        screen, panel = await open_panel(pilot)
        screen.timeline_view.focus()
        await pilot.press("l")
        assert panel.display is False and screen.query_one(RequestStatePanel).display is True


# ---------------------------------------------------------------------------------------------------- snapshots
def test_subscriptions_panel_with_events(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The right column shows the Subscriptions panel where the requestState panel was, one row a filter and no
    blank rows between: the tick box tools (ticked; prompts and resource list changes are not shown: the server
    does not declare them), the URI field holding "demo://report" (its text on its one row), the empty task ids
    field showing its placeholder, the listen button on a line of its own, then the one subscription,
    highlighted: "#5 listening", "honours toolsListChanged, resourceSubscriptions · 2 events · listening",
    "+0.04 s resource updated demo://report", "+0.05 s tools list changed"; the panel's bottom edge says
    "nothing ticked: every list change". The catalog lists only_tool, "Prompts · not offered", "Resources 0" and
    "Templates 0" (the server declared tools and resource subscriptions). The timeline: #6 tools/list on top (the
    tools list change listed the catalog again), then #5 subscriptions/listen, pending, highlighted, whose detail
    shows its subscription section (what it honours and asked, its id 5) and its two events with their times, then
    its params."""
    listener = Listener([UPDATED, TOOLS_CHANGED])

    async def steps(pilot: Any) -> None:
        screen, panel = await open_panel(pilot)
        await pilot.press("space")  # tick tools
        panel.query_one("#listen-uris", Input).value = "demo://report"
        panel.query_one("#listen-start", Button).press()
        listing = panel.query_one(ListenList)
        await wait_for(pilot, lambda: "tools list changed" in option_text(listing))
        await wait_for(pilot, lambda: len([c for c in screen.timeline.calls if c.method == "tools/list"]) == 2)
        screen.timeline_view.focus()
        await wait_for(pilot, lambda: screen.selected is not None)
        screen.timeline_view.select_call(listens(screen)[0].index)
        await pilot.pause()

    assert snap_compare(listen_app(tmp_path, listener), terminal_size=SIZE, run_before=steps)
