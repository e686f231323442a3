"""Pilot tests of the connect screen, the help screen, the command palette's keys and the bridge."""

from __future__ import annotations

import json
from pathlib import Path

from textual.app import App
from textual.message import Message
from ui_support import SIZE, make_app, wait_for

from inspector.session import records
from inspector.session.builder import TimelineBuilder
from inspector.ui import known_targets
from inspector.ui.bridge import CallWasFinished, CallWasStarted, ConsoleWasAppended, TimelineBridge
from inspector.ui.keys import gather_keys
from inspector.ui.screens.connect import ConnectScreen
from inspector.ui.screens.help import HelpScreen
from inspector.ui.screens.main import MainScreen
from inspector.ui.target import Target


def write_configs(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    (home / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"weather": {"command": "uvx", "args": ["weather-mcp"]}}})
    )
    known_targets.remember(tmp_path / "config", Target.from_spec("python -m inspector.demo", name="demo server"))


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


async def test_help_lists_the_same_keys_as_the_command_palette(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.state == "connected")
        keys = gather_keys(app.screen)
        ids = {key.id for key in keys}
        assert {
            "main.search",
            "main.filter",
            "timeline.fold",
            "app.theme",
            "app.help",
            "app.quit",
            "app.palette",
            "catalog.call",
        } <= ids
        assert all(key.tooltip for key in keys)
        palette = [command.title for command in app.get_system_commands(app.screen)]
        for key in keys:
            if key.action != "command_palette":
                assert f"{key.description} ({key.key})" in palette
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert [key.id for key in help_screen.keys] == [key.id for key in keys]
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))


async def test_unknown_theme_is_reported_and_the_default_used(tmp_path: Path) -> None:
    (tmp_path / "config" / "themes").mkdir(parents=True)
    (tmp_path / "config" / "themes" / "broken.toml").write_text("name = ")
    app = make_app(tmp_path, theme="no-such-theme")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "inspector-dark"
        assert len(app.theme_problems) == 2
        assert any("broken.toml" in p for p in app.theme_problems) and any(
            "no-such-theme" in p for p in app.theme_problems
        )


class Sink(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.got: list[Message] = []

    def on_call_was_started(self, message: CallWasStarted) -> None:
        self.got.append(message)

    def on_call_was_finished(self, message: CallWasFinished) -> None:
        self.got.append(message)

    def on_console_was_appended(self, message: ConsoleWasAppended) -> None:
        self.got.append(message)


async def test_bridge_posts_past_tense_messages_until_closed() -> None:
    app = Sink()
    async with app.run_test() as pilot:
        builder = TimelineBuilder()
        bridge = TimelineBridge(builder.timeline, app)
        builder.apply(records.stderr(0.1, "hello"))
        builder.apply(records.call_started(0.2, 1, "tools/list", {}))
        builder.apply(records.call_ended(0.3, 1, "complete"))
        await wait_for(pilot, lambda: len(app.got) == 3)
        assert [type(m).__name__ for m in app.got] == ["ConsoleWasAppended", "CallWasStarted", "CallWasFinished"]
        bridge.close()
        builder.apply(records.stderr(0.4, "after close"))
        await pilot.pause()
        assert len(app.got) == 3
