"""2025-11-25 resource subscriptions against server-everything (stdio), a server nobody here wrote: each
``resources/subscribe`` is a round of one call, the server's ``notifications/resources/updated`` land on that call
(never on the tool call that made the server start sending), and the client's end unsubscribes each URI."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from inspector.answers.build import build_answer_source
from inspector.session.session import InspectorSession
from inspector.transport.stdio import StdioTransport

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from http_interop_support import EVERYTHING, NODE, missing_peer

PACKAGE = "@modelcontextprotocol/server-everything"
pytestmark = [
    pytest.mark.external,
    pytest.mark.skipif(missing_peer(PACKAGE) is not None, reason=str(missing_peer(PACKAGE))),
]  # (external: these tests start processes)
UPDATED = "notifications/resources/updated"
WATCHED = "demo://resource/static/document/architecture.md"


async def test_a_legacy_subscription_gathers_the_updates_and_unsubscribes_at_the_end() -> None:
    session = InspectorSession(StdioTransport([str(NODE), str(EVERYTHING), "stdio"]), build_answer_source(), timeout=20)
    stop = asyncio.Event()
    try:
        async with asyncio.timeout(60):
            await session.connect()
            subscribed = asyncio.Event()
            updated = asyncio.Event()

            def watch(_: object) -> None:
                for call in session.timeline.calls:
                    if call.method != "resources/subscribe":
                        continue
                    if call.rounds and call.rounds[0].response is not None:
                        subscribed.set()
                    if any(
                        (n.message or {}).get("method") == "notifications/resources/updated"
                        for r in call.rounds
                        for n in r.notifications
                    ):
                        updated.set()

            session.timeline.subscribe(watch)
            subscribing = asyncio.ensure_future(session.subscribe([WATCHED], stop))
            await subscribed.wait()
            toggled = await session.call_tool("toggle-subscriber-updates", {})
            await updated.wait()
            stop.set()
            outcome = await subscribing
    finally:
        await session.close()
    assert toggled.status == "complete" and outcome.status == "complete"
    (call,) = [c for c in session.timeline.calls if c.method == "resources/subscribe"]
    assert [r.method for r in call.rounds] == ["resources/subscribe", "resources/unsubscribe"]
    assert call.listen is not None and call.listen.end == "client-ended", "the client ended it, not the server"
    assert [(r.request.message or {}).get("params") for r in call.rounds] == [{"uri": WATCHED}, {"uri": WATCHED}]
    updates = [
        (n.message or {}).get("params")
        for r in call.rounds
        for n in r.notifications
        if (n.message or {}).get("method") == UPDATED
    ]
    assert {"uri": WATCHED} in updates
    (tool,) = [c for c in session.timeline.calls if c.method == "tools/call"]
    assert not any(
        (n.message or {}).get("method") == "notifications/resources/updated"
        for r in tool.rounds
        for n in r.notifications
    ), "an update belongs to the subscription, not to the call that was running when it came"
