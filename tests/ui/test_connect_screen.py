"""The connect screen (no target given): recent targets and the servers found in client config files, a spec typed
in, and back again; pilot tests and its SVG snapshot (the docstring says what a person should see)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import OptionList
from ui_support import SIZE, burst, make_app, offer_servers, wait_for

from inspector.targets import known as known_targets
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.screens.connect import ConnectScreen, SpecBox

SnapCompare = Callable[..., bool]


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_connect_screen_offers_recent_and_configured_servers(tmp_path: Path) -> None:
    offer_servers(tmp_path)
    app = make_app(tmp_path, target=None)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        screen = app.screen
        assert isinstance(screen, ConnectScreen)
        assert [t.display_name for t in screen.targets.values()] == ["demo server", "weather (.mcp.json)"]
        await wait_for(pilot, lambda: isinstance(app.focused, SpecBox))
        await pilot.press("down", "down", "enter")  # to the list (on the recent one), then the configured server
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.state == "connected")
        main = app.screen
        assert isinstance(main, MainScreen)
        assert main.target.command == ("uvx", "weather-mcp")
        assert known_targets.load_recent(tmp_path / "config")[0].command == ("uvx", "weather-mcp")


async def test_the_box_has_the_focus_and_what_is_typed_at_once_is_connected_to(tmp_path: Path) -> None:
    """The screen says "type a command ... and press enter": with recent servers listed, the box still has the
    focus, and a spec typed with enter in one burst (before the screen is even drawn) connects to what was
    typed, not to the highlighted server."""
    offer_servers(tmp_path)
    app = make_app(tmp_path, target=None)
    async with app.run_test(size=SIZE) as pilot:
        burst(app, "http://127.0.0.1:9/mcp", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        main = app.screen
        assert isinstance(main, MainScreen) and main.target.url == "http://127.0.0.1:9/mcp"
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen) and app.screen.is_mounted)
        await wait_for(pilot, lambda: isinstance(app.focused, SpecBox))  # again, on the way back
        assert app.focused is not None and app.focused.has_focus
        screen = app.screen
        assert isinstance(screen, ConnectScreen)
        footer = [binding.description for binding in (a.binding for a in screen.active_bindings.values())]
        assert "connect" in footer  # what enter does in the box


async def test_enter_in_the_empty_box_connects_the_highlighted_server(tmp_path: Path) -> None:
    """Down goes from the box to the list; back in the box, Enter with nothing typed: the highlighted server is
    meant, not an empty command."""
    offer_servers(tmp_path)
    app = make_app(tmp_path, target=None)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        await wait_for(pilot, lambda: isinstance(app.focused, SpecBox))
        await pilot.press("down")
        assert isinstance(app.focused, OptionList)
        await pilot.press("down", "shift+tab", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        main = app.screen
        assert isinstance(main, MainScreen) and main.target.command == ("uvx", "weather-mcp")


async def test_typed_spec_connects_and_escape_comes_back(tmp_path: Path) -> None:
    app = make_app(tmp_path, target=None)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        await pilot.press(*"http://127.0.0.1:9/mcp", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.state == "connected")
        main = app.screen
        assert isinstance(main, MainScreen) and main.target.url == "http://127.0.0.1:9/mcp"
        session = main.session
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        assert session is not None and session.timeline.connected is False  # closed on the way out


async def test_escape_chooses_another_server_when_it_came_from_the_command_line(tmp_path: Path) -> None:
    """``inspector connect SPEC``: no connect screen was shown, yet escape (which the failure panel offers: "escape
    to choose another server") closes the session and opens it, with the box focused."""
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.state == "connected")
        main = app.screen
        assert isinstance(main, MainScreen)
        session = main.session
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen) and isinstance(app.focused, SpecBox))
        assert session is not None and session.timeline.connected is False
        screen = app.screen
        assert isinstance(screen, ConnectScreen)
        assert [target.display_name for target in screen.targets.values()][:1] == ["demo"]  # the one just used


# ---------------------------------------------------------------------------------------------------- snapshots
def test_connect_screen(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """A "connect to an MCP server" title, a one-line explanation ("... or pick a server below (tab or ↓, then
    enter)"), an empty input for a command or URL with the focus (its border lit, the cursor in it), then a list:
    "Recent (1)" with "demo server  stdio  python -m inspector.demo" highlighted, and "From client config files (1)"
    with "weather (.mcp.json)  stdio  uvx weather-mcp". The footer says "enter connect", "↓ servers"."""
    offer_servers(tmp_path)
    app = make_app(tmp_path, target=None)

    async def steps(pilot: Any) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConnectScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=steps)
