"""Pilot tests of the TUI on a recording (``inspector replay FILE``): read-only, no session, the exact timeline, the
loader's problems in the console, the step walk, and export from the TUI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from recording_support import DAMAGED_LINE, STARTED, record_session, replay_app
from textual.widgets import TextArea
from ui_support import SIZE, wait_for

from inspector.headless.document import call_json
from inspector.replay.export import export_call
from inspector.session import records
from inspector.session.timeline import HttpInfo
from inspector.ui.app import InspectorApp
from inspector.ui.modals.export import ExportModal
from inspector.ui.screens.compose import ComposeScreen
from inspector.ui.screens.main import MainScreen
from inspector.ui.widgets.catalog import Catalog, CatalogList
from inspector.ui.widgets.console import Console
from inspector.ui.widgets.detail_view import DetailView
from inspector.ui.widgets.request_state import RequestStatePanel
from inspector.ui.widgets.session_header import SessionHeader
from inspector.ui.widgets.timeline_rows import Row


async def opened(pilot: Any) -> MainScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.catalog_loaded)
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


def header(screen: MainScreen) -> str:
    return str(screen.query_one(SessionHeader).render())


async def test_replay_shows_the_recorded_timeline_read_only(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    live = await record_session(path, damage=True)
    app = replay_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        # No session, no factory: nothing was started.
        assert screen.session is None and screen.factory is None and screen.state == "replay"
        timeline = screen._timeline()
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
        assert screen.query_one(Catalog).visible_names[:4] == ["get_weather", "update_work_item", "heavy_report", "add"]
        # The newest call is highlighted and shown, as recorded.
        view = screen.timeline_view
        assert app.focused is view
        assert view.current == Row(len(live.calls), 0, 0)
        assert screen.query_one(DetailView).plain_lines[0] == "#8 tools/call add"


async def test_replay_round_details_and_request_state_are_as_recorded(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    live = await record_session(path)
    app = replay_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        screen.timeline_view.select_call(6, 2)
        await wait_for(pilot, lambda: screen.selected == (6, 2))
        recorded = live.calls[5].rounds[1]
        panel = screen.query_one(RequestStatePanel)
        assert panel.state is not None and recorded.request_state is not None
        assert panel.state.value == recorded.request_state.value and panel.state.echoed is True
        lines = screen.query_one(DetailView).plain_lines
        assert lines[0] == "#6 round 2 · id 6 → id 7"
        assert any('"duplicate_of": 4301' in line for line in lines)


async def test_keys_that_would_send_are_refused_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    await record_session(path)
    app = replay_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        calls = len(screen._timeline().calls)
        await pilot.press("s")  # edit & resend
        await pilot.pause()
        listing = screen.query_one(CatalogList)
        listing.focus()
        listing.highlighted = listing.get_option_index("tools:3")
        await pilot.press("enter")  # call a tool from the catalog
        await pilot.pause()
        assert not isinstance(app.screen, ComposeScreen)
        assert len(screen._timeline().calls) == calls
        messages = [n.message for n in app._notifications]
        assert sum("read-only: nothing is sent" in m for m in messages) == 2, messages
        assert screen.check_action("cancel_call", ()) is False
        assert screen.check_action("reconnect", ()) is False
        assert screen.check_action("next_step", ()) is False  # not in step mode


async def test_step_mode_grows_the_timeline_message_by_message(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    live = await record_session(path)
    app = replay_app(path, step=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        timeline = screen._timeline()
        assert timeline.calls == []
        assert "press n for the next" in header(screen)
        await pilot.press("n")  # the server/discover request
        await wait_for(pilot, lambda: screen.selected == (1, 1))
        assert len(timeline.calls) == 1 and timeline.calls[0].rounds[0].response is None
        assert "message 1 of" in header(screen) and "start" in header(screen)
        await pilot.press("n")  # its response
        await pilot.pause()
        assert timeline.calls[0].rounds[0].response is not None
        assert "message 2 of" in header(screen) and "+12.0 ms" in header(screen)
        assert screen.query_one(Console).plain[-1].startswith("2/")
        for _ in range(8):  # the four listings
            await pilot.press("n")
        await pilot.pause()
        assert len(timeline.calls) == 5
        assert "update_work_item" in screen.query_one(Catalog).visible_names
        await pilot.press("n")  # update_work_item, round 1 request
        await pilot.pause()
        assert screen.selected == (6, 1)
        assert timeline.calls[5].status == "pending"
        await pilot.press("N")  # everything else
        await pilot.pause()
        assert [call_json(c) for c in timeline.calls] == [call_json(c) for c in live.calls]
        assert screen.check_action("next_step", ()) is False
        assert "all" in header(screen) and "messages shown" in header(screen)


async def test_export_from_the_tui(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    await record_session(path)
    app: InspectorApp = replay_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        screen.timeline_view.select_call(6, 2)
        await wait_for(pilot, lambda: screen.selected == (6, 2))
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportModal))
        modal = app.screen
        assert isinstance(modal, ExportModal)
        timeline = screen._timeline()
        assert modal.format == "json"  # a stdio recording: the messages by default
        assert modal.query_one(TextArea).text == export_call(timeline, 6, "json")
        assert modal.query_one(TextArea).read_only
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == export_call(timeline, 6, "json")
        await pilot.press("3")
        await pilot.pause()
        assert modal.text == export_call(timeline, 6, "python") and modal.error is None
        assert "update_work_item" in modal.query_one(TextArea).text
        await pilot.press("1")  # curl: not possible on stdio, the ExportError's message is shown
        await pilot.pause()
        assert modal.text is None and modal.error is not None and "recorded over stdio" in modal.error
        assert modal.has_class("-failed")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))


def http_recording(path: Path) -> None:
    """One tools/call over HTTP: the request's method, URL and headers, the response's status and headers."""
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1}}}
    sent = HttpInfo(
        method="POST",
        url="http://127.0.0.1:8000/mcp",
        request_headers={"Content-Type": "application/json", "Mcp-Method": "tools/call", "Mcp-Name": "add"},
    )
    answered = HttpInfo(status=200, response_headers={"content-type": "application/json"})
    lines = [
        records.header("http://127.0.0.1:8000/mcp", "http", "modern", started=STARTED, inspector_version="t"),
        records.call_started(0.1, 1, "tools/call", {"name": "add", "arguments": {"a": 1}}),
        records.wire(0.1, "c2s", json.dumps(request), call=1, http=sent),
        records.wire(0.2, "s2c", json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"content": []}}), http=answered),
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


async def test_http_details_and_curl_export(tmp_path: Path) -> None:
    path = tmp_path / "http.jsonl"
    http_recording(path)
    app = replay_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened(pilot)
        assert screen.target.kind == "http" and screen.target.url == "http://127.0.0.1:8000/mcp"
        screen.timeline_view.select_call(1, 1)
        await wait_for(pilot, lambda: screen.selected == (1, 1))
        lines = screen.query_one(DetailView).plain_lines
        assert "POST http://127.0.0.1:8000/mcp" in lines and "Mcp-Name: add" in lines and "status 200" in lines
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportModal))
        modal = app.screen
        assert isinstance(modal, ExportModal) and modal.format == "curl"  # an HTTP recording: curl first
        assert modal.text is not None and "curl -sS -X POST http://127.0.0.1:8000/mcp" in modal.text
        assert f"recorded {STARTED}" in modal.text and "-H 'Mcp-Name: add'" in modal.text
