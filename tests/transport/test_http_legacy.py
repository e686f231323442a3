"""Legacy-era HTTP (2025-11-25): Mcp-Session-Id, the GET stream, DELETE, SSE resumption (conformance `sse-retry`).

Also runs both eras against a server built on the official SDK, which validates our headers itself.
"""

from __future__ import annotations

import asyncio
import json
import select
import subprocess
import sys
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from transport_support import SDK_SERVER, Recorder, base_url

from inspector.protocol.headers import protocol_headers
from inspector.transport.base import Closed, HttpExchange, OutgoingMessage, Received, Sent, StreamNote, TransportFault
from inspector.transport.http import StreamableHttpTransport
from inspector.transport.http_channel import HttpChannel

pytestmark = pytest.mark.external  # (these tests open sockets and start processes: not in --fast-lane)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from transport_http_server import FixtureHttpServer

LEGACY = "2025-11-25"
MODERN = "2026-07-28"


def message(
    request_id: int | None, method: str, params: dict[str, Any] | None = None, version: str | None = LEGACY
) -> OutgoingMessage:
    body: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params or {}}
    if request_id is not None:
        body["id"] = request_id
    return OutgoingMessage(
        raw=json.dumps(body),
        method=method,
        request_id=request_id,
        protocol_version=version,
        headers=protocol_headers(method, params, version, None),
    )


INITIALIZE = message(
    0,
    "initialize",
    {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "inspector-tests", "version": "0"}},
    version=None,
)


async def initialized(
    server: FixtureHttpServer, path: str, recorder: Recorder, **kwargs: Any
) -> StreamableHttpTransport:
    transport = StreamableHttpTransport(base_url(server) + path, **kwargs)
    await transport.start(recorder)
    await transport.send(INITIALIZE)
    await recorder.wait_for(Received, lambda e: e.in_reply_to == 0)
    return transport


async def test_session_id_is_captured_and_echoed(http_server: FixtureHttpServer, recorder: Recorder) -> None:
    transport = await initialized(http_server, "/legacy", recorder)
    assert transport.session_id == "sess-1"
    await transport.send(message(None, "notifications/initialized"))
    await transport.send(message(1, "tools/list"))
    answer = await recorder.wait_for(Received, lambda e: e.in_reply_to == 1 and '"result"' in e.raw)
    notice = recorder.of(Received)[-2]
    assert '"notifications/message"' in notice.raw and notice.in_reply_to == answer.in_reply_to  # the same POST stream
    first, *later = http_server.state.of("POST", "/legacy")
    assert first.header("Mcp-Session-Id") is None and first.header("MCP-Protocol-Version") is None
    assert [r.header("Mcp-Session-Id") for r in later] == ["sess-1", "sess-1"]
    assert [r.header("MCP-Protocol-Version") for r in later] == [LEGACY, LEGACY]
    await transport.close()
    (delete,) = http_server.state.of("DELETE", "/legacy")
    assert delete.header("Mcp-Session-Id") == "sess-1"
    assert delete.header("MCP-Protocol-Version") == LEGACY
    (closed,) = recorder.of(Closed)
    assert "session sess-1 ended" in closed.reason
    assert transport.session_id is None


async def test_server_stream_delivers_server_requests(http_server: FixtureHttpServer, recorder: Recorder) -> None:
    transport = await initialized(http_server, "/legacy", recorder)
    await transport.open_server_stream()
    opened = transport.server_stream_state  # read into a name: mypy would keep the property narrowed to "open"
    assert opened == "open"
    ping = await recorder.wait_for(Received, lambda e: '"ping"' in e.raw)
    assert ping.in_reply_to is None
    assert ping.http is not None and ping.http.method == "GET"
    (get,) = http_server.state.of("GET", "/legacy")
    assert get.header("Accept") == "text/event-stream"
    assert get.header("Mcp-Session-Id") == "sess-1"
    assert get.header("Last-Event-ID") is None
    # Our answer to the server's ping is a POSTed response: 202, nothing comes back.
    answer = OutgoingMessage(raw='{"jsonrpc":"2.0","id":"srv-1","result":{}}', method=None, protocol_version=LEGACY)
    await transport.send(answer)
    await transport.close()
    assert http_server.state.gone("legacy-get").is_set() or await asyncio.to_thread(
        http_server.state.gone("legacy-get").wait, 5
    )
    assert not recorder.of(TransportFault)
    assert transport.server_stream_state == "ended"


