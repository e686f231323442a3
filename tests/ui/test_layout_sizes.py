"""The main screen at 80x24, 100x30 and 160x45: which panes show (the detail below the timeline under 140 columns,
the catalog and the console hidden when there is no room, each one key away), and what the timeline's rows read
there: every call keeps its number, method, whole name, status and time with its unit; a round keeps its input
keys; a resent call its name; a running call its progress bar. Pilot tests on the real session over the memory
transport to the demo (or a scripted server for a progress bar held in place), and SVG snapshots at each size."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest
from scripted import Exchange, Json, Script, text, tool
from textual.pilot import Pilot
from ui_support import (
    LOGIN_ANSWER,
    WORK_ITEM,
    WORK_ITEM_ANSWERS,
    FixedAnswers,
    connected,
    finished_call,
    footer,
    make_app,
    wait_for,
)

from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.keys import gather_keys
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.widgets.catalog import Catalog
from inspector.ui.widgets.console import Console
from inspector.ui.widgets.query_box import SearchBox
from inspector.ui.widgets.timeline_rows import Row
from inspector.ui.widgets.timeline_view import TimelineView

SnapCompare = Callable[..., bool]
SIZES: Final = [(80, 24), (100, 30), (160, 45)]
ANSWERS: Final = {**WORK_ITEM_ANSWERS, **LOGIN_ANSWER}
TIME: Final = re.compile(r"\d+(\.\d)? (ms|s|min|h)$")
"""A duration with its unit, at the end of a row."""


def shown_row(view: TimelineView, row: Row) -> str:
    """A row as the screen draws it (at the timeline's width), without its trailing blanks."""
    view.ensure_rows()
    return "".join(segment.text for segment in view.render_line(view.rows.index(row) - int(view.scroll_offset.y)))


def screen_lines(view: TimelineView) -> list[str]:
    """Every line the timeline shows."""
    return ["".join(s.text for s in view.render_line(y)).rstrip() for y in range(view.scrollable_content_region.height)]


async def flows(pilot: Pilot[Any]) -> MainScreen:
    """The demo's multi-round flows, then a resend of the three-round one: calls #6 to #8, and #9 resending #7."""
    await finished_call(pilot, "get_weather", {"location": "Lisbon"})
    await finished_call(pilot, "update_work_item", WORK_ITEM)
    screen = await finished_call(pilot, "add", {"a": 1, "b": 2})
    before = len(screen.timeline.calls)
    screen.run_call(CallRequest("tools", "update_work_item", WORK_ITEM, resend_of=7))
    await wait_for(pilot, lambda: len(screen.timeline.calls) > before and screen.timeline.calls[-1].ended)
    screen.timeline_view.focus()
    await pilot.pause()
    return screen


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_every_row_keeps_its_name_status_and_time_with_its_unit(tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path, answers=FixedAnswers(ANSWERS))
    async with app.run_test(size=size) as pilot:
        screen = await flows(pilot)
        view = screen.timeline_view
        # Never the 21 columns of old: 60% of the width at least, and beside the catalog and the detail at 160, the
        # 80 columns a row with every column needs.
        assert view.region.width >= min(0.6 * size[0], 80)

        def row(call: int, round_: int = 0) -> str:
            return shown_row(view, Row(call, round_, 0)).rstrip()

        calls = {call.index: call for call in screen.timeline.calls}
        for index, call in calls.items():
            line = row(index)
            assert f"#{index} {call.method}" in line, line
            assert (call.name or "") in line, line  # the whole name: never "get_w…" or "resources/read dem…"
            assert call.status in line and TIME.search(line), line  # the status, and the time with its unit
        assert "#6 tools/call get_weather" in row(6)
        assert "#9 tools/call ↻ #7 update_work_item" in row(9)  # the resent call's name is there
        assert row(9).endswith("complete    36 ms"), row(9)
        view.select_call(9, 1)
        first, second = row(9, 1), row(9, 2)
        assert "id 12 → input_required  resolution" in first and first.endswith("12 ms"), first
        assert "retry → input_required  duplicate_of" in second and "🔒" in second, second
        assert TIME.search(second), second


async def test_at_80x24_the_timeline_takes_the_width_and_the_detail_goes_below(tmp_path: Path) -> None:
    app = make_app(tmp_path, answers=FixedAnswers(ANSWERS))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await finished_call(pilot, "update_work_item", WORK_ITEM)
        catalog, console = screen.query_one(Catalog), screen.query_one(Console)
        view, detail = screen.timeline_view, screen.query_one(DetailView)
        assert not catalog.display and not console.display  # hidden until asked for: no room for them
        assert view.region.width == 80 and app.focused is view  # the focus was never left in a hidden pane
        assert detail.region.y > view.region.y + view.region.height - 1  # below the timeline, not beside it
        assert {("C", "catalog"), ("D", "detail"), ("`", "console"), ("z", "zoom")} <= set(footer(app))
        lines = screen_lines(view)
        assert lines[0].startswith("▼ #6 tools/call update_work_item") and lines[0].endswith("36 ms"), lines
        assert "id 6 → input_required  resolution" in lines[1] and lines[1].endswith("12 ms")
        assert "id 7 retry → input_required  duplicate_of" in lines[3] and "🔒" in lines[3]
        assert lines[-1].startswith("▶ #1 server/discover") or "#1 server/discover" in "".join(lines)


async def test_the_pane_keys_show_and_hide_each_pane(tmp_path: Path) -> None:
    app = make_app(tmp_path, answers=FixedAnswers(ANSWERS))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await finished_call(pilot, "add", {"a": 1, "b": 2})
        catalog, console = screen.query_one(Catalog), screen.query_one(Console)
        view, right = screen.timeline_view, screen.query_one("#right")
        await pilot.press("C")
        await wait_for(pilot, lambda: catalog.display and catalog.region.width == 30)
        await pilot.pause()
        assert view.region.width >= 0.6 * 80  # beside the catalog the timeline still has 50 of 80 columns
        await pilot.press("C", "grave_accent")
        await wait_for(pilot, lambda: not catalog.display and console.display and console.region.height > 0)
        await pilot.press("grave_accent", "D")
        await wait_for(pilot, lambda: not console.display and not right.display)
        await pilot.pause()
        assert view.region.height >= 20  # the timeline alone: every row of the screen but header and footer
        await pilot.press("D", "slash")  # the search brings the hidden catalog and puts the cursor in its box
        await wait_for(pilot, lambda: catalog.display and isinstance(app.focused, SearchBox))
        await pilot.press("escape", "z")  # (escape leaves the box first: z is no letter typed)
        await wait_for(pilot, lambda: not catalog.display and not right.display and not console.display)
        assert app.focused is view and view.region.width == 80
        await pilot.press("z")
        await wait_for(pilot, lambda: right.display and not catalog.display)  # as the size gives again


async def test_the_pane_keys_are_in_the_help_and_a_resize_adapts(tmp_path: Path) -> None:
    app = make_app(tmp_path, answers=FixedAnswers(ANSWERS))
    async with app.run_test(size=(160, 45)) as pilot:
        screen = await connected(pilot)
        catalog, console, right = screen.query_one(Catalog), screen.query_one(Console), screen.query_one("#right")
        keys = {info.id: (info.key, info.description) for info in gather_keys(screen)}
        assert keys["main.pane-catalog"] == ("C", "catalog") and keys["main.pane-console"] == ("`", "console")
        assert keys["main.pane-detail"] == ("D", "detail") and keys["main.zoom"] == ("z", "zoom")
        view = screen.timeline_view
        assert catalog.display and console.display and right.region.x > view.region.x  # all side by side
        await pilot.resize_terminal(100, 30)
        await wait_for(pilot, lambda: not console.display and screen.has_class("-stacked"))
        await pilot.pause()
        assert catalog.display and right.region.y > view.region.y and view.region.width == 70
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: not catalog.display)
        await pilot.pause()
        assert view.region.width == 80 and app.focused is not None and app.focused.display
        await pilot.resize_terminal(160, 45)
        await wait_for(pilot, lambda: catalog.display and console.display and not screen.has_class("-stacked"))


