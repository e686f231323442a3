"""Recordings for the TUI replay tests, made by the real session over the memory transport to the in-process demo
server, written by a ``Recorder`` (the live session's own), so the file is exactly one the TUI records."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from peers import demo, logging_first
from ui_support import LOGIN_ANSWER, WORK_ITEM, WORK_ITEM_ANSWERS, FixedAnswers, memory_session

from inspector.protocol.methods import CATALOG_KINDS
from inspector.replay.loader import load_recording
from inspector.session.recorder import Recorder
from inspector.timeline import records
from inspector.timeline.model import Timeline
from inspector.ui.app import InspectorApp
from inspector.ui.app_settings import AppSettings
from inspector.ui.recorded import Recording

STARTED: Final = "2026-07-28T09:00:00+00:00"
DAMAGED_LINE: Final = 6
"""The line of a damaged recording that is not JSON (its last line is cut too)."""
ANSWERS: Final = {**WORK_ITEM_ANSWERS, **LOGIN_ANSWER}


async def record_session(path: Path, *, damage: bool = False) -> Timeline:
    """Record connect, the four listings, update_work_item (3 rounds), get_weather (2 rounds) and add; returns the
    live timeline. ``damage`` makes line ``DAMAGED_LINE`` not JSON and adds a cut last line."""
    header = records.header("python -m inspector.demo", "stdio", "auto", started=STARTED, inspector_version="test")
    recorder = Recorder(path, header)
    peer = logging_first(["demo server starting"], demo())
    session = memory_session(peer, FixedAnswers(ANSWERS), recorder=recorder)
    await session.connect()
    for kind in CATALOG_KINDS:
        await session.list_all(kind)
    await session.call_tool("update_work_item", WORK_ITEM)
    await session.call_tool("get_weather", {"location": "Lisbon"})
    await session.call_tool("add", {"a": 2, "b": 40})
    await session.close()
    recorder.close()
    if damage:
        damage_file(path)
    return session.timeline


async def record_resend(path: Path) -> Timeline:
    """Record connect, the four listings, add 2 + 40, then that call resent as 3 + 40 (as edit and resend does)."""
    header = records.header("python -m inspector.demo", "stdio", "auto", started=STARTED, inspector_version="test")
    recorder = Recorder(path, header)
    session = memory_session(demo(), FixedAnswers(ANSWERS), recorder=recorder)
    await session.connect()
    for kind in CATALOG_KINDS:
        await session.list_all(kind)
    first = await session.call_tool("add", {"a": 2, "b": 40})
    await session.call_tool("get_weather", {"location": "Lisbon"})
    await session.call_tool("add", {"a": 3, "b": 40}, resends=first.call_index)
    await session.close()
    recorder.close()
    return session.timeline


def damage_file(path: Path) -> None:
    """Make line ``DAMAGED_LINE`` not JSON and add a last line cut in the middle (as a killed process leaves it)."""
    lines = path.read_bytes().splitlines(keepends=True)
    lines.insert(DAMAGED_LINE - 1, b"{this is not json\n")
    path.write_bytes(b"".join(lines) + b'{"t": 9.9, "dir": "s2')


def replay_app(path: Path, *, step: bool = False) -> InspectorApp:
    """The app on a recording, read-only (no factory, no session)."""
    recording = Recording.from_loaded(load_recording(path), step=step)
    return InspectorApp(None, None, AppSettings(config_dir=path.parent / "config"), replay=recording)
