"""StreamableHttpTransport against a real HTTP server on 127.0.0.1 (tests/fixtures/transport_http_server.py)."""

from __future__ import annotations

import asyncio
import json
import socket
from typing import TYPE_CHECKING, Any

import pytest
from transport_support import FakeClock, Recorder, base_url

from inspector.protocol.headers import decode_header_value, protocol_headers
from inspector.transport.base import (
    Closed,
    OutgoingMessage,
    Received,
    Sent,
    TransportFault,
    TransportStartError,
)
from inspector.transport.http import StreamableHttpTransport

if TYPE_CHECKING:
    from collections.abc import Callable

    from transport_http_server import FixtureHttpServer

pytestmark = pytest.mark.external  # (these tests open sockets: not in --fast-lane)


MODERN = "2026-07-28"


def request(
    request_id: int | str = 1, method: str = "tools/list", params: dict[str, Any] | None = None
) -> OutgoingMessage:
    params = params if params is not None else {}
    body = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
    return OutgoingMessage(
        raw=json.dumps(body),
        method=method,
        request_id=request_id,
        protocol_version=MODERN,
        headers=protocol_headers(method, params, MODERN, None),
    )


def replying_to(request_id: int) -> Callable[[Received], bool]:
    return lambda event: event.in_reply_to == request_id


async def connect(server: FixtureHttpServer, path: str, recorder: Recorder, **kwargs: Any) -> StreamableHttpTransport:
    transport = StreamableHttpTransport(base_url(server) + path, **kwargs)
    await transport.start(recorder)
    return transport


async def test_headers_reach_the_server_and_secrets_are_redacted(
    http_server: FixtureHttpServer, recorder: Recorder
) -> None:
    schema = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}
    params = {"name": "météo", "arguments": {"region": " eu-west "}}
    message = OutgoingMessage(
        raw=json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params}),
        method="tools/call",
        request_id=7,
        protocol_version=MODERN,
        headers=protocol_headers("tools/call", params, MODERN, schema),
    )
    transport = await connect(
        http_server,
        "/json",
        recorder,
        headers={"Authorization": "Bearer s3cret", "X-Api-Key": "k-123", "X-Trace": "visible"},
        secret_headers={"x-api-key"},
        clock=FakeClock(),
    )
    await transport.send(message)
    received = await recorder.wait_for(Received)
    (seen,) = http_server.state.of("POST", "/json")
    assert seen.header("Accept") == "application/json, text/event-stream"
    assert seen.header("Content-Type") == "application/json"
    assert seen.header("Mcp-Method") == "tools/call"
    assert seen.header("Mcp-Name") == "=?base64?bcOpdMOpbw==?="
    assert decode_header_value(seen.header("Mcp-Name") or "") == "météo"
    assert decode_header_value(seen.header("Mcp-Param-Region") or "") == " eu-west "
    assert seen.header("MCP-Protocol-Version") == MODERN
    assert seen.header("Authorization") == "Bearer s3cret"
    assert seen.header("X-Api-Key") == "k-123"
    assert seen.header("Mcp-Session-Id") is None
    assert seen.body.decode() == message.raw

    (sent,) = recorder.of(Sent)
    assert sent.raw == message.raw and sent.request_id == 7
    assert sent.http is not None and sent.http.method == "POST"
    shown = {k.lower(): v for k, v in sent.http.request_headers.items()}
    assert shown["authorization"] == "[redacted]"
    assert shown["x-api-key"] == "[redacted]"
    assert shown["x-trace"] == "visible"
    assert shown["mcp-method"] == "tools/call"
    assert recorder.events.index(sent) < recorder.events.index(received)

    assert received.in_reply_to == 7
    assert json.loads(received.raw)["result"] == {"echo": "tools/call"}
    assert received.http is not None
    assert received.http.status == 200
    assert received.http.content_type == "application/json; charset=utf-8"
    assert received.http.elapsed_ms is not None and received.http.elapsed_ms > 0
    assert received.http.request_headers["Authorization"] == "[redacted]"
    assert transport.describe() == base_url(http_server) + "/json"
    await transport.close()
    (closed,) = recorder.of(Closed)
    assert "closed" in closed.reason


async def test_a_notification_answered_202_yields_nothing(http_server: FixtureHttpServer, recorder: Recorder) -> None:
    transport = await connect(http_server, "/json", recorder)
    note = OutgoingMessage(raw='{"jsonrpc":"2.0","method":"notifications/x"}', method="notifications/x")
    await transport.send(note)
    await transport.close()
    assert [type(e) for e in recorder.events] == [Sent, Closed]


