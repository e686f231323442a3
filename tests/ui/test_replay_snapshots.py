"""SVG snapshots of replay, export and edit & resend in the TUI. Each docstring says what a person should see."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from recording_support import record_session, replay_app
from textual.widgets import TextArea
from ui_support import SIZE, make_app, wait_for

from inspector.ui.modals.answers_editor import AnswersEditor
from inspector.ui.modals.export import ExportModal
from inspector.ui.screens.compose import ComposeScreen
from inspector.ui.screens.main import MainScreen

SnapCompare = Callable[..., bool]
WORK_ITEM = {"workItemId": 4211, "fields": {"state": "Resolved"}}


@pytest.fixture
def recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A damaged recording at ``session.jsonl``, relative to the current folder (so the header is the same on
    every machine)."""
    monkeypatch.chdir(tmp_path)
    asyncio.run(record_session(tmp_path / "session.jsonl", damage=True))
    return Path("session.jsonl")


async def _opened(pilot: Any) -> MainScreen:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, MainScreen) and pilot.app.screen.catalog_loaded)
    screen = pilot.app.screen
    assert isinstance(screen, MainScreen)
    return screen


def test_replay_screen(snap_compare: SnapCompare, recording: Path) -> None:
    """The header reads "replay of session.jsonl · ⏵ read-only · python -m inspector.demo (stdio) · inspector-demo
    0.1.0 · modern 2026-07-28" (no "connected", no recording path). The catalog lists the 4 recorded tools, one
    prompt and one resource. The timeline holds the 8 recorded calls; #6 tools/call update_work_item is unfolded
    into its three rounds with the answers "(you)", and round 2 (with the lock mark) is highlighted: the detail pane
    shows its exact request and response, the requestState panel the recorded value with "✓ echoed unchanged". The
    console starts with two problems of the file in the error colour: "recording line 6: not JSON ..." and
    "recording line 47: the last line was cut off ... the recording was probably killed", then the recorded stderr
    "demo server starting" and "connection closed: closed by the user"; a toast says "2 line(s) of the recording
    could not be read: see the console". The footer offers export and edit & resend but no cancel and no step
    keys."""

    async def steps(pilot: Any) -> None:
        screen = await _opened(pilot)
        screen.timeline_view.select_call(6, 2)
        await wait_for(pilot, lambda: screen.selected == (6, 2))
        await pilot.pause()

    assert snap_compare(replay_app(recording), terminal_size=SIZE, run_before=steps)


def test_replay_step_mode(snap_compare: SnapCompare, recording: Path) -> None:
    """Step mode after 13 messages: the header reads "replay of session.jsonl · ⏵ read-only · message 13 of 22 ·
    +24.0 ms" before the recorded server. The timeline has six calls; the newest, #6 tools/call update_work_item,
    "2 rounds … pending", is unfolded: round 1 "id 6 → input_required resolution", "answered resolution:
    resolution="Duplicate" (you)", and round 2 "id 7 retry → pending", highlighted, its request (with
    inputResponses) in the detail pane. The older calls are folded. The console lists the walk, one line per
    message: "11/22 +36.0 ms → #6 tools/call update_work_item (id 6)", "12/22 +12.0 ms ← id 6 input_required asks
    resolution", "13/22 +24.0 ms → #6 tools/call update_work_item (id 7) answers resolution". The footer offers
    n next message and N all."""

    async def steps(pilot: Any) -> None:
        screen = await _opened(pilot)
        for _ in range(12):
            await pilot.press("n")
        await wait_for(pilot, lambda: screen.selected is not None and screen.selected[0] == 6)
        await pilot.press("n")
        await pilot.pause()

    assert snap_compare(replay_app(recording, step=True), terminal_size=SIZE, run_before=steps)


def test_export_modal(snap_compare: SnapCompare, recording: Path) -> None:
    """Over the replay, a dialog titled "Export": "#6 tools/call update_work_item · round 2", then three buttons
    "1 curl", "2 JSON-RPC messages" (highlighted, the format shown) and "3 Python (official SDK)"; below, a read-only
    text box with the call's messages as a JSON array starting "[", "{", '"jsonrpc": "2.0"', '"id": 6',
    '"method": "tools/call"'; under it the hint "c copies everything · select with the mouse or shift+arrows,
    ctrl+c copies a selection". The footer lists 1 curl, 2 JSON-RPC, 3 Python, c copy, esc close."""

    async def steps(pilot: Any) -> None:
        screen = await _opened(pilot)
        screen.timeline_view.select_call(6, 2)
        await wait_for(pilot, lambda: screen.selected == (6, 2))
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ExportModal))
        await pilot.pause()

    assert snap_compare(replay_app(recording), terminal_size=SIZE, run_before=steps)


