"""The main screen on a recording (``inspector replay FILE``): read-only, no session, the exact timeline, the loader's
problems in the console, the keys that would send refused, and the step walk; pilot tests and SVG snapshots (each
docstring says what a person should see). The recordings are made by the real session over the memory transport to
the in-process demo server (``recording_support``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from recording_support import DAMAGED_LINE, record_resend, record_session, replay_app
from typer.testing import CliRunner
from ui_support import SIZE, connected, finished_call, make_app, toast_then_clear, wait_for

from inspector.cli import app as cli
from inspector.headless.json_document import call_json
from inspector.ui.composer.compose_dialog import ComposeScreen
from inspector.ui.composer.composer import Composer
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.widgets.call_keys import CallKeys
from inspector.ui.widgets.catalog import Catalog, CatalogList
from inspector.ui.widgets.console import Console
from inspector.ui.widgets.request_state import RequestStatePanel
from inspector.ui.widgets.session_header import SessionHeader
from inspector.ui.widgets.timeline_rows import Row, RowLook, render_row

SnapCompare = Callable[..., bool]


def header(screen: MainScreen) -> str:
    return str(screen.query_one(SessionHeader).render())


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_replay_shows_the_recorded_timeline_read_only(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    live = await record_session(path, damage=True)
    app = replay_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        # No session, no factory: nothing was started.
        assert screen.session is None and screen.live is None and screen.state == "replay"
        timeline = screen.timeline
        assert [call_json(c) for c in timeline.calls] == [call_json(c) for c in live.calls]
        assert [(f.code, f.call_index) for f in timeline.findings] == [(f.code, f.call_index) for f in live.findings]
        assert timeline.era == live.era and timeline.server_info == live.server_info
        shown = header(screen)
        assert f"{path.parent.name}/session.jsonl" in shown and "read-only" in shown
        assert "python -m inspector.demo" in shown
        # The loader's problems and the recorded stderr are in the console.
        console = screen.query_one(Console).plain
        assert any(f"recording line {DAMAGED_LINE}: not JSON" in line for line in console), console
        assert any("the last line was cut off" in line for line in console)
        assert "demo server starting" in console
        assert screen.query_one(Catalog).visible_names[:3] == ["get_weather", "update_work_item", "rolling_login"]
        # The newest call is highlighted and shown, as recorded.
        view = screen.timeline_view
        assert app.focused is view
        assert view.current == Row(len(live.calls), 0, 0)
        # The detail pane follows the highlight the timeline announces once its rows are built (a message).
        detail = screen.query_one(DetailView)
        await wait_for(pilot, lambda: detail.plain_lines[:1] == ["#8 tools/call add"])


async def test_replay_round_details_and_request_state_are_as_recorded(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    live = await record_session(path)
    app = replay_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.timeline_view.select_call(6, 2)
        await wait_for(pilot, lambda: screen.selected == (6, 2))
        recorded = live.calls[5].rounds[1]
        panel = screen.query_one(RequestStatePanel)
        assert panel.state is not None and recorded.request_state is not None
        assert panel.state.value == recorded.request_state.value and panel.state.echoed is True
        lines = screen.query_one(DetailView).plain_lines
        assert lines[0] == "#6 round 2 · id 6 → id 7"
        assert any('"duplicateOfId": 4301' in line for line in lines)


async def test_keys_that_would_send_are_refused_with_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "session.jsonl"
    await record_session(path)
    app = replay_app(path)
    messages: list[str] = []
    notify = app.notify

    def noting(message: str, **options: Any) -> None:
        messages.append(message)
        notify(message, **options)

    monkeypatch.setattr(app, "notify", noting)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        calls = len(screen.timeline.calls)
        keys = screen.query_one(CallKeys)
        # The keys point at the newest call once the timeline announced its highlight (a message, after connect).
        await wait_for(pilot, lambda: screen.selected == (calls, 0))
        assert keys.live is False and keys.call is not None and keys.call.index == calls
        assert keys.check_action("cancel_call", ()) is False  # nothing runs in a recording
        assert keys.check_action("resend", ()) is True  # shown, so that pressing it says why nothing is sent
        assert keys.check_action("export", ()) is True
        await pilot.press("s")  # edit & resend
        await pilot.pause()
        listing = screen.query_one(CatalogList)
        listing.focus()
        listing.highlighted = listing.get_option_index("tools:3")
        await pilot.press("enter")  # call a tool from the catalog
        # Each key's refusal is a message to the screen (s: CallKeys', enter: the catalog's), handled after the key.
        await wait_for(pilot, lambda: sum("read-only: nothing is sent" in m for m in messages) >= 2)
        assert not isinstance(app.screen, ComposeScreen)
        assert len(screen.timeline.calls) == calls
        assert sum("read-only: nothing is sent" in m for m in messages) == 2, messages
        assert screen.check_action("reconnect", ()) is False
        assert screen.check_action("step", ()) is False  # not in step mode


async def test_a_resend_made_live_keeps_its_mark_in_the_replay(tmp_path: Path) -> None:
    """Edit and resend in the TUI, then replay the recording: the resent call still sits right above the call it
    resent, marked ``↻ #N``, its detail compared with it; ``replay --print`` and ``--json`` say it too."""
    path = tmp_path / "resent.jsonl"
    live = make_app(tmp_path, recording=path)
    async with live.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "add", {"a": 2, "b": 40})
        old = len(screen.timeline.calls)
        screen.timeline_view.focus()
        screen.timeline_view.select_call(old)
        await wait_for(pilot, lambda: screen.selected == (old, 0))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(live.screen, ComposeScreen))
        live.screen.query_one(Composer).post_message(Composer.Submitted("add", {"a": 3, "b": 40}))
        await wait_for(pilot, lambda: len(screen.timeline.calls) == old + 1 and screen.timeline.calls[-1].ended)
        new = old + 1
        assert screen.timeline.calls[-1].resends == old
        await pilot.press("q")
    app = replay_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        view = screen.timeline_view
        view.ensure_rows()
        assert screen.timeline.call(new) is not None and screen.timeline.calls[new - 1].resends == old
        assert view.rows.index(Row(new, 0, 0)) + 1 == view.rows.index(Row(old, 0, 0))  # right above the old call
        line = render_row(Row(new, 0, 0), screen.timeline, set(), RowLook(80, view.palette())).plain
        assert line.startswith(f"▶ #{new} tools/call ↻ #{old} add "), line
        view.select_call(new)
        await wait_for(pilot, lambda: screen.selected == (new, 0))
        await wait_for(pilot, lambda: any("compared with" in text for text in screen.query_one(DetailView).plain_lines))
        assert f"─ compared with #{old} (resent) " in screen.query_one(DetailView).plain_lines
    printed = CliRunner().invoke(cli, ["replay", str(path), "--print"])
    assert printed.exit_code == 0, printed.output
    assert f"#{new} tools/call ↻ #{old} add" in printed.stdout
    as_json = CliRunner().invoke(cli, ["replay", str(path), "--json"])
    calls = json.loads(as_json.stdout)["calls"]
    assert [c["resends"] for c in calls] == [None] * (new - 1) + [old]


