"""The main screen on a live session: pilot tests (state after each user action) and SVG snapshots (each docstring
says what a person should see). The session is the real one, over the memory transport to the in-process demo
server, or to ``peers.with_test_tools`` / ``peers.crashing`` for what the demo has not."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import peers
import pytest
from textual.widgets import Static
from ui_support import (
    DEMO,
    LOGIN_ANSWER,
    SIZE,
    WORK_ITEM,
    WORK_ITEM_ANSWERS,
    FixedAnswers,
    connected,
    detail_shows_now,
    finished_call,
    footer,
    main_screen,
    make_app,
    wait_for,
)

from inspector.answers.source import Answer
from inspector.session.session import ConnectError, InspectorSession
from inspector.transport.memory import Peer, PeerStreams
from inspector.ui.app import InspectorApp
from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.detail.lines import FOLD_LINES
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.screens.help import HelpScreen
from inspector.ui.widgets.catalog import Catalog, CatalogList
from inspector.ui.widgets.connect_error import ConnectErrorPanel
from inspector.ui.widgets.console import Console
from inspector.ui.widgets.query_box import FilterBox, SearchBox
from inspector.ui.widgets.request_state import RequestStatePanel
from inspector.ui.widgets.session_header import SessionHeader, short_path
from inspector.ui.widgets.timeline_rows import Row, RowLook, render_row
from inspector.ui.widgets.timeline_view import TimelineView

AppFactory = Callable[..., InspectorApp]
SnapCompare = Callable[..., bool]
DEMO_TOOLS = [
    "get_weather",
    "update_work_item",
    "rolling_login",
    "book_meeting",
    "open_dashboard",
    "ask_capital",
    "show_roots",
    "heavy_report",
    "slow_count",
    "add",
    "deploy_release",
    "nightly_build",
]
HOSTILE_STDERR = ("\x1b[2J\x1b[31mwiped?", "[link=https://evil.example]click[/link]")
CRASH = ["Traceback (most recent call last):", "ModuleNotFoundError: No module named 'weather'"]


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_connects_and_lists_the_catalog(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        catalog = screen.query_one(Catalog)
        assert catalog.visible_names == [*DEMO_TOOLS, "code_review", "demo://about", "demo://report{?section}"]
        assert [call.method for call in screen.timeline.calls] == [
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
        assert screen.state == "connected" and screen.timeline.era is not None
        assert screen.timeline.era.era == "modern"


async def test_catalog_search_filters_items(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        await pilot.press("slash")
        await pilot.press(*"work")
        # The catalog lists again on the search box's change (a message after the last key).
        catalog = screen.query_one(Catalog)
        await wait_for(pilot, lambda: catalog.visible_names == ["update_work_item"])


async def test_the_search_box_shows_the_query_ranks_a_name_first_and_escape_leaves_it(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        await pilot.press("slash", *"ask")
        box = screen.query_one(SearchBox)
        assert app.focused is box and box.value == "ask"
        assert "ask" in "".join(segment.text for segment in box.render_line(0))  # the query shows while typing
        assert footer(app) == [("esc", "leave box")]  # the box's own escape, not the screen's "servers"
        catalog = screen.query_one(Catalog)
        # The name match before get_weather's description (listed again on the box's change, a message).
        await wait_for(pilot, lambda: catalog.visible_names[:1] == ["ask_capital"])
        await pilot.press("escape")
        listing = screen.query_one(CatalogList)
        await wait_for(pilot, lambda: app.focused is listing)
        assert isinstance(app.screen, MainScreen) and box.value == "ask"  # still on the screen, still filtering
        assert catalog.visible_names[0] == "ask_capital"
        highlighted = listing.get_option_at_index(listing.highlighted or 0).prompt
        assert str(highlighted).split() == ["ask_capital"]  # Enter now calls the name match
        await pilot.press("slash", "enter")  # Enter in the box leaves it the same way
        await wait_for(pilot, lambda: app.focused is listing)


async def test_the_filter_box_says_its_own_escape_and_gives_the_timeline_back(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "add", {"a": 1, "b": 2})
        await pilot.press("f")
        box = screen.query_one(FilterBox)
        await wait_for(pilot, lambda: app.focused is box)
        assert footer(app) == [("esc", "leave box")]
        await pilot.press(*"add", "escape")
        await wait_for(pilot, lambda: app.focused is screen.timeline_view)
        assert isinstance(app.screen, MainScreen) and box.display and box.value == "add"


async def test_the_fold_mark_says_whether_a_call_is_unfolded(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "update_work_item", WORK_ITEM)
        view = screen.timeline_view
        view.focus()
        index = screen.timeline.calls[-1].index
        view.select_call(index)
        await pilot.pause()

        def mark() -> str:
            view.ensure_rows()
            return "".join(segment.text for segment in view.render_line(view.rows.index(Row(index, 0, 0))))[:2]

        assert index in view.expanded and mark() == "▼ "  # unfolded on its own: it took three rounds
        await pilot.press("space")
        await wait_for(pilot, lambda: index not in view.expanded)
        assert mark() == "▶ "
        await pilot.press("space")
        await wait_for(pilot, lambda: index in view.expanded)
        assert mark() == "▼ "


async def test_the_detail_pane_wraps_long_lines_and_w_scrolls_them_sideways(app_factory: AppFactory) -> None:
    app = app_factory(answers=FixedAnswers(LOGIN_ANSWER))
    async with app.run_test(size=SIZE) as pilot:
        place = "Llanfairpwllgwyngyll, on the island of Anglesey, off the north-west coast of Wales"
        screen = await finished_call(pilot, "get_weather", {"location": place})
        detail = screen.query_one(DetailView)
        width = detail.scrollable_content_region.width

        def shown() -> list[str]:
            return ["".join(s.text for s in detail.render_line(y)).rstrip() for y in range(detail.size.height)]

        detail.focus()
        await wait_for(pilot, lambda: ("w", "wrap") in footer(app))  # where it works, the footer says so
        rows = shown()
        assert all(len(row) <= width for row in rows)
        joined = " ".join(row.strip() for row in rows)
        assert place in joined  # every word of the long argument line is there, none cut at the edge
        assert detail.virtual_size.width <= width  # nothing to scroll sideways
        await pilot.press("w")
        await wait_for(pilot, lambda: detail.virtual_size.width > width)  # one line each: the pane scrolls sideways
        assert not any(place in row for row in shown())  # the line runs past the edge, where scrolling reaches it
        await pilot.press("w")
        await wait_for(pilot, lambda: detail.virtual_size.width <= width)


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_the_detail_says_the_caching_hints_of_a_list_and_a_read(app_factory: AppFactory, era: str) -> None:
    """The line ``inspector list`` and ``inspector read`` print under what they list or read, from the same words
    (``CacheHints.describe``): the demo's lists are public for 60 s and its reads private for 5 s in 2026; a
    2025-11-25 server sends no hints, and the line says so."""
    target = DEMO if era == "modern" else replace(DEMO, era="legacy")
    app = app_factory(target=target)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        detail = screen.query_one(DetailView)
        listed = next(call for call in screen.timeline.calls if call.method == "tools/list")
        screen.timeline_view.focus()
        screen.timeline_view.select_call(listed.index)
        await wait_for(pilot, lambda: screen.selected == (listed.index, 0) and detail_shows_now(screen))
        said = {
            "modern": ("cache: 60 s, public (any login may share it)", "cache: 5 s, private (this login only)"),
            "legacy": ("cache: no ttlMs/cacheScope (an older server: not cached)",) * 2,
        }[era]
        assert detail.plain_lines[2] == said[0], detail.plain_lines[:4]  # under the call's status line
        before = len(screen.timeline.calls)
        screen.run_call(CallRequest("resources", "demo://about", None))
        await wait_for(pilot, lambda: len(screen.timeline.calls) > before and screen.timeline.calls[-1].ended)
        read = screen.timeline.calls[-1]
        assert read.method == "resources/read" and read.status == "complete"
        await wait_for(pilot, lambda: screen.selected == (read.index, 0) and detail_shows_now(screen))
        assert detail.plain_lines[2] == said[1], detail.plain_lines[:4]
        await finished_call(pilot, "add", {"a": 1, "b": 2})  # a tool call says nothing of caching
        assert not any(line.startswith("cache: ") for line in detail.plain_lines), detail.plain_lines[:4]


async def test_an_answer_row_says_the_reply_and_who_gave_it(app_factory: AppFactory) -> None:
    reply = {
        "role": "assistant",
        "content": {"type": "text", "text": "The capital of France is Paris."},
        "model": "claude-3-sonnet-20240307",
        "stopReason": "endTurn",
    }
    app = app_factory(answers=FixedAnswers({"capital_of_france": reply}))
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "ask_capital", {})
        call = screen.timeline.calls[-1]
        view = screen.timeline_view
        view.select_call(call.index, 1)
        view.ensure_rows()
        row = view.rows.index(Row(call.index, 1, 1))
        text = "".join(segment.text for segment in view.render_line(row)).strip("│ ")
        assert text.startswith('answered capital_of_france: "The capital of France is Pari')  # the reply, not JSON
        # The row is cut only at the pane's edge; the round's detail has the answer whole, and who gave it.
        await wait_for(pilot, lambda: screen.selected == (call.index, 1))
        lines = screen.query_one(DetailView).plain_lines
        at = lines.index("capital_of_france · from you")
        assert '"text": "The capital of France is Paris."' in " ".join(lines[at:])


async def test_a_catalog_entry_puts_its_title_on_a_line_of_its_own(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        listing = screen.query_one(CatalogList)
        prompts = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert "  code_review\n    Code review" in prompts  # never "code_review · Code" / "review" cut mid-phrase
        assert "  demo://report{?section}\n    Quarterly report" in prompts


async def test_c_copies_the_request_state_from_the_timeline(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "update_work_item", WORK_ITEM)
        call = screen.timeline.calls[-1]
        view = screen.timeline_view
        view.focus()
        view.select_call(call.index, 2)
        await wait_for(pilot, lambda: screen.selected == (call.index, 2))
        state = call.rounds[1].request_state
        assert state is not None and app.focused is view
        await pilot.press("c")
        await wait_for(pilot, lambda: app.clipboard == state.value)


async def test_multi_round_call_unfolds_into_rounds_with_answers_and_state(app_factory: AppFactory) -> None:
    answers = FixedAnswers(WORK_ITEM_ANSWERS)
    app = app_factory(answers=answers)
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "update_work_item", {"workItemId": 7, "fields": {}})
        call = screen.timeline.calls[-1]
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
        await wait_for(pilot, lambda: screen.selected == (call.index, 2))
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
        screen = await finished_call(pilot, "update_work_item", {"workItemId": 1, "fields": {}})
        view = screen.timeline_view
        view.focus()
        await pilot.press("home")
        index = screen.timeline.calls[-1].index
        assert view.current == Row(index, 0, 0)
        await pilot.press("space")
        assert index not in view.expanded
        assert [row for row in view.rows if row.call == index] == [Row(index, 0, 0)]
        await pilot.press("space")
        assert index in view.expanded
        await pilot.press("down")
        assert view.current == Row(index, 1, 0)
        await wait_for(pilot, lambda: screen.selected == (index, 1))


async def test_filter_keeps_matching_calls(app_factory: AppFactory) -> None:
    app = app_factory(answers=FixedAnswers({}))
    async with app.run_test(size=SIZE) as pilot:
        await finished_call(pilot, "add", {"a": 1, "b": 1})
        screen = await finished_call(pilot, "get_weather", {"location": "Oslo"})
        assert screen.timeline.calls[-1].status == "no-answer"
        await pilot.press("f")
        await pilot.press(*"error")
        view = screen.timeline_view

        def shown() -> set[int]:
            view.ensure_rows()
            return {row.call for row in view.rows}

        # The filter is set on the box's change (a message after the last key).
        await wait_for(pilot, lambda: shown() == {screen.timeline.calls[-1].index})
        await pilot.press("enter")
        assert view.has_focus
        view.filter_text = "name:add"
        view.ensure_rows()
        assert {row.call for row in view.rows} == {6}
        await pilot.press("f", "escape")  # escape in the filter box leaves it, not the screen
        assert view.has_focus and isinstance(app.screen, MainScreen)


async def test_large_result_shows_folded_and_x_unfolds_it(app_factory: AppFactory) -> None:
    app = app_factory(peer=peers.with_test_tools)
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "big_report", {})
        call = screen.timeline.calls[-1]
        final = call.final_round
        assert final is not None and final.response is not None
        assert len(final.response.raw) > 5_000_000
        detail = screen.query_one(DetailView)
        assert detail.document.folded
        assert any("press x to unfold" in line for line in detail.plain_lines)
        assert len(detail.plain_lines) < 3 * FOLD_LINES
        detail.focus()
        await pilot.press("x")
        await wait_for(pilot, lambda: not detail.document.folded)
        assert len(detail.plain_lines) > peers.BIG_ROWS  # the structured content's table: a line a row


async def test_server_text_is_shown_literally(app_factory: AppFactory) -> None:
    stderr = ("\x1b[2J\x1b[31mwiped?", "[bold red]not bold[/]")
    app = app_factory(peer=lambda: peers.with_test_tools(stderr))
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        names = screen.query_one(Catalog).visible_names
        assert peers.HOSTILE_NAME in names
        big = screen.query_one(CatalogList).get_option(f"tools:{names.index('big_report')}")
        assert str(big.prompt).strip() == "big_report [ro] [idem]"  # its annotations, as marks
        console = screen.query_one(Console)
        # Each line is written as its message reaches the screen (not with the catalog).
        await wait_for(pilot, lambda: console.plain[:2] == ["␛[2J␛[31mwiped?", "[bold red]not bold[/]"])
        assert "\x1b" not in "".join(console.plain)


async def test_connect_failure_shows_the_error_and_stderr_then_retry_connects(tmp_path: Path) -> None:
    sessions: list[InspectorSession] = []
    stderr = ["Traceback (most recent call last):", "ImportError: no module named foo"]

    def first_crashes() -> Peer:
        return peers.crashing(stderr) if not sessions else peers.demo()

    app = make_app(tmp_path, answers=FixedAnswers(), peer=first_crashes, sessions=sessions)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.state == "failed")
        screen = main_screen(pilot)
        panel = screen.query_one(ConnectErrorPanel)
        assert panel.display is True
        shown = str(panel.render())
        assert "the peer exited with code 1" in shown and "ImportError: no module named foo" in shown
        assert "try: the server's stderr says why it went away" in shown  # the hint, and the lines under it
        assert "the server's stderr (2 lines):" in shown
        assert isinstance(screen.failure, ConnectError)
        assert screen.check_action("reconnect", ()) is True
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.state == "connected" and screen.catalog_loaded)
        assert len(sessions) == 2  # a fresh session from the factory
        assert panel.display is False
        assert screen.session is sessions[1]
        assert screen.check_action("reconnect", ()) is False


async def test_the_header_says_where_the_session_records_at_every_width(tmp_path: Path) -> None:
    """The header said ``recording`` and no more at 80 columns: now the path is on it, shortened to fit (the
    server's name gives way first), the whole path in the help screen."""
    app = make_app(tmp_path)
    path = "/tmp/recordings/session-20261205-055847-274123.jsonl"  # (only shown: the session records elsewhere)
    app.settings = replace(app.settings, record_path_text=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await connected(pilot)
        header = screen.query_one(SessionHeader)
        await wait_for(pilot, lambda: "● connected" in str(header.render()))
        shown = str(header.render())
        assert shown == " inspector   demo (stdio) · ● connected · recording …/session-20261205-05….jsonl", shown
        await pilot.resize_terminal(160, 30)
        await wait_for(pilot, lambda: path in str(header.render()))
        assert "inspector-demo" in str(header.render())  # room for everything again
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        said = str(app.screen.query_one("#help-recording", Static).render())
        assert " ".join(said.split()) == f"This session records to {path}"


def test_a_recording_path_is_shortened_from_the_folders_then_the_name() -> None:
    path = "/home/ada/.local/share/inspector/recordings/session-20261205-055847-274123.jsonl"
    shown = short_path(path, 200, home="/home/ada")
    assert shown == "~/.local/share/inspector/recordings/session-20261205-055847-274123.jsonl"
    assert short_path(path, 40, home="/home/ada") == "…/session-20261205-055847-274123.jsonl"
    assert short_path(path, 30, home="/home/ada") == "…/session-20261205-0558….jsonl"  # its date, and what it is
    assert short_path(path, 8, home="/home/ada") == "…3.jsonl"
    assert short_path("/tmp/r.jsonl", 40, home="/home/ada") == "/tmp/r.jsonl"


class AcceptAsOctocat:
    """Answers every question (a legacy server request has no key) with the GitHub login get_weather asks for."""

    async def answer(self, key: str | None, request: dict[str, Any]) -> Answer:
        return Answer({"action": "accept", "content": {"name": "octocat"}}, "you", "person")


async def test_a_legacy_call_shows_its_rounds_in_the_order_they_came(tmp_path: Path) -> None:
    """A 2025-11-25 call's server request came before the reply of the request it interrupted; the reply row was
    shown first. Unfolded, the call now reads: the server's request and its answer, then the call's reply."""
    legacy = DEMO.__class__.from_spec("python -m inspector.demo", name="demo", era="legacy")
    app = make_app(tmp_path, target=legacy, answers=AcceptAsOctocat())
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "get_weather", {"location": "Oslo"})
        call = screen.timeline.calls[-1]
        assert [r.kind for r in call.rounds] == ["request", "server-request"]  # the order they began in
        view = screen.timeline_view
        await wait_for(pilot, lambda: call.index in view.expanded)  # (unfolded as it ran several rounds)
        view.ensure_rows()
        rows = [row for row in view.rows if row.call == call.index]
        said = [render_row(row, view.timeline, view.expanded, RowLook(160, view.palette(), view.columns)).plain
                for row in rows]  # fmt: skip
        lines = [" ".join(line.split()) for line in said[1:]]  # (the times at their ends left out)
        assert lines[0].startswith("├ ← server request id 1 elicitation/create"), said
        assert lines[1] == '│ answered name="octocat" (you)', said
        assert lines[2].startswith(f"└ id {call.rounds[0].request_id} → complete"), said


async def test_a_server_that_dies_at_once_has_its_stderr_on_the_panel_as_it_comes(tmp_path: Path) -> None:
    """A server found dead by the first request, before its stderr was read: the panel's hint pointed at a stderr
    "above" that was neither above nor on the panel. The panel shows the lines under the hint as they come."""
    late = asyncio.Event()

    def refuses_then_speaks() -> Peer:
        # (a memory peer's stderr ends with it: this one refuses the probe, and its stderr comes after the failure)
        async def run(streams: PeerStreams) -> int:
            probe = json.loads(await streams.stdin.readline())
            error = {"code": -32603, "message": "internal error"}
            await streams.stdout.write(json.dumps({"jsonrpc": "2.0", "id": probe["id"], "error": error}) + "\n")
            await late.wait()  # (the test lets it go once the failure is on screen)
            for line in ["Traceback (most recent call last):", "ImportError: no module named foo"]:
                await streams.stderr.write(line + "\n")
            await streams.stdin.readline()
            return 1

        return run

    legacy = DEMO.__class__.from_spec("python -m inspector.demo", name="demo", era="legacy")
    app = make_app(tmp_path, answers=FixedAnswers(), peer=refuses_then_speaks, target=legacy)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.state == "failed")
        panel = main_screen(pilot).query_one(ConnectErrorPanel)
        shown = str(panel.render())
        assert "the server has written nothing on stderr (yet" in shown
        late.set()
        await wait_for(pilot, lambda: "ImportError: no module named foo" in str(panel.render()))
        shown = str(panel.render())
        assert "the server's stderr (2 lines):\nTraceback (most recent call last):" in shown
        assert "nothing on stderr" not in shown


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