async def test_a_running_call_keeps_its_name_and_its_progress_bar(tmp_path: Path) -> None:
    started, done = asyncio.Event(), asyncio.Event()

    async def count(exchange: Exchange) -> Json:
        await exchange.progress(3, 5, "counted 3 of 5")
        started.set()
        await done.wait()
        return text("5")

    script = Script(tools=[tool("slow_count")], handlers={"tools/call": count})
    app = make_app(tmp_path, peer=script.peer)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await connected(pilot)
        screen.run_call(CallRequest("tools", "slow_count", {"n": 5}))
        await wait_for(pilot, started.is_set)
        view = screen.timeline_view
        call = screen.timeline.calls[-1]
        await wait_for(pilot, lambda: "3/5" in shown_row(view, Row(call.index, 0, 0)))
        line = shown_row(view, Row(call.index, 0, 0)).rstrip()
        assert line.startswith(f"▶ #{call.index} tools/call slow_count  ━━━━━╌╌╌ 3/5 count"), line
        assert re.search(r"pending +…$", line), line  # its status and time still at the edge
        done.set()
        await wait_for(pilot, lambda: call.ended)


# ---------------------------------------------------------------------------------------------------- snapshots
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_main_screen_after_the_demo_flows(snap_compare: SnapCompare, tmp_path: Path, size: tuple[int, int]) -> None:
    """After get_weather (#6, two rounds), update_work_item (#7, three rounds), add (#8) and a resend of #7 (#9,
    "↻ #7"), with round 2 of #9 highlighted. At 160x45 the catalog, the timeline and the detail sit side by side
    over the console; each call row reads its whole name ("#9 tools/call ↻ #7 update_work_item"), "complete", the
    rounds and "36 ms" at the right edge, "you 48 ms" where there is room. At 100x30 the console is gone and the
    detail and requestState panes sit below the catalog's neighbour, the timeline 70 columns wide. At 80x24 the
    catalog is gone too: the timeline is the full width, the detail and requestState below it; round rows keep
    "id 16 retry → input_required  duplicate_of 🔒 12 ms". The footer starts "C catalog D detail ` console z zoom"
    after the timeline's own keys."""
    app = make_app(tmp_path, answers=FixedAnswers(ANSWERS))

    async def steps(pilot: Any) -> None:
        screen = await flows(pilot)
        screen.timeline_view.select_call(9, 2)
        await wait_for(pilot, lambda: screen.selected == (9, 2))
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=steps)
