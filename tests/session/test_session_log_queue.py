"""A reply's bookkeeping is queued until the next request has left (session_log): nothing a user reads may notice.

The recording keeps wire order, the call an operation returns is complete at once, a reply lands in the recording
within one turn of the loop, and polling for a reply (stdio) starves nothing else on the loop.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from session_support import live_session

from inspector.session.connection import _poll_until_done
from inspector.session.recorder import Recorder
from inspector.session.session_log import SessionLog
from inspector.timeline import records
from inspector.timeline.records import raw_text

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

BOUND_S = 10.0


def _log(tmp_path: Path) -> tuple[SessionLog, Path]:
    path = tmp_path / "log.jsonl"
    header = records.header("t", "stdio", "auto", started="test", inspector_version="test")
    return SessionLog(time.monotonic, Recorder(path, header)), path


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def test_queued_records_are_written_before_a_later_write_in_order(tmp_path: Path) -> None:
    log, path = _log(tmp_path)
    log.queue(records.stderr(0.1, "first"))
    log.queue(records.stderr(0.2, "second"))
    assert _lines(path) == [], "queued records wait"
    log.write(records.stderr(0.3, "third"))
    assert [line["raw"] for line in _lines(path)] == ["first", "second", "third"]
    assert [c.text for c in log.timeline.console] == ["first", "second", "third"]


def test_an_action_after_the_queue_sees_it_applied_and_its_own_writes_land_in_order(tmp_path: Path) -> None:
    log, path = _log(tmp_path)
    seen: list[int] = []

    def action() -> None:
        seen.append(log.builder.timeline.console.count)
        log.write(records.stderr(0.3, "written by the action"))

    log.queue(records.stderr(0.1, "queued"))
    log.after_queued(action)  # no running loop here: written at once
    log.queue(records.stderr(0.4, "after"))
    log.flush()
    assert seen == [1]
    assert [line["raw"] for line in _lines(path)] == ["queued", "written by the action", "after"]


async def test_a_queued_record_is_written_on_the_loops_next_turn(tmp_path: Path) -> None:
    log, path = _log(tmp_path)
    log.queue(records.stderr(0.1, "reply"))
    log.flush_soon()
    assert _lines(path) == []
    await asyncio.sleep(0)
    assert [line["raw"] for line in _lines(path)] == ["reply"]


async def test_the_call_a_tool_call_returns_is_complete_and_recorded_within_a_turn(tmp_path: Path) -> None:
    async with live_session(tmp_path, "ok") as live, asyncio.timeout(BOUND_S):
        outcome = await live.session.call_tool("echo", {"text": "hi"})
        # read at once, before the loop has turned: the reply is on the call already
        call = live.session.call(outcome.call_index)
        assert call.status == "complete" and call.finished_at is not None
        assert call.rounds[-1].response is not None and call.rounds[-1].result_type == "complete"
        await asyncio.sleep(0)
        replies = [raw_text(r) for r in live.records()[1:] if r["dir"] == "s2c"]
        assert replies and json.loads(replies[-1] or "{}")["id"] == call.rounds[-1].request_id
    live.verify()


async def test_polling_for_a_reply_lets_other_tasks_run(tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    never: asyncio.Future[None] = loop.create_future()
    turns = 0

    async def neighbour() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(neighbour())
    await _poll_until_done(never, 0.02)
    task.cancel()
    assert turns > 10, "the loop kept running other tasks while polling"
    done: asyncio.Future[None] = loop.create_future()
    loop.call_soon(done.set_result, None)
    await _poll_until_done(done, 60.0)  # returns as soon as the reply is in, not after the budget
    assert done.done()