async def test_timeline_cursor_follows_the_newest_call(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "add", {"a": 1, "b": 2})
        view = screen.query_one(TimelineView)
        view.ensure_rows()
        assert view.current == Row(6, 0, 0)
        assert screen.selected == (6, 0)


async def test_quit_closes_the_session(app_factory: AppFactory) -> None:
    sessions: list[InspectorSession] = []
    app = app_factory(sessions=sessions)
    async with app.run_test(size=SIZE) as pilot:
        await connected(pilot)
        await pilot.press("q")
    assert sessions[0].timeline.connected is False
    assert sessions[0].timeline.console[-1].text.startswith("connection closed")


# ---------------------------------------------------------------------------------------------------- snapshots
def test_main_screen_after_connect(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The header says "demo (stdio) · inspector-demo 0.1.0 · modern 2026-07-28 · ● connected". The catalog lists
    the 10 demo tools (get_weather, update_work_item, rolling_login, book_meeting, open_dashboard, ask_capital,
    show_roots, heavy_report, slow_count, add), the code_review prompt, the demo://about resource and the
    demo://report{?section} template; the catalog has the focus, get_weather highlighted. The timeline shows five
    one-round calls, each "1 round complete 12 ms" (status and time at the right edge), newest (#5
    resources/templates/list) on top; the detail pane previews the highlighted tool, "tool: get_weather" and its
    definition as coloured JSON; the requestState panel says there is none; the console is empty; the footer lists
    call, "C D ` z panes", search, filter, help, theme, quit (no call is highlighted, so no export)."""

    async def steps(pilot: Any) -> None:
        screen = await connected(pilot)
        await wait_for(pilot, lambda: screen.selected is None)  # the catalog's item previewed, no call pointed at
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)


def test_multi_round_call_with_request_state(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Call #6 tools/call update_work_item is unfolded into three rounds: id 6 → input_required resolution,
    id 7 retry → input_required duplicate_of (the whole key) with a lock mark, id 8 retry → complete, each "12 ms"
    at the right edge, round 1 "you 24 ms" before it (round 2's wait gives way to its whole key); the call's row
    "you 48 ms 3 rounds complete 36 ms" (the wait for you, then the server's time at the edge); under round 1
    "answered resolution: resolution="Duplicate" (you)", under round 2 "answered duplicate_of: duplicateOfId=4301
    (you)". Round 2 is highlighted: the detail pane heads "#6 round 2 · id 6 →
    id 7" with the exact request (carrying inputResponses and requestState) and response; the requestState panel
    shows the base64 value in its own colour, its length and sha256, "looks like: base64 (of JSON)" and a green
    "✓ echoed unchanged by the retry"."""

    async def steps(pilot: Any) -> None:
        screen = await finished_call(pilot, "update_work_item", WORK_ITEM)
        screen.timeline_view.focus()
        screen.timeline_view.select_call(6, 2)
        await wait_for(pilot, lambda: screen.selected == (6, 2))

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)


