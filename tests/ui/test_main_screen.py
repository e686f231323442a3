"""Pilot tests of the main screen: state after each user action, against a ScriptedSession."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ui_support import DEMO, SIZE, FixedAnswers, StartFailure, wait_for

from inspector.ui.app import InspectorApp
from inspector.ui.screens.compose import Composer, ComposeScreen
from inspector.ui.screens.main import MainScreen
from inspector.ui.scripted import ScriptedSession
from inspector.ui.target import Target
from inspector.ui.widgets.catalog import Catalog, CatalogList
from inspector.ui.widgets.connect_error import ConnectErrorPanel
from inspector.ui.widgets.console import Console
from inspector.ui.widgets.detail_view import DetailView
from inspector.ui.widgets.document import FOLD_LINES
from inspector.ui.widgets.request_state import RequestStatePanel
from inspector.ui.widgets.timeline_rows import Row
from inspector.ui.widgets.timeline_view import TimelineView

AppFactory = Callable[..., InspectorApp]


def main_screen(app: InspectorApp) -> MainScreen:
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


async def connected(pilot: Any) -> MainScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, MainScreen) and pilot.app.screen.state == "connected")
    screen = main_screen(pilot.app)
    await wait_for(pilot, lambda: screen.catalog_loaded)
    return screen


async def call_and_wait(pilot: Any, screen: MainScreen, name: str, arguments: dict[str, Any]) -> None:
    before = len(screen._timeline().calls)
    screen.run_call("tools", name, arguments)
    await wait_for(
        pilot, lambda: len(screen._timeline().calls) > before and screen._timeline().calls[-1].status != "pending"
    )
    await pilot.pause()


async def test_connects_and_lists_the_catalog(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        catalog = screen.query_one(Catalog)
        assert catalog.visible_names == [
            "get_weather",
            "update_work_item",
            "heavy_report",
            "add",
            "code_review",
            "demo://report",
        ]
        methods = [call.method for call in screen._timeline().calls]
        assert methods == [
            "server/discover",
            "tools/list",
            "prompts/list",
            "resources/list",
            "resources/templates/list",
        ]
        view = screen.timeline_view
        view.ensure_rows()
        assert view.rows[0] == Row(5, 0, 0)  # newest first
        assert screen.query_one(ConnectErrorPanel).display is False


async def test_catalog_search_filters_items(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        await pilot.press("slash")
        await pilot.press(*"work")
        assert screen.query_one(Catalog).visible_names == ["update_work_item"]


async def test_enter_on_a_tool_opens_the_composer_and_sends_its_arguments(app_factory: AppFactory) -> None:
    sessions: list[ScriptedSession] = []
    app = app_factory(sessions=sessions)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        listing = screen.query_one(CatalogList)
        listing.focus()
        listing.highlighted = listing.get_option_index("tools:3")  # add
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ComposeScreen))
        composer = app.screen.query_one(Composer)
        composer.post_message(Composer.Submitted("add", {"a": 2, "b": 40}))
        await wait_for(
            pilot, lambda: isinstance(app.screen, MainScreen) and screen._timeline().calls[-1].method == "tools/call"
        )
        await wait_for(pilot, lambda: screen._timeline().calls[-1].status == "complete")
        call = screen._timeline().calls[-1]
        assert call.params == {"name": "add", "arguments": {"a": 2, "b": 40}}
        assert call.result is not None and call.result["content"][0]["text"] == "42"
        assert screen.selected == (call.index, 0)
        assert "#6 tools/call add" in screen.query_one(DetailView).plain_lines[0]


async def test_escape_closes_the_composer_without_calling(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        calls = len(screen._timeline().calls)
        screen.query_one(CatalogList).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ComposeScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        assert len(screen._timeline().calls) == calls


async def test_multi_round_call_unfolds_into_rounds_with_answers_and_state(app_factory: AppFactory) -> None:
    answers = FixedAnswers(
        {
            "resolution": {"action": "accept", "content": {"resolution": "Duplicate"}},
            "duplicate_of": {"action": "accept", "content": {"duplicate_of": 4301}},
        }
    )
    app = app_factory(answers=answers)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        await call_and_wait(pilot, screen, "update_work_item", {"workItemId": 7, "fields": {}})
        call = screen._timeline().calls[-1]
        assert call.status == "complete"
        assert [r.result_type for r in call.rounds] == ["input_required", "input_required", "complete"]
        assert answers.asked == ["resolution", "duplicate_of"]
        view = screen.timeline_view
        view.ensure_rows()
        assert call.index in view.expanded  # unfolded on its own once it needed a second round
        assert [row for row in view.rows if row.call == call.index and row.line == 0] == [
            Row(call.index, 0, 0),
            Row(call.index, 1, 0),
            Row(call.index, 2, 0),
            Row(call.index, 3, 0),
        ]
        view.focus()
        view.select_call(call.index, 2)
        await pilot.pause()
        assert screen.selected == (call.index, 2)
        panel = screen.query_one(RequestStatePanel)
        state = call.rounds[1].request_state
        assert state is not None and panel.state is state
        assert state.echoed is True
        detail = screen.query_one(DetailView).plain_lines
        assert detail[0] == f"#{call.index} round 2 · id 6 → id 7"
        assert any('"requestState"' not in line and "duplicate_of" in line for line in detail)


async def test_space_folds_and_unfolds_a_call(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        await call_and_wait(pilot, screen, "update_work_item", {"workItemId": 1, "fields": {}})
        view = screen.timeline_view
        view.focus()
        await pilot.press("home")
        index = screen._timeline().calls[-1].index
        assert view.current == Row(index, 0, 0)
        await pilot.press("space")
        assert index not in view.expanded
        assert [row for row in view.rows if row.call == index] == [Row(index, 0, 0)]
        await pilot.press("space")
        assert index in view.expanded
        await pilot.press("down")
        assert view.current == Row(index, 1, 0)
        assert screen.selected == (index, 1)


async def test_filter_keeps_matching_calls(app_factory: AppFactory) -> None:
    app = app_factory(answers=FixedAnswers({}))
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        await call_and_wait(pilot, screen, "add", {"a": 1, "b": 1})
        await call_and_wait(pilot, screen, "get_weather", {"location": "Oslo"})
        assert screen._timeline().calls[-1].status == "no-answer"
        await pilot.press("f")
        await pilot.press(*"error")
        view = screen.timeline_view
        view.ensure_rows()
        assert {row.call for row in view.rows} == {screen._timeline().calls[-1].index}
        await pilot.press("enter")
        assert view.has_focus
        view.filter_text = "name:add"
        view.ensure_rows()
        assert {row.call for row in view.rows} == {6}


async def test_large_result_shows_folded_and_x_unfolds_it(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        await call_and_wait(pilot, screen, "heavy_report", {})
        call = screen._timeline().calls[-1]
        final = call.final_round
        assert final is not None and final.response is not None
        assert len(final.response.raw) > 5_000_000
        detail = screen.query_one(DetailView)
        screen.timeline_view.select_call(call.index)
        await pilot.pause()
        assert detail.document.folded
        assert any("press x to unfold" in line for line in detail.plain_lines)
        assert len(detail.plain_lines) < 3 * FOLD_LINES
        detail.focus()
        await pilot.press("x")
        await wait_for(pilot, lambda: not detail.document.folded)
        assert len(detail.plain_lines) > 400_000


async def test_server_text_is_shown_literally(app_factory: AppFactory) -> None:
    app = app_factory(hostile=True, stderr=("\x1b[2J\x1b[31mwiped?", "[bold red]not bold[/]"))
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        assert "[bold red]x" in screen.query_one(Catalog).visible_names
        console = screen.query_one(Console)
        assert console.plain[:2] == ["␛[2J␛[31mwiped?", "[bold red]not bold[/]"]
        assert "\x1b" not in "".join(console.plain)


async def test_connect_failure_shows_the_error_and_stderr_then_retry_connects(tmp_path: Path) -> None:
    failure = StartFailure(
        "the server exited with code 1 before answering",
        "check the command",
        ["Traceback (most recent call last):", "ImportError: no module named foo"],
    )
    sessions: list[ScriptedSession] = []

    def factory(target: Target, answers: Any) -> ScriptedSession:
        sessions.append(ScriptedSession(answers, connect_error=None if sessions else failure))
        return sessions[-1]

    app = InspectorApp(
        factory, DEMO, None, None, config_dir=tmp_path, home=tmp_path, cwd=tmp_path, answers=FixedAnswers()
    )
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.state == "failed")
        screen = main_screen(app)
        panel = screen.query_one(ConnectErrorPanel)
        assert panel.display is True
        shown = str(panel.render())
        assert (
            "the server exited with code 1" in shown
            and "ImportError: no module named foo" in shown
            and "check the command" in shown
        )
        assert screen.failure is failure
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.state == "connected")
        assert len(sessions) == 2  # a fresh session from the factory
        assert panel.display is False
        assert screen.session is sessions[1]


async def test_theme_key_cycles_the_inspector_themes(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        await connected(pilot)
        assert app.theme == "inspector-dark"
        assert {"inspector-dark", "inspector-light", "inspector-contrast"} <= set(app.theme_names)
        seen = []
        for _ in app.theme_names:
            await pilot.press("t")
            seen.append(app.theme)
        assert sorted(seen) == sorted(app.theme_names)
        assert app.theme == "inspector-dark"


async def test_timeline_cursor_follows_the_newest_call(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        view = screen.query_one(TimelineView)
        await call_and_wait(pilot, screen, "add", {"a": 1, "b": 2})
        view.ensure_rows()
        assert view.current == Row(6, 0, 0)
        assert screen.selected == (6, 0)
