"""The Lab screen (``l`` on the main screen): the statelessness lab on the connected target, from the TUI.

Pilot tests drive the real ``Lab`` against two demo servers in this process over the memory transport
(``cli.tui_lab.InProcessLabFactory``): the calls offered, a run shown check by check, the four questions, the
recording opened on the timeline at a row's call, a refused run, escape stopping a run. The progress test replays a
real run's own events one at a time, so what the screen shows between two checks is asserted, not raced. The
snapshots' docstrings say what a person should see.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.style import Style
from textual.pilot import Pilot
from textual.widgets import Input, SelectionList
from ui_support import DEMO, SIZE, WORK_ITEM, FixedAnswers, connected, finished_call, make_app, wait_for

from inspector.cli.tui_lab import InProcessLabFactory, TuiLabFactory
from inspector.lab.lab_calls import tool_call
from inspector.lab.lab_events import LabEvent, LabFinished, RowAdded, StageStarted
from inspector.lab.lab_report import LabReport, Row
from inspector.targets.target import Target
from inspector.timeline.model import Timeline
from inspector.ui.app import InspectorApp
from inspector.ui.lab.lab_form import LabForm
from inspector.ui.lab.lab_rows import LabTable, LabText, check_text, detail_text, rounds_text
from inspector.ui.lab.lab_screen import LabScreen
from inspector.ui.lab.offered_calls import describe, offered
from inspector.ui.lab_port import LabAsk, LabChoice, LabFactory, LabRun
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.widgets.session_header import SessionHeader

SnapCompare = Callable[..., bool]
WEATHER = {"location": "Lisbon"}
LAB_WAIT_S = 120.0
"""A whole lab run, on a loaded machine."""


def lab_app(tmp_path: Path, factory: LabFactory | None = None, **options: Any) -> InspectorApp:
    """The app on the in-process demo, with a lab factory (default: in-process demo instances recorded under
    ``tmp_path/labs``)."""
    lab_factory = factory if factory is not None else InProcessLabFactory(tmp_path / "labs")
    return make_app(tmp_path, lab_factory=lab_factory, **options)


async def open_lab(pilot: Pilot[Any]) -> LabScreen:
    """``l`` from the main screen, and the Lab screen up with its first field focused."""
    await connected(pilot)
    await pilot.press("L")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LabScreen) and pilot.app.screen.is_mounted)
    screen = pilot.app.screen
    assert isinstance(screen, LabScreen)
    return screen


async def session_calls_then_lab(pilot: Pilot[Any]) -> LabScreen:
    """update_work_item and get_weather on the main screen, then the lab with only those two ticked."""
    await finished_call(pilot, "update_work_item", WORK_ITEM)
    await finished_call(pilot, "get_weather", WEATHER)
    screen = await open_lab(pilot)
    screen.query_one(LabForm).tick(lambda choice: choice.source == "session")
    return screen


async def run_to_end(pilot: Pilot[Any], screen: LabScreen) -> LabReport:
    await pilot.press("ctrl+r")
    await wait_for(pilot, lambda: screen.progress.finished, LAB_WAIT_S)
    await pilot.pause()
    assert screen.progress.report is not None
    return screen.progress.report


# ---------------------------------------------------------------------------------------------------- units
def test_calls_offered_once_the_sessions_first_and_catalog_tools_unticked(tmp_path: Path) -> None:
    suggested = [LabChoice(tool_call("add", {"a": 2, "b": 3}), "suggested")]
    tools = [
        {"name": "add", "inputSchema": {"type": "object", "required": ["a", "b"]}},
        {"name": "ask_capital", "inputSchema": {"type": "object"}},
    ]
    got = offered(Timeline(), suggested, tools)
    assert [(c.call.label, c.source, ticked) for c, ticked in got] == [
        ("tools/call add", "suggested", True),
        ("tools/call ask_capital", "catalog", False),  # no required argument; never ticked for the person
    ]
    assert describe(got[0][0]) == 'add {"a":2,"b":3}'
    assert describe(got[1][0]) == "ask_capital (catalog)"


def test_a_tamper_row_is_labelled_an_experiment_first_and_in_full_below() -> None:
    row = Row("tamper", "tools/call update_work_item round 3 · with one byte flipped", "A", "fail", "SECURITY: ...",
              "validate every requestState", experiment="with one byte flipped", security=True, call=12)  # fmt: skip
    palette = {name: Style() for name in ("experiment", "label", "dim", "fail", "pass")}
    assert check_text(row, palette, short=True).plain == "[experiment] update_work_item round 3 · with one byte flipped"
    full = detail_text(row, palette, {"main": "lab-main.jsonl"}).plain
    assert "tools/call update_work_item round 3 · with one byte flipped [experiment]" in full
    assert "✗ fail security" in full and "try: validate every requestState" in full
    assert "experiment: with one byte flipped" in full
    assert "call #12 of the main session (o opens it on the timeline)" in full
    assert rounds_text("A B A") == "round 1 on A → round 2 on B → round 3 on A"


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_l_opens_the_lab_with_the_sessions_calls_and_the_demos_flows(tmp_path: Path) -> None:
    app = lab_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await finished_call(pilot, "update_work_item", WORK_ITEM)
        screen = await open_lab(pilot)
        form = screen.query_one(LabForm)
        assert app.focused is screen.query_one("#lab-b", Input)  # the first question is B
        assert str(screen.query_one("#lab-b", Input).placeholder) == "empty: a second demo, in process"
        assert form.checks == ("stateless", "tamper", "eras")
        first = form.choices[0]
        assert (first.source, first.call.params) == ("session", {"name": "update_work_item", "arguments": WORK_ITEM})
        assert first.call.recorded is not None and first.call.recorded.index == 6
        assert [c.source for c in form.calls][:2] == ["session", "suggested"]  # all ticked but the catalog's
        assert all(c.source != "catalog" for c in form.calls)
        # The session's update_work_item is the demo's own flow (SEP-2322's 4522): offered once, and the catalog's.
        assert sum(1 for c in form.choices if c.call.name == "update_work_item") == 2
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))


async def test_a_run_shows_every_check_the_questions_and_opens_its_recording(tmp_path: Path) -> None:
    factory = InProcessLabFactory(tmp_path / "labs")
    app = lab_app(tmp_path, factory)
    async with app.run_test(size=SIZE) as pilot:
        screen = await session_calls_then_lab(pilot)
        assert [c.call.name for c in screen.query_one(LabForm).calls] == ["update_work_item", "get_weather"]
        report = await run_to_end(pilot, screen)
        # Every stage ran, in the lab's order, and every row is on screen in the order it completed.
        stages = ["connecting", "baseline", "stateless 1", "stateless 2", "stateless 3", "tamper", "eras"]
        assert screen.progress.stages == stages
        assert report is factory.runs[-1].report and report.failed == []
        table = screen.query_one(LabTable)
        assert table.rows_shown == report.rows and table.row_count == len(report.rows)
        tamper = [r for r in report.rows if r.group == "tamper" and r.route]
        assert tamper and all(r.experiment is not None for r in tamper)
        crossing = next(r for r in report.rows if r.group == "stateless 2" and r.route == "A B A")
        status = screen.query_one("#lab-status", LabText).plain
        assert status.startswith("lab: ") and "0 fail" in status
        questions = screen.query_one("#lab-questions", LabText).plain
        assert "requestState of tools/call update_work_item" in questions and "who keeps it" in questions
        # The form made room for the rows; the highlighted row is shown in full.
        assert screen.query_one(LabForm).display is False and app.focused is table
        table.move_cursor(row=report.rows.index(crossing))
        detail = screen.query_one("#lab-detail", LabText)
        await wait_for(pilot, lambda: "where: round 1 on A → round 2 on B → round 3 on A" in detail.plain)
        assert screen.current is crossing and "✓ pass" in detail.plain
        # o: the main session's recording, read-only, at the row's call with its rounds unfolded.
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.walk is not None)
        replay = app.screen
        assert isinstance(replay, MainScreen) and replay.session is None
        assert "lab-main.jsonl" in str(replay.query_one(SessionHeader).render())
        assert crossing.call is not None
        await wait_for(pilot, lambda: replay.selected is not None and replay.selected[0] == crossing.call)
        rounds = replay.timeline.call(crossing.call)
        assert rounds is not None and [r.instance for r in rounds.rounds if r.kind == "request"] == ["A", "B", "A"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)


class ScriptedRun:
    """A ``LabRun`` that tells a real run's events one at a time, each when the test releases it."""

    def __init__(self, events: list[LabEvent], final: LabReport) -> None:
        self.events = events
        self.report = LabReport(final.instances, final.checks)
        self.final = final
        self.listeners: list[Callable[[LabEvent], None]] = []
        self.released: asyncio.Queue[None] = asyncio.Queue()
        self.told = 0
        self.cancelled = False

    def subscribe(self, listener: Callable[[LabEvent], None]) -> None:
        self.listeners.append(listener)

    async def run(self) -> LabReport:
        try:
            for event in self.events:
                await self.released.get()
                if isinstance(event, RowAdded):
                    self.report.add(event.row)
                for listener in self.listeners:
                    listener(event)
                self.told += 1
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return self.final