def test_server_text_shown_literally(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """After the demo's tools the catalog lists literally "[bold red]x" (not bold, not red), then "big_report
    [ro] [idem]" (its annotations as dim marks) and stall. The console's lines read literally "␛[2J␛[31mwiped?"
    and "[link=https://evil.example]click[/link]": the screen was not cleared, nothing is red and there is no
    link."""
    app = make_app(tmp_path, peer=lambda: peers.with_test_tools(HOSTILE_STDERR))

    async def steps(pilot: Any) -> None:
        await connected(pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_connect_failure_shows_stderr(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The header says "✗ failed" in the error colour. In the middle column a red-bordered "connection failed"
    panel reads "could not connect: could not probe the server: the server went away (exit code 1): the peer exited
    with code 1", "try: the server's stderr says why it went away", then "the server's stderr (2 lines):" with the
    Traceback and ModuleNotFoundError lines, and "press r to retry..." at the end. The console shows the same two
    lines and "connection closed"; the timeline holds #1 server/discover, failed."""
    app = make_app(tmp_path, peer=lambda: peers.crashing(CRASH))

    async def steps(pilot: Any) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, MainScreen) and pilot.app.screen.state == "failed")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_filter_shows_only_errors(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The filter box under the timeline holds "error"; the timeline shows one call, "#7 tools/call get_weather"
    with status no-answer in the error colour; calls #1-#6 are hidden."""
    app = make_app(tmp_path, answers=FixedAnswers({}))

    async def steps(pilot: Any) -> None:
        await finished_call(pilot, "add", {"a": 1, "b": 2})
        await finished_call(pilot, "get_weather", {"location": "Oslo"})
        await pilot.press("f", *"error")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_large_result_folded(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Call #6 tools/call big_report (about 5 MB) is highlighted; the detail pane shows its params and the start of
    the result right away, by content type (its structured rows as a table); scrolled to the end, the table's rows
    end at 196 and the last line says "⋯ folded after 200 lines of 5.6 MB · press x to unfold"; the footer offers x
    unfold, j raw JSON, export and edit & resend."""

    async def steps(pilot: Any) -> None:
        screen = await finished_call(pilot, "big_report", {})
        detail = screen.query_one("#detail")
        detail.focus()
        await pilot.press("end")
        await pilot.pause()

    assert snap_compare(make_app(tmp_path, peer=peers.with_test_tools), terminal_size=SIZE, run_before=steps)


def test_light_theme(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The main screen after a two-round get_weather call, round 1 highlighted, in inspector-light: dark text on a
    near-white background, blue request ids, amber input_required, green complete; every part stays readable."""
    app = make_app(tmp_path, theme="inspector-light", answers=FixedAnswers(LOGIN_ANSWER))

    async def steps(pilot: Any) -> None:
        screen = await finished_call(pilot, "get_weather", {"location": "Lisbon"})
        screen.timeline_view.select_call(6, 1)
        await wait_for(pilot, lambda: screen.selected == (6, 1))

    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_contrast_theme(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The main screen after a two-round get_weather call, in inspector-contrast: pure black background, cyan
    request ids, yellow input_required, bright green complete."""
    app = make_app(tmp_path, theme="inspector-contrast", answers=FixedAnswers(LOGIN_ANSWER))

    async def steps(pilot: Any) -> None:
        await finished_call(pilot, "get_weather", {"location": "Lisbon"})

    assert snap_compare(app, terminal_size=SIZE, run_before=steps)
