"""The connect screen (no target given): recent targets and the servers found in client config files, a spec typed
in, and back again; pilot tests and its SVG snapshot (the docstring says what a person should see)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ui_support import SIZE, make_app, wait_for

from inspector.targets import known as known_targets
from inspector.targets.target import Target
from inspector.ui.screens.connect import ConnectScreen
from inspector.ui.screens.main import MainScreen

SnapCompare = Callable[..., bool]


def write_configs(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    (home / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"weather": {"command": "uvx", "args": ["weather-mcp"]}}})
    )
    known_targets.remember(tmp_path / "config", Target.from_spec("python -m inspector.demo", name="demo server"))


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_connect_screen_offers_recent_and_configured_servers(tmp_path: Path) -> None:
    write_configs(tmp_path)
    app = make_app(tmp_path, target=None)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        screen = app.screen
        assert isinstance(screen, ConnectScreen)
        assert [t.display_name for t in screen.targets.values()] == ["demo server", "weather (.mcp.json)"]
        await pilot.press("down", "enter")  # the configured server
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.state == "connected")
        main = app.screen
        assert isinstance(main, MainScreen)
        assert main.target.command == ("uvx", "weather-mcp")
        assert known_targets.load_recent(tmp_path / "config")[0].command == ("uvx", "weather-mcp")


async def test_enter_in_the_empty_box_connects_the_highlighted_server(tmp_path: Path) -> None:
    """Tab to the box and Enter with nothing typed: the highlighted server is meant, not an empty command."""
    write_configs(tmp_path)
    app = make_app(tmp_path, target=None)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectScreen))
        await pilot.press("down", "tab", "enter")
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


# ---------------------------------------------------------------------------------------------------- snapshots
def test_connect_screen(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """A "connect to an MCP server" title, a one-line explanation, an empty input for a command or URL, then a list:
    "Recent (1)" with "demo server  stdio  python -m inspector.demo" highlighted, and "From client config files (1)"
    with "weather (.mcp.json)  stdio  uvx weather-mcp"."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"weather": {"command": "uvx", "args": ["weather-mcp"]}}})
    )
    known_targets.remember(tmp_path / "config", Target.from_spec("python -m inspector.demo", name="demo server"))
    app = make_app(tmp_path, target=None)

    async def steps(pilot: Any) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConnectScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=steps)
