"""Request timeouts share one loop timer (the watchdog): each request still times out at its own deadline."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from inspector.session.connection import Connection
from inspector.session.errors import RequestFailed
from inspector.session.session_log import SessionLog
from inspector.transport.base import EventSink, OutgoingMessage, Received, RequestKey, Sent, TransportKind

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)


class _Silent:
    """A transport that sends and never answers unless told to."""

    kind: TransportKind = "stdio"
    reply_poll_s = 0.0

    def __init__(self) -> None:
        self.sink: EventSink | None = None

    def describe(self) -> str:
        return "silent"

    async def start(self, sink: EventSink) -> None:
        self.sink = sink

    async def send(self, message: OutgoingMessage) -> None:
        assert self.sink is not None
        self.sink(Sent(raw=message.raw, at=time.monotonic(), request_id=message.request_id, owner=message.owner))

    def answer(self, request_id: int) -> None:
        assert self.sink is not None
        raw = f'{{"jsonrpc":"2.0","id":{request_id},"result":{{}}}}'
        self.sink(Received(raw=raw, at=time.monotonic()))

    session_expired = False

    async def open_server_stream(self) -> None:
        return None

    async def cancel(self, request_id: RequestKey) -> bool:
        return True  # nothing to send on cancel

    async def close(self) -> None:
        return None


async def _connection() -> tuple[Connection, _Silent]:
    transport = _Silent()
    connection = Connection(transport, SessionLog(time.monotonic))
    await connection.start()
    return connection, transport


async def test_a_short_timeout_sent_after_a_long_one_still_fires_on_time() -> None:
    connection, transport = await _connection()
    slow = asyncio.create_task(connection.request(1, "ping", None, timeout=60.0, protocol_version=None))
    await asyncio.sleep(0)
    started = time.monotonic()
    with pytest.raises(RequestFailed) as failed:
        await connection.request(2, "ping", None, timeout=0.2, protocol_version=None)
    assert failed.value.kind == "timeout"
    assert 0.15 <= time.monotonic() - started < 5.0
    assert not slow.done()  # the long request is still waiting, and is answered normally
    transport.answer(1)
    assert await asyncio.wait_for(slow, 5.0) == {}


async def test_each_request_times_out_at_its_own_deadline() -> None:
    connection, _ = await _connection()
    started = time.monotonic()
    ended: dict[str, float] = {}

    async def timed(name: str, timeout: float) -> None:
        with pytest.raises(RequestFailed):
            await connection.request(1, "ping", None, timeout=timeout, protocol_version=None)
        ended[name] = time.monotonic() - started

    await asyncio.wait_for(asyncio.gather(timed("late", 0.6), timed("early", 0.2)), 5.0)
    assert 0.15 <= ended["early"] < ended["late"]
    assert ended["late"] >= 0.55


async def test_answered_requests_leave_nothing_for_the_watchdog_to_expire() -> None:
    connection, transport = await _connection()
    for request_id in range(1, 4):
        task = asyncio.create_task(connection.request(1, "ping", None, timeout=0.2, protocol_version=None))
        await asyncio.sleep(0)
        transport.answer(request_id)
        assert await asyncio.wait_for(task, 5.0) == {}
    await asyncio.sleep(0.3)  # the watchdog fires for a deadline whose request is gone: nothing happens
    assert connection._pending == {}


async def test_progress_resets_the_timeout_up_to_the_maximum(tmp_path: Path) -> None:
    """A server that keeps saying it is working (a progress notification every 0.2 s for 2.5 s) is given the time:
    a 1.5 s timeout counts again from each notification. A 2 s maximum ends it anyway, and says why.

    (The timeout is 7.5 notification intervals: a loaded machine may delay one, never by that much.)"""
    from session_support import live_session

    working = {"BAD_SERVER_PROGRESS_S": "2.5"}
    async with live_session(tmp_path / "a", "progress", timeout=1.5, env=working) as live, asyncio.timeout(60):
        done = await live.session.call_tool("echo", {})
    assert done.status == "complete", done.detail
    assert live.session.call(done.call_index).rounds[0].notifications.count >= 12
    async with (
        live_session(tmp_path / "b", "progress", timeout=1.5, max_timeout=2.0, env=working) as live,
        asyncio.timeout(60),
    ):
        capped = await live.session.call_tool("echo", {})
    assert capped.status == "failed" and "--max-timeout 2 s" in capped.detail, capped.detail