async def test_sse_messages_arrive_in_order_and_comments_are_ignored(
    http_server: FixtureHttpServer, recorder: Recorder
) -> None:
    transport = await connect(http_server, "/sse", recorder)
    await transport.send(request(3))
    await recorder.wait_for(Received, lambda e: '"result"' in e.raw)
    progress, answer = recorder.of(Received)
    assert progress.raw == '{"jsonrpc":"2.0",\n"method":"notifications/progress","params":{}}'
    assert json.loads(progress.raw)["method"] == "notifications/progress"
    assert json.loads(answer.raw) == {"jsonrpc": "2.0", "id": 3, "result": {"ok": True}}
    assert progress.in_reply_to == answer.in_reply_to == 3
    assert answer.http is not None and answer.http.content_type == "text/event-stream"
    assert answer.http.response_headers["X-Accel-Buffering"] == "no"
    assert not recorder.of(TransportFault)
    await transport.close()


async def test_reading_stops_at_the_response_even_if_the_stream_stays_open(
    http_server: FixtureHttpServer, recorder: Recorder
) -> None:
    transport = await connect(http_server, "/sse-no-end", recorder)
    await transport.send(request(4))
    await recorder.wait_for(Received)
    await asyncio.to_thread(http_server.state.gone("sse-no-end").wait, 5)
    assert http_server.state.gone("sse-no-end").is_set()
    assert await transport.cancel(4) is False
    await transport.close()


async def test_stream_cut_mid_event_is_a_fault_naming_the_lost_request(
    http_server: FixtureHttpServer, recorder: Recorder
) -> None:
    transport = await connect(http_server, "/sse-cut", recorder)
    await transport.send(request(5))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "stream-cut" and fault.request_id == 5 and not fault.fatal
    assert '{"jsonrpc":"2.0","id":' in fault.message
    assert "not retried" in fault.hint
    assert len(recorder.of(Received)) == 1  # the progress notification before the cut
    await transport.close()


@pytest.mark.parametrize("path", ["/sse-closed-early", "/sse-modern-id"])
async def test_modern_stream_closed_before_the_response_is_lost_not_resumed(
    http_server: FixtureHttpServer, recorder: Recorder, path: str
) -> None:
    transport = await connect(http_server, path, recorder, default_retry_ms=10)
    await transport.send(request(6))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "stream-cut" and fault.request_id == 6
    assert "closed by the server" in fault.message
    assert http_server.state.of("GET", path) == []
    await transport.close()


async def test_non_message_sse_events_are_reported_and_skipped(
    http_server: FixtureHttpServer, recorder: Recorder
) -> None:
    transport = await connect(http_server, "/sse-odd-event", recorder)
    await transport.send(request(8))
    await recorder.wait_for(Received)
    (fault,) = recorder.of(TransportFault)
    assert fault.kind == "sse-event-ignored" and "endpoint" in fault.message
    assert fault.request_id is None and "request 8" in fault.message  # the request goes on: not ended
    await transport.close()


async def test_jsonrpc_error_bodies_are_received_at_any_status(
    http_server: FixtureHttpServer, recorder: Recorder
) -> None:
    transport = await connect(http_server, "/jsonrpc400", recorder)
    await transport.send(request(9))
    received = await recorder.wait_for(Received)
    assert json.loads(received.raw)["error"]["code"] == -32020
    assert received.in_reply_to == 9 and received.http is not None and received.http.status == 400
    await transport.close()
    transport = await connect(http_server, "/jsonrpc404", recorder)
    await transport.send(request(10))
    received = await recorder.wait_for(Received, lambda e: e.in_reply_to == 10)
    assert received.http is not None and received.http.status == 404
    assert not recorder.of(TransportFault)
    await transport.close()


async def test_garbage_json_body_is_still_received(http_server: FixtureHttpServer, recorder: Recorder) -> None:
    transport = await connect(http_server, "/garbage-json", recorder)
    await transport.send(request(11))
    assert (await recorder.wait_for(Received)).raw == "{not json at all"
    await transport.close()


async def test_html_500_page_is_a_fault_with_a_readable_excerpt(
    http_server: FixtureHttpServer, recorder: Recorder
) -> None:
    transport = await connect(http_server, "/html500", recorder)
    await transport.send(request(12))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "http-500" and fault.request_id == 12 and not fault.fatal
    assert "HTTP 500 Internal Server Error" in fault.message
    assert "Traceback: KeyError 'x'" in fault.message
    assert "<h1>" not in fault.message and "color:red" not in fault.message
    assert "logs" in fault.hint
    assert fault.http is not None and fault.http.status == 500
    assert fault.http.body_excerpt is not None and "Internal Server Error" in fault.http.body_excerpt
    await transport.close()


async def test_401_points_at_the_declared_resource_metadata(http_server: FixtureHttpServer, recorder: Recorder) -> None:
    transport = await connect(http_server, "/auth", recorder)
    await transport.send(request(13))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "http-401" and fault.request_id == 13
    assert "--bearer TOKEN" in fault.hint
    assert f"{base_url(http_server)}/.well-known/oauth-protected-resource/auth" in fault.hint
    assert "files:read" in fault.hint
    assert fault.http is not None and "WWW-Authenticate" in fault.http.response_headers
    await transport.close()