def test_export_modal_error(snap_compare: SnapCompare, recording: Path) -> None:
    """The export dialog with "1 curl" highlighted: instead of a text box, in the error colour, "✗ call #6 was
    recorded over stdio: there is no HTTP request to reproduce with curl; use --as json for its JSON-RPC messages
    (or --as python for an SDK script)" and "Here, --as curl/json/python are the keys 1, 2 and 3."."""

    async def steps(pilot: Any) -> None:
        screen = await _opened(pilot)
        screen.timeline_view.select_call(6)
        await wait_for(pilot, lambda: screen.selected == (6, 0))
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ExportModal))
        await pilot.press("1")
        await pilot.pause()

    assert snap_compare(replay_app(recording), terminal_size=SIZE, run_before=steps)


async def _live_call(pilot: Any, name: str, arguments: dict[str, Any]) -> MainScreen:
    screen = await _opened(pilot)
    before = len(screen._timeline().calls)
    screen.run_call("tools", name, arguments)
    await wait_for(
        pilot, lambda: len(screen._timeline().calls) > before and screen._timeline().calls[-1].status != "pending"
    )
    return screen


def test_resend_composer_prefilled(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The composer dialog titled "resend #6: call add" over the main screen: "tools/call add · Add", the
    description "Adds two integers.", and the fields a and b pre-filled with 2 and 40 (what call #6 sent), the
    cursor in a; the Call button at the bottom."""

    async def steps(pilot: Any) -> None:
        screen = await _live_call(pilot, "add", {"a": 2, "b": 40})
        screen.timeline_view.focus()
        screen.timeline_view.select_call(6)
        await wait_for(pilot, lambda: screen.selected == (6, 0))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ComposeScreen))
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)


def test_answers_editor(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """A dialog titled "Resend #6 with edited answers": "#6 tools/call update_work_item · from round 2", a note that
    each key is an input request key (a legacy request: its method) and that other questions are asked as usual,
    then a JSON editor holding {"resolution": {"action": "accept", "content": {"resolution": "Duplicate"}},
    "duplicate_of": {... "duplicate_of": 4301}} with the cursor in it, and the buttons Resend and Close; the footer
    lists ^s Resend and esc close."""

    async def steps(pilot: Any) -> None:
        screen = await _live_call(pilot, "update_work_item", WORK_ITEM)
        screen.timeline_view.focus()
        screen.timeline_view.select_call(6, 2)
        await wait_for(pilot, lambda: screen.selected == (6, 2))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, AnswersEditor))
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)


def test_resent_call_with_its_diff(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """After #6 update_work_item and #7 add, #6 was resent with duplicate_of edited to 17: the timeline shows
    "#8 tools/call ↻ #6 update_work_item 3 rounds complete" highlighted right above #6 (not at the top, where #7
    add stays: a resent call sits next to the call it resent), its rounds answered "(edited)" with
    duplicate_of=17. The detail pane of #8, scrolled to its end, shows the section "compared with #6 (resent)":
    "1 difference in the result:", "content[0].text: changed" in the findings colour, then
    '#6: "Work item #4211 resolved as Duplicate of #4301."' dim and '#8: "... Duplicate of #17."'."""

    async def steps(pilot: Any) -> None:
        screen = await _live_call(pilot, "update_work_item", WORK_ITEM)
        await _live_call(pilot, "add", {"a": 1, "b": 1})
        screen.timeline_view.focus()
        screen.timeline_view.select_call(6, 1)
        await wait_for(pilot, lambda: screen.selected == (6, 1))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, AnswersEditor))
        edited = json.loads(pilot.app.screen.query_one(TextArea).text)
        edited["duplicate_of"]["content"]["duplicate_of"] = 17
        pilot.app.screen.query_one(TextArea).text = json.dumps(edited)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(screen._timeline().calls) == 8 and screen._timeline().calls[-1].finished_at)
        await wait_for(pilot, lambda: screen.selected == (8, 0))
        screen.query_one("#detail").focus()
        await pilot.press("end")
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)