async def test_expired_session_is_forgotten(http_server: FixtureHttpServer, recorder: Recorder) -> None:
    transport = await initialized(http_server, "/legacy", recorder)
    http_server.state.sessions.clear()
    await transport.send(message(2, "tools/list"))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "session-expired" and fault.request_id == 2 and not fault.fatal
    assert "sess-1" in fault.message and "re-initialize" in fault.hint
    assert transport.session_id is None
    await transport.send(message(3, "tools/list"))
    await recorder.wait_for(TransportFault, lambda e: e.request_id == 3)
    assert http_server.state.of("POST", "/legacy")[-1].header("Mcp-Session-Id") is None
    await transport.close()
    assert http_server.state.of("DELETE", "/legacy") == []


async def test_no_get_stream_and_no_delete_are_fine(http_server: FixtureHttpServer, recorder: Recorder) -> None:
    transport = await initialized(http_server, "/legacy-strict", recorder)
    await transport.open_server_stream()
    assert transport.server_stream_state == "unsupported"
    await transport.close()
    assert not recorder.of(TransportFault)
    (closed,) = recorder.of(Closed)
    assert "DELETE answered 405" in closed.reason


async def test_sse_retry_resumes_with_last_event_id_after_the_retry_delay(
    http_server: FixtureHttpServer, recorder: Recorder
) -> None:
    transport = await initialized(http_server, "/sse-retry", recorder)
    await transport.send(message(5, "tools/call", {"name": "test_reconnection", "arguments": {}}))
    answer = await recorder.wait_for(Received, lambda e: e.in_reply_to == 5, within=10)
    assert json.loads(answer.raw)["result"]["content"][0]["text"] == "resumed"
    assert answer.http is not None and answer.http.method == "GET"
    (get,) = http_server.state.of("GET", "/sse-retry")
    assert get.header("Last-Event-ID") == "event-1"
    assert get.header("Mcp-Session-Id") == "sess-1"
    assert get.header("MCP-Protocol-Version") == LEGACY
    # The conformance check: no reconnect before `retry` (300 ms) less its 50 ms tolerance.
    assert http_server.state.stream_closed_at is not None
    assert get.at - http_server.state.stream_closed_at >= 0.25
    assert not recorder.of(TransportFault)
    await transport.close()


async def test_failed_resumption_gives_up_and_reports_the_lost_request(
    http_server: FixtureHttpServer, recorder: Recorder
) -> None:
    http_server.state.retry_ms = 20
    transport = await initialized(http_server, "/resume-fails", recorder, max_reconnect_attempts=2)
    await transport.send(message(6, "tools/call", {"name": "x", "arguments": {}}))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "stream-cut" and fault.request_id == 6
    assert "gave up after 2" in fault.message
    assert len(http_server.state.of("GET", "/resume-fails")) == 2
    await transport.close()


# -- against the official SDK ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sdk_url() -> Iterator[str]:
    process = subprocess.Popen([sys.executable, SDK_SERVER], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 30)
        assert ready, "the SDK fixture server did not start"
        line = process.stdout.readline().decode()
        assert line.startswith("PORT "), line
        yield f"http://127.0.0.1:{int(line.split()[1])}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def modern(
    request_id: int, method: str, params: dict[str, Any], schema: dict[str, Any] | None = None
) -> OutgoingMessage:
    meta = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "inspector-tests", "version": "0"},
    }
    body = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**params, "_meta": meta}}
    return OutgoingMessage(
        raw=json.dumps(body, ensure_ascii=False),
        method=method,
        request_id=request_id,
        protocol_version=MODERN,
        headers=protocol_headers(method, params, MODERN, schema),
    )