async def test_401_without_metadata_lists_the_well_known_urls(
    http_server: FixtureHttpServer, recorder: Recorder
) -> None:
    transport = await connect(http_server, "/auth-plain/mcp", recorder, headers={"Authorization": "Bearer old"})
    await transport.send(request(14))
    fault = await recorder.wait_for(TransportFault)
    root = f"{base_url(http_server)}/.well-known/oauth-protected-resource"
    assert f"{root}/auth-plain/mcp, then {root}" in fault.hint
    assert "refused" in fault.hint
    await transport.close()


@pytest.mark.parametrize(
    ("path", "kind", "words"),
    [
        ("/forbidden", "http-403", "files:write"),
        ("/forbidden-origin", "http-403", "Origin"),
        ("/notfound", "http-404", "/mcp"),
        ("/method-not-allowed", "http-405", "path"),
        ("/empty200", "empty-response", "no body"),
        ("/htmlpage", "unexpected-content-type", "web page"),
        ("/redirect", "http-307", "/json"),
    ],
)
async def test_http_errors_without_jsonrpc_bodies(
    http_server: FixtureHttpServer, recorder: Recorder, path: str, kind: str, words: str
) -> None:
    transport = await connect(http_server, path, recorder)
    await transport.send(request(15))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == kind and fault.request_id == 15 and not fault.fatal
    assert words in fault.message + fault.hint
    assert not recorder.of(Received)
    await transport.close()


async def test_connection_refused_is_fatal_with_a_hint(recorder: Recorder) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    transport = StreamableHttpTransport(f"http://127.0.0.1:{port}/mcp")
    await transport.start(recorder)
    await transport.send(request(16))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "connect" and fault.fatal and fault.request_id == 16
    assert "is the server running?" in fault.hint
    assert not recorder.of(Sent)
    await transport.close()


async def test_tls_to_a_plain_http_port_is_a_tls_fault(http_server: FixtureHttpServer, recorder: Recorder) -> None:
    transport = StreamableHttpTransport(base_url(http_server).replace("http://", "https://") + "/json")
    await transport.start(recorder)
    await transport.send(request(17))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "tls" and fault.fatal and fault.request_id == 17
    assert "https://" in fault.hint
    await transport.close()


async def test_read_timeout_is_a_fault(http_server: FixtureHttpServer, recorder: Recorder) -> None:
    transport = await connect(http_server, "/hang", recorder, read_timeout=0.2)
    await transport.send(request(18))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "timeout" and fault.request_id == 18 and not fault.fatal
    assert len(recorder.of(Sent)) == 1
    await transport.close()


async def test_cancel_closes_the_request_stream(http_server: FixtureHttpServer, recorder: Recorder) -> None:
    transport = await connect(http_server, "/sse-hang", recorder)
    await transport.send(request("call-1"))
    await recorder.wait_for(Received)
    assert await transport.cancel("call-1") is True
    assert await transport.cancel("call-1") is False
    assert await transport.cancel("never-sent") is False
    await asyncio.to_thread(http_server.state.gone("sse-hang").wait, 5)
    assert http_server.state.gone("sse-hang").is_set()
    assert not recorder.of(TransportFault)
    await transport.close()


async def test_cancel_a_pending_json_answer(http_server: FixtureHttpServer, recorder: Recorder) -> None:
    transport = await connect(http_server, "/hang", recorder)
    await transport.send(request(19))
    assert await transport.cancel(19) is True
    await transport.close()
    assert [type(e) for e in recorder.events] == [Sent, Closed]


async def test_concurrent_requests_each_get_their_answer(http_server: FixtureHttpServer, recorder: Recorder) -> None:
    transport = await connect(http_server, "/json", recorder)
    await asyncio.gather(*(transport.send(request(n)) for n in range(20, 30)))
    for n in range(20, 30):
        received = await recorder.wait_for(Received, replying_to(n))
        assert json.loads(received.raw)["id"] == n
    await transport.close()


async def test_send_after_close_is_a_fault_and_close_is_idempotent(
    http_server: FixtureHttpServer, recorder: Recorder
) -> None:
    transport = await connect(http_server, "/json", recorder)
    await transport.close()
    await transport.close()
    await transport.send(request(31))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "closed" and fault.fatal
    assert len(recorder.of(Closed)) == 1


@pytest.mark.parametrize("url", ["ftp://example.com/mcp", "not a url", "http://"])
async def test_bad_urls_fail_to_start(url: str) -> None:
    with pytest.raises(TransportStartError):
        await StreamableHttpTransport(url).start(lambda event: None)
