"""The help screen (``?``): every key that works where you are, with its tooltip and where it works, the same list
as the command palette; pilot tests and its SVG snapshot (the docstring says what a person should see)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from ui_support import SIZE, connected, finished_call, make_app, wait_for

from inspector.ui.keys import gather_keys
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.modals.export_dialog import ExportModal
from inspector.ui.screens.help import HelpScreen, key_table

SnapCompare = Callable[..., bool]


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_help_lists_the_same_keys_as_the_command_palette(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        await wait_for(pilot, lambda: screen.selected is None)  # settled: the catalog's item previewed
        keys = gather_keys(app.screen)
        ids = {key.id for key in keys}
        assert {
            "main.search",
            "main.filter",
            "timeline.toggle_fold",
            "app.next_theme",
            "app.help",
            "app.quit",
            "app.command_palette",
            "catalog.select",
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
        # The help lists the same keys first, then those that do nothing now (no call in flight to cancel ...).
        assert [key.id for key in help_screen.keys if key.available] == [key.id for key in keys]
        assert "call.cancel_call" in {key.id for key in help_screen.keys if not key.available}
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))


async def test_the_keys_of_the_highlighted_call_are_listed_and_run_from_the_palette(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "add", {"a": 1, "b": 2})
        keys = {key.id: key for key in gather_keys(screen)}
        assert keys["call.export"].where == keys["call.resend"].where == "highlighted call"
        assert "call.cancel_call" not in keys  # the call has ended: cancel is not offered
        palette = {command.title: command for command in app.get_system_commands(screen)}
        assert "cancel call (k)" not in palette
        palette["export (e)"].callback()  # as choosing it in the palette does
        await wait_for(pilot, lambda: isinstance(app.screen, ExportModal))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        assert {"call.export", "call.resend"} <= {key.id for key in help_screen.keys if key.available}


async def test_help_names_every_call_key_where_a_person_sees_it_and_cuts_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "add", {"a": 1, "b": 2})
        screen.timeline_view.focus()
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        by_key = {key.key: key for key in help_screen.keys}
        assert {"e", "s", "k", "c", "x", "w", "/", "f", "?", "q"} <= set(by_key)
        assert by_key["e"].available and by_key["s"].available
        assert not by_key["k"].available  # listed apart: no call in flight to cancel
        where = {key.where for key in help_screen.keys}
        assert where <= {"this screen", "everywhere", "highlighted call", "catalog", "catalog search", "timeline",
                         "timeline filter", "detail pane", "subscriptions panel"}, where  # fmt: skip
        # Every cell wraps in its column at the width the help has: no tooltip is cut.
        width = help_screen.query_one("#help-now").content_region.width
        console = Console(width=width, record=True)
        console.print(key_table([key for key in help_screen.keys if key.available]))
        shown = " ".join(console.export_text().split())
        assert "…" not in shown
        for key in help_screen.keys:
            if key.available:
                assert all(word in shown for word in key.tooltip.split()), key.tooltip


# ---------------------------------------------------------------------------------------------------- snapshots
def test_help_screen(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Over the dimmed main screen a "help" box holds a table of keys: key, action, what it does, where (in words:
    this screen, catalog search, catalog, timeline, timeline filter, detail pane, everywhere); it lists / search
    and f filter, esc leave box, ⏎ call, the timeline's moves and space fold, w wrap, then ? help, tab, t theme, ^p
    commands and q quit, each tooltip wrapping in its column, never cut. Then "Not available in this state ...":
    n, N, r, esc servers, and, since no call is highlighted (the catalog has the focus), e export, s edit & resend,
    k cancel call (the box scrolls). The footer says esc close."""

    async def steps(pilot: Any) -> None:
        screen = await connected(pilot)
        await wait_for(pilot, lambda: screen.selected is None)  # the catalog's item previewed, no call pointed at
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)