class Scripted:
    """A ``LabFactory`` handing out one ``ScriptedRun``; ``asked`` is what the screen asked for."""

    def __init__(self, run: ScriptedRun) -> None:
        self.scripted = run
        self.asked: list[LabAsk] = []

    def suggested(self, target: Target) -> list[LabChoice]:
        return []

    def second_instance(self, target: Target) -> str:
        return "a second process of the demo"

    def start(self, ask: LabAsk, answers: Any) -> LabRun:
        self.asked.append(ask)
        return self.scripted


def told(run: ScriptedRun, count: int) -> Callable[[], bool]:
    return lambda: run.told == count


def has_rows(table: LabTable, count: int) -> Callable[[], bool]:
    return lambda: table.row_count == count


def says(text: LabText, what: str) -> Callable[[], bool]:
    return lambda: what in text.plain


async def a_real_run() -> ScriptedRun:
    """A whole lab run on the demo's update_work_item (in process), its events kept in order."""
    call = LabChoice(tool_call("update_work_item", WORK_ITEM), "session")
    ask = LabAsk(DEMO, "", ("stateless", "tamper"), (call,))
    run = InProcessLabFactory(None).start(ask, FixedAnswers())  # (it answers from the demo's answers file)
    events: list[LabEvent] = []
    run.subscribe(events.append)
    report = await run.run()
    return ScriptedRun(events, report)


