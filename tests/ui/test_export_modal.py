"""The export dialog (``e`` on the highlighted call): the call as curl (one HTTP round), its JSON-RPC messages, or a
script using the official SDK, from a recording and from a live session; pilot tests and SVG snapshots (each
docstring says what a person should see)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from recording_support import STARTED, record_session, replay_app
from textual.widgets import TextArea
from ui_support import SIZE, connected, finished_call, toast_then_clear, wait_for

from inspector.replay.export import export_call
from inspector.timeline import records
from inspector.timeline.http_info import HttpInfo
from inspector.ui.app import InspectorApp
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.modals.export_dialog import ExportModal

AppFactory = Callable[..., InspectorApp]
SnapCompare = Callable[..., bool]


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_export_from_the_tui(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    await record_session(path)
    app: InspectorApp = replay_app(path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.timeline_view.select_call(6, 2)
        await wait_for(pilot, lambda: screen.selected == (6, 2))
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportModal))
        modal = app.screen
        assert isinstance(modal, ExportModal)
        timeline = screen.timeline
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
        screen = await connected(pilot)
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


async def test_export_a_live_call(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "add", {"a": 2, "b": 40})
        old = len(screen.timeline.calls)
        screen.timeline_view.select_call(old)
        await wait_for(pilot, lambda: screen.selected == (old, 0))
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportModal))
        text = app.screen.query_one(TextArea).text
        assert json.loads(text)[0]["params"]["arguments"] == {"a": 2, "b": 40}


# ---------------------------------------------------------------------------------------------------- snapshots
@pytest.fixture
def recording(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A damaged recording at ``session.jsonl``, relative to the current folder (so the header is the same on
    every machine)."""
    monkeypatch.chdir(tmp_path)
    asyncio.run(record_session(tmp_path / "session.jsonl", damage=True))
    return Path("session.jsonl")


def test_export_modal(snap_compare: SnapCompare, recording: Path) -> None:
    """Over the replay, a dialog titled "Export": "#6 tools/call update_work_item · round 2", then three buttons
    "1 curl", "2 JSON-RPC messages" (highlighted, the format shown) and "3 Python (official SDK)"; below, a read-only
    text box with the call's messages as a JSON array starting "[", "{", '"jsonrpc": "2.0"', '"id": 6',
    '"method": "tools/call"'; under it the hint "c copies everything · select with the mouse or shift+arrows,
    ctrl+c copies a selection". The footer lists 1 curl, 2 JSON-RPC, 3 Python, c copy, esc close."""

    async def steps(pilot: Any) -> None:
        screen = await connected(pilot)
        await toast_then_clear(pilot, "could not be read")
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
        screen = await connected(pilot)
        await toast_then_clear(pilot, "could not be read")
        screen.timeline_view.select_call(6)
        await wait_for(pilot, lambda: screen.selected == (6, 0))
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ExportModal))
        await pilot.press("1")
        await pilot.pause()

    assert snap_compare(replay_app(recording), terminal_size=SIZE, run_before=steps)