async def test_sdk_server_accepts_our_modern_headers(sdk_url: str, recorder: Recorder) -> None:
    transport = StreamableHttpTransport(sdk_url)
    await transport.start(recorder)
    await transport.send(modern(1, "tools/list", {}))
    listing = json.loads((await recorder.wait_for(Received, lambda e: e.in_reply_to == 1, within=10)).raw)
    (tool,) = listing["result"]["tools"]
    schema = tool["inputSchema"]
    assert schema["properties"]["region"]["x-mcp-header"] == "Region"
    # A non-ASCII argument: the SDK decodes our base64 sentinel and compares it with the body.
    call = modern(2, "tools/call", {"name": "where", "arguments": {"region": "Zürich", "query": "q"}}, schema)
    assert call.headers["Mcp-Param-Region"].startswith("=?base64?")
    await transport.send(call)
    result = json.loads((await recorder.wait_for(Received, lambda e: e.in_reply_to == 2, within=10)).raw)
    assert result["result"]["content"][0]["text"] == "ran 'q' in Zürich"
    # A header that disagrees with the body: HTTP 400 with a JSON-RPC -32020 body, received as a message.
    bad = modern(3, "tools/call", {"name": "where", "arguments": {"region": "eu"}}, schema)
    bad = OutgoingMessage(
        bad.raw, bad.method, bad.request_id, bad.protocol_version, {**bad.headers, "Mcp-Param-Region": "us"}
    )
    await transport.send(bad)
    rejected = await recorder.wait_for(Received, lambda e: e.in_reply_to == 3, within=10)
    assert rejected.http is not None and rejected.http.status == 400
    assert json.loads(rejected.raw)["error"]["code"] == -32020
    assert transport.session_id is None
    await transport.close()
    assert not recorder.of(TransportFault)


async def test_sdk_server_legacy_session(sdk_url: str, recorder: Recorder) -> None:
    transport = StreamableHttpTransport(sdk_url)
    await transport.start(recorder)
    await transport.send(INITIALIZE)
    init = await recorder.wait_for(Received, lambda e: e.in_reply_to == 0, within=10)
    assert json.loads(init.raw)["result"]["protocolVersion"] == LEGACY
    assert transport.session_id
    await transport.send(message(None, "notifications/initialized"))
    await transport.send(message(1, "tools/list"))
    tools = await recorder.wait_for(Received, lambda e: e.in_reply_to == 1, within=10)
    assert json.loads(tools.raw)["result"]["tools"][0]["name"] == "where"
    await transport.open_server_stream()
    assert transport.server_stream_state == "open"
    session = transport.session_id
    await transport.close()
    (closed,) = recorder.of(Closed)
    assert f"session {session} ended" in closed.reason
    assert not recorder.of(TransportFault)
    assert len(recorder.of(Sent)) == 3


async def test_a_notification_that_crossed_the_request_finding_the_session_gone_is_noted_not_a_second_fault(
    recorder: Recorder,
) -> None:
    # (the race behind a flaky run: notifications/initialized was sent before the tools/call that found the session
    # gone, and answered 404 after it; the server's expiry is one event, said once)
    channel = HttpChannel("http://127.0.0.1:9/mcp", None, (), lambda: 0.0, httpx.Timeout(1.0))
    channel.open(recorder, httpx.URL(channel.url))
    channel.session_id = "sess-1"
    exchange = HttpExchange("POST", channel.url, {}, status=404)
    channel.expire_session("sess-1", 7, exchange)  # the request that found out
    channel.expire_session("sess-1", None, exchange)  # the notification sent before it, answered after
    (fault,) = recorder.of(TransportFault)
    assert (fault.kind, fault.request_id) == ("session-expired", 7) and channel.session_id is None
    (note,) = recorder.of(StreamNote)
    assert "session sess-1, already expired: a notification sent on it was lost" in note.text and note.http is exchange
    channel.expire_session("sess-1", 8, exchange)  # a request sent on it still fails, by its own fault
    assert [f.request_id for f in recorder.of(TransportFault)] == [7, 8]
    await channel.client.aclose()
