"""SVG snapshots of the TUI's screens. Each docstring says what a person should see in the picture."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ui_support import SIZE, FixedAnswers, StartFailure, make_app, wait_for

from inspector.ui import known_targets
from inspector.ui.screens.connect import ConnectScreen
from inspector.ui.screens.help import HelpScreen
from inspector.ui.screens.main import MainScreen
from inspector.ui.target import Target

SnapCompare = Callable[..., bool]


async def _connected(pilot: Any) -> MainScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.catalog_loaded)
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


async def _call(pilot: Any, name: str, arguments: dict[str, Any]) -> MainScreen:
    screen = await _connected(pilot)
    count = len(screen._timeline().calls)
    screen.run_call("tools", name, arguments)
    await wait_for(
        pilot, lambda: len(screen._timeline().calls) > count and screen._timeline().calls[-1].status != "pending"
    )
    await pilot.pause()
    return screen


def test_main_screen_after_connect(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The header says "demo (stdio) · inspector-demo 0.1.0 · modern 2026-07-28 · ● connected". The catalog lists
    4 tools (get_weather · Weather [ro], update_work_item [destructive], heavy_report, add · Add [ro] [idem]), one
    prompt and one resource. The timeline shows five one-round calls, newest (#5 resources/templates/list) on top
    and highlighted; the detail pane shows that call's params and result as coloured JSON; the requestState panel
    says there is none; the console is empty; the footer lists fold, search, filter, help, theme, quit."""

    async def steps(pilot: Any) -> None:
        await _connected(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)


def test_multi_round_call_with_request_state(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Call #6 tools/call update_work_item is unfolded into three rounds: id 5 → input_required resolution,
    id 6 retry → input_required duplicate_of with a lock mark, id 7 retry → complete; under round 1 "answered
    resolution: resolution="Duplicate" (you)", under round 2 "answered duplicate_of: duplicate_of=4301 (you)".
    Round 2 is highlighted: the detail pane heads "#6 round 2 · id 5 → id 6" with the exact request (carrying
    inputResponses and requestState) and response; the requestState panel shows the base64 value in its own colour,
    "88 chars · sha256 ...", "looks like: base64 (of JSON)" and a green "✓ echoed unchanged by the retry"."""

    async def steps(pilot: Any) -> None:
        screen = await _call(pilot, "update_work_item", {"workItemId": 4211, "fields": {"state": "Resolved"}})
        screen.timeline_view.focus()
        screen.timeline_view.select_call(6, 2)
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)


def test_server_text_shown_literally(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The catalog's last tool is literally "[bold red]x" (not bold, not red). The console's lines read literally
    "␛[2J␛[31mwiped?" and "[link=https://evil.example]click[/link]": the screen was not cleared, nothing is red
    and there is no link."""
    app = make_app(tmp_path, hostile=True, stderr=("\x1b[2J\x1b[31mwiped?", "[link=https://evil.example]click[/link]"))

    async def steps(pilot: Any) -> None:
        await _connected(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_connect_failure_shows_stderr(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The header says "✗ failed" in the error colour. In the middle column a red-bordered "connection failed"
    panel reads "could not connect: the server exited with code 1", "try: check the command", then "server stderr
    (2 lines):" with the Traceback and ModuleNotFoundError lines, and "press r to retry..." at the end."""
    failure = StartFailure(
        "the server exited with code 1",
        "check the command",
        ["Traceback (most recent call last):", "ModuleNotFoundError: No module named 'weather'"],
    )
    app = make_app(tmp_path, connect_error=failure)

    async def steps(pilot: Any) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, MainScreen) and pilot.app.screen.state == "failed")

    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


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


def test_help_screen(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Over the dimmed main screen a "help" box holds a table of keys: key, action, what it does, where; it lists
    / search, f filter, space fold, enter call, ? help, t theme, ^p commands and q quit, each with its tooltip."""

    async def steps(pilot: Any) -> None:
        await _connected(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)


def test_filter_shows_only_errors(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The filter box under the timeline holds "error"; the timeline shows one call, "#7 tools/call get_weather"
    with status no-answer in the error colour; calls #1-#6 are hidden."""
    app = make_app(tmp_path, answers=FixedAnswers({}))

    async def steps(pilot: Any) -> None:
        await _call(pilot, "add", {"a": 1, "b": 2})
        await _call(pilot, "get_weather", {"location": "Oslo"})
        await pilot.press("f", *"error")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_large_result_folded(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Call #6 tools/call heavy_report (about 5 MB) is highlighted; the detail pane shows its params and the start of
    the result as JSON right away; scrolled to the end, the last line says "⋯ folded after 200 lines of 5.2 MB ·
    press x to unfold"."""

    async def steps(pilot: Any) -> None:
        screen = await _call(pilot, "heavy_report", {})
        detail = screen.query_one("#detail")
        detail.focus()
        await pilot.press("end")
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)


def test_light_theme(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The same main screen as after a two-round get_weather call, in inspector-light: dark text on a near-white
    background, blue request ids, amber input_required, green complete; every part stays readable."""
    app = make_app(
        tmp_path,
        theme="inspector-light",
        answers=FixedAnswers({"github_login": {"action": "accept", "content": {"name": "octocat"}}}),
    )

    async def steps(pilot: Any) -> None:
        screen = await _call(pilot, "get_weather", {"location": "Lisbon"})
        screen.timeline_view.select_call(6, 1)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_contrast_theme(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The main screen after a two-round get_weather call, in inspector-contrast: pure black background, cyan
    request ids, yellow input_required, bright green complete."""
    app = make_app(
        tmp_path,
        theme="inspector-contrast",
        answers=FixedAnswers({"github_login": {"action": "accept", "content": {"name": "octocat"}}}),
    )

    async def steps(pilot: Any) -> None:
        await _call(pilot, "get_weather", {"location": "Lisbon"})

    assert snap_compare(app, terminal_size=SIZE, run_before=steps)
