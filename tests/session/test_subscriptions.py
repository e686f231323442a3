"""``subscriptions/listen`` against the official SDK's own subscription server: the acknowledgement compared with
what was asked (taskIds, which that server does not honour, is said), the events matched by subscription id on the
listen's call, and a listen the client ends (stdio: notifications/cancelled) told apart from a lost one."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from inspector.answers.build import build_answer_source
from inspector.session.session import InspectorSession
from inspector.transport.stdio import StdioTransport

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

SERVER = [sys.executable, str(Path(__file__).resolve().parents[1] / "fixtures" / "listen_server.py")]
ASKED = {"toolsListChanged": True, "resourceSubscriptions": ["demo://watched"], "taskIds": ["t-1"]}


async def test_a_listen_is_acknowledged_gets_its_events_and_ends_when_the_client_says() -> None:
    session = InspectorSession(StdioTransport(SERVER), build_answer_source(), timeout=20)
    stop = asyncio.Event()
    try:
        async with asyncio.timeout(60):
            await session.connect()
            listening = asyncio.ensure_future(session.listen(ASKED, stop))
            acked = asyncio.Event()
            events = asyncio.Event()

            def watch(_: object) -> None:
                listens = [c for c in session.timeline.calls if c.listen is not None]
                if listens and listens[0].listen and listens[0].listen.honoured is not None:
                    acked.set()
                if listens and listens[0].listen and listens[0].listen.events.count >= 2:
                    events.set()

            session.timeline.subscribe(watch)
            await acked.wait()
            await session.call_tool("change_tools", {})
            await session.call_tool("touch", {"uri": "demo://watched"})
            await events.wait()
            stop.set()
            outcome = await listening
    finally:
        await session.close()
    (call,) = [c for c in session.timeline.calls if c.listen is not None]
    span = call.listen
    assert span is not None and span.honoured is not None
    assert span.honoured.get("toolsListChanged") is True and "taskIds" not in span.honoured
    methods = [(e.message or {}).get("method") for e in span.events]
    assert methods == ["notifications/tools/list_changed", "notifications/resources/updated"]
    codes = [f.code for f in call.all_findings()]
    assert "listen-ack-differs" in codes and "taskIds" in next(f.message for f in call.all_findings())
    assert outcome.status == "complete" and span.end == "client-ended", "ending a listen is what the client asked"
    (cancel,) = [n for n in call.rounds[0].notifications if n.direction == "c2s"]
    assert cancel.message is not None and cancel.message["method"] == "notifications/cancelled"
    assert cancel.message["params"]["requestId"] == call.rounds[0].request_id, "stdio ends a listen by its id"


async def test_closing_the_session_ends_an_open_listen_as_the_client() -> None:
    """A person who quits with a subscription open ended it: the session ends it as the client before it closes the
    connection (closing under it read as "ended by the server", or as lost)."""
    session = InspectorSession(StdioTransport(SERVER), build_answer_source(), timeout=20)
    stop = asyncio.Event()
    async with asyncio.timeout(60):
        await session.connect()
        listening = asyncio.ensure_future(session.listen({"toolsListChanged": True}, stop))
        acked = asyncio.Event()

        def watch(_: object) -> None:
            if any(c.listen is not None and c.listen.honoured is not None for c in session.timeline.calls):
                acked.set()

        session.timeline.subscribe(watch)
        await acked.wait()
        await session.close()
        outcome = await listening
    (call,) = [c for c in session.timeline.calls if c.listen is not None]
    assert call.listen is not None and call.listen.end == "client-ended"
    assert outcome.status == "complete" and outcome.detail == "the client ended the subscription"
    assert not [f for f in call.all_findings() if f.code == "subscription-lost"]


async def test_a_call_and_a_listen_before_connect_end_failed_saying_to_connect() -> None:
    """A face that calls before connecting gets an ended call that says what to do, never an exception."""
    session = InspectorSession(StdioTransport(SERVER), build_answer_source(), timeout=20)
    try:
        async with asyncio.timeout(30):
            called = await session.call_tool("touch", {"uri": "demo://watched"})
            listened = await session.listen(ASKED, asyncio.Event())
    finally:
        await session.close()
    assert called.status == "failed" and called.detail == "the session is not connected (connect first)"
    assert listened.status == "failed" and "the session is not connected" in listened.detail
    assert [c.status for c in session.timeline.calls] == ["failed", "failed"]