async def test_each_check_is_shown_as_it_completes(tmp_path: Path) -> None:
    scripted = await a_real_run()
    app = lab_app(tmp_path, Scripted(scripted))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lab(pilot)
        await pilot.press("ctrl+r")
        table = screen.query_one(LabTable)
        status = screen.query_one("#lab-status", LabText)
        rows = 0
        for index, event in enumerate(scripted.events):
            scripted.released.put_nowait(None)
            await wait_for(pilot, told(scripted, index + 1))
            if isinstance(event, RowAdded):
                rows += 1
            await wait_for(pilot, has_rows(table, rows))
            if isinstance(event, StageStarted):
                await wait_for(pilot, says(status, f"running · {event.stage}"))
            if not isinstance(event, LabFinished):
                assert (
                    screen.progress.running and not screen.progress.finished and screen.check_action("run", ()) is False
                )
        await wait_for(pilot, lambda: screen.progress.finished and not screen.progress.running)
        assert table.rows_shown == scripted.final.rows


async def test_escape_stops_a_running_lab(tmp_path: Path) -> None:
    scripted = await a_real_run()
    app = lab_app(tmp_path, Scripted(scripted))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lab(pilot)
        await pilot.press("ctrl+r")
        scripted.released.put_nowait(None)
        await wait_for(pilot, lambda: scripted.told == 1 and screen.progress.running)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and scripted.cancelled)


async def test_one_url_is_one_instance_so_the_run_is_refused_until_b_is_given(tmp_path: Path) -> None:
    url = Target.from_spec("http://127.0.0.1:9/mcp")
    app = lab_app(tmp_path, TuiLabFactory(record=False), target=url)
    async with app.run_test(size=SIZE) as pilot:
        await finished_call(pilot, "add", {"a": 2, "b": 3})
        screen = await open_lab(pilot)
        assert "a URL of a second instance" in str(screen.query_one("#lab-b", Input).placeholder)
        await pilot.press("ctrl+r")
        status = screen.query_one("#lab-status", LabText)
        await wait_for(pilot, lambda: "one URL is one instance" in status.plain)
        assert screen.progress.report is None and not screen.progress.running
        assert screen.query_one(LabForm).display is True  # the form stays, to fix what was refused