async def test_step_mode_grows_the_timeline_message_by_message(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    live = await record_session(path)
    app = replay_app(path, step=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        timeline = screen.timeline
        assert timeline.calls == []
        assert "press n for the next" in header(screen)
        await pilot.press("n")  # the server/discover request
        await wait_for(pilot, lambda: screen.selected == (1, 1))
        assert len(timeline.calls) == 1 and timeline.calls[0].rounds[0].response is None
        assert "message 1 of" in header(screen) and "start" in header(screen)
        await pilot.press("n")  # its response
        # (The key reaches the screen's binding after bubbling up from the focused timeline: wait for its step.)
        await wait_for(pilot, lambda: "message 2 of" in header(screen))
        assert timeline.calls[0].rounds[0].response is not None
        assert "message 2 of" in header(screen) and "+24.0 ms" in header(screen)  # the server logged in between
        console = screen.query_one(Console).plain
        assert console[-2] == "demo server starting"  # logged before the server answered: shown before its line
        assert console[-1].startswith("2/")
        for _ in range(8):  # the four listings
            await pilot.press("n")
        await wait_for(pilot, lambda: "message 10 of" in header(screen))
        assert len(timeline.calls) == 5
        assert "update_work_item" in screen.query_one(Catalog).visible_names
        await pilot.press("n")  # update_work_item, round 1 request
        # The step highlights its round; the detail pane follows the highlight the timeline announces (a message).
        await wait_for(pilot, lambda: screen.selected == (6, 1))
        assert timeline.calls[5].status == "pending"
        await pilot.press("N")  # everything else
        await wait_for(pilot, lambda: "messages shown" in header(screen))
        assert [call_json(c) for c in timeline.calls] == [call_json(c) for c in live.calls]
        assert screen.check_action("step", ()) is False
        assert "all" in header(screen) and "messages shown" in header(screen)


# ---------------------------------------------------------------------------------------------------- snapshots
@pytest.fixture
def recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A damaged recording at ``session.jsonl``, relative to the current folder (so the header is the same on
    every machine)."""
    monkeypatch.chdir(tmp_path)
    asyncio.run(record_session(tmp_path / "session.jsonl", damage=True))
    return Path("session.jsonl")


def test_replay_screen(snap_compare: SnapCompare, recording: Path) -> None:
    """The header reads "replay of session.jsonl · ⏵ read-only · python -m inspector.demo (stdio) · inspector-demo
    0.1.0 · modern 2026-07-28" (no "connected", no recording path). The catalog lists the 10 recorded tools, one
    prompt, one resource and one template. The timeline holds the 8 recorded calls; #6 tools/call update_work_item is
    unfolded into its three rounds with the answers "(you)", and round 2 (with the lock mark) is highlighted: the
    detail pane shows its exact request and response, the requestState panel the recorded value with "✓ echoed
    unchanged by the retry". The console starts with two problems of the file in the error colour: "recording line
    6: not JSON ..." and "recording line 39: the last line was cut off ... the recording was probably killed", then
    the recorded stderr "demo server starting" and "connection closed: closed: the peer exited after its stdin was
    closed" (a toast said "2 line(s) of the recording could not be read: see the console"; the picture is taken
    once it is cleared). The footer offers export and edit & resend but no cancel and no step keys."""

    async def steps(pilot: Any) -> None:
        screen = await connected(pilot)
        await toast_then_clear(pilot, "2 line(s) of the recording could not be read: see the console")
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
        screen = await connected(pilot)
        await toast_then_clear(pilot, "could not be read")
        for _ in range(12):
            await pilot.press("n")
        await wait_for(pilot, lambda: screen.selected is not None and screen.selected[0] == 6)
        await pilot.press("n")
        # The 13th message shown everywhere the picture reads it: the header's note, its round highlighted (the
        # detail pane follows the highlight), its console line (a bare pause raced these on a loaded machine).
        walk = screen.walk
        assert walk is not None
        await wait_for(pilot, lambda: walk.note.startswith("message 13 of 22") and screen.selected == (6, 2))
        await wait_for(pilot, lambda: any(line.startswith("13/22") for line in screen.query_one(Console).plain))
        await pilot.pause()

    assert snap_compare(replay_app(recording, step=True), terminal_size=SIZE, run_before=steps)


def test_replay_of_a_resent_call(snap_compare: SnapCompare, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The replay of a session in which #6 add (2 + 40) was resent as 3 + 40 after #7 get_weather: the timeline's top
    row is #7 tools/call get_weather; right under it, highlighted, "#8 tools/call ↻ #6 add" (the mark in the state
    colour), then #6 add, then the listings. The detail pane of #8 ends with "compared with #6 (resent)": "sent
    arguments.a: changed" with "#6: 2" and "#8: 3", and the result's "42" against "43"."""
    monkeypatch.chdir(tmp_path)
    asyncio.run(record_resend(tmp_path / "resent.jsonl"))

    async def steps(pilot: Any) -> None:
        screen = await connected(pilot)
        screen.timeline_view.select_call(8)
        await wait_for(pilot, lambda: screen.selected == (8, 0))
        detail = screen.query_one(DetailView)
        await wait_for(pilot, lambda: any("compared with" in line for line in detail.plain_lines))
        detail.scroll_end(animate=False)
        await pilot.pause()

    assert snap_compare(replay_app(Path("resent.jsonl")), run_before=steps, terminal_size=SIZE)