# ---------------------------------------------------------------------------------------------------- snapshots
def test_lab_screen_before_a_run(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Titled "Lab · is this server stateless? Two instances A and B, no sticky sessions (seed 004)", and under it
    "choose instance B, the checks and the calls, then run (ctrl+r)". On the left, a box "Run the lab on":
    instance A "demo"; an empty instance B field with the cursor, placeholder "empty: a second demo, in process";
    three ticked checks: "stateless  calls on B, rounds A⇄B, tasks", "tamper  altered requestState
    (experiments)", "eras  legacy and modern, diffed"; "Calls (16)", all ticked: first "update_work_item
    {"workItemId":4211,"fields":… #6" (this session's call #6), then the demo's flows (add, get_weather,
    update_work_item 4242, ask_capital ...); a note "space ticks; #N: this session's call, answered as it was" and
    a blue "Run the lab ctrl+r" button. On the right an empty table titled "Checks, as each completes" with the
    columns group, check, A/B, verdict, why; below, the notes of the highlighted-check pane and of seed 004's four
    questions. The footer lists ^r run and esc back."""

    async def steps(pilot: Pilot[Any]) -> None:
        await finished_call(pilot, "update_work_item", WORK_ITEM)
        screen = await open_lab(pilot)
        screen.query_one("#lab-b", Input).cursor_blink = False  # (a picture must not depend on the moment)
        await pilot.pause()

    assert snap_compare(lab_app(tmp_path), terminal_size=SIZE, run_before=steps)


def test_lab_screen_after_a_run(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """After a run on this session's update_work_item and get_weather: the status line, green, reads "lab: 21
    pass · 0 fail · 2 warn · 2 skip · era modern 2026-07-28 · o: open the recording on the timeline". The form is
    gone and the table takes the whole width, from the top: baseline "every call on A", stateless 1
    "update_work_item on B" with A/B "B B B", stateless 2 "update_work_item · A⇄B" with "A B A" (each ✓ pass in
    green), stateless 3 "task tools" – skip (grey), then the tamper rows, each beginning with a purple
    "[experiment]": with one byte flipped, truncated to half, empty, omitted, of another tool (✓ pass, "refused:
    ..."), replayed after its call completed (⚠ warn, yellow). The first experiment is highlighted; "The
    highlighted check" below shows it in full: "tamper · experiments: the server must validate every requestState
    it gets back", "where: A", "✓ pass", "why: refused: -32602 Invalid or expired requestState", "experiment: with
    one byte flipped (the only calls whose requestState the inspector ever changes ...)" and "call #N of the main
    session (o opens it on the timeline)". On the right, seed 004's four questions as a table (state, who keeps
    it, found by, expires, after a disconnect): the requestState of update_work_item, kept by "the client: sealed
    in the Python SDK's v1. AES-GCM format, about 300 chars". The footer lists ^r run, o open recording, e edit the run,
    esc back."""

    async def steps(pilot: Pilot[Any]) -> None:
        screen = await session_calls_then_lab(pilot)
        await run_to_end(pilot, screen)
        table = screen.query_one(LabTable)
        flipped = next(i for i, row in enumerate(table.rows_shown) if row.experiment is not None)
        table.move_cursor(row=flipped)
        detail = screen.query_one("#lab-detail", LabText)
        await wait_for(pilot, lambda: "experiment: with one byte flipped" in detail.plain)
        await pilot.pause()

    assert snap_compare(lab_app(tmp_path), terminal_size=SIZE, run_before=steps)


async def test_no_call_ticked_is_refused_with_what_to_do(tmp_path: Path) -> None:
    app = lab_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_lab(pilot)
        screen.query_one("#lab-calls", SelectionList).deselect_all()
        await pilot.press("ctrl+r")
        status = screen.query_one("#lab-status", LabText)
        await wait_for(pilot, lambda: "no call chosen" in status.plain)
        assert screen.progress.report is None
