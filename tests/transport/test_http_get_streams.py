"""The legacy GET streams, branch by branch: the standalone stream's reconnections and the resumption of a cut POST
stream (SEP-1699), each against a scripted server on ``httpx.MockTransport``, so every answer and every cut is
exactly the one a test names (connection refused, 404, 405, an HTML page, a stream cut by a read error).
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from transport_support import Recorder

from inspector.transport.base import OutgoingMessage, Received, TransportFault
from inspector.transport.http import StreamableHttpTransport

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

URL = "http://mcp.test/mcp"
LEGACY = "2025-11-25"


def sse(*events: str, error: Exception | None = None, hang: bool = False) -> Callable[[httpx.Request], httpx.Response]:
    """An event stream of these events (SSE text each), then its end, a read error, or silence until cancelled."""

    def reply(request: httpx.Request) -> httpx.Response:
        async def body() -> AsyncIterator[bytes]:
            for event in events:
                yield event.encode()
            if error is not None:
                raise error
            if hang:
                await asyncio.Event().wait()

        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body())

    return reply


def status(code: int, body: str = "", content_type: str = "text/plain") -> Callable[[httpx.Request], httpx.Response]:
    return lambda request: httpx.Response(code, headers={"content-type": content_type}, text=body)


def refused(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection refused", request=request)


def initialized(request: httpx.Request) -> httpx.Response:
    body = {"jsonrpc": "2.0", "id": 0, "result": {"protocolVersion": LEGACY, "capabilities": {}, "serverInfo": {}}}
    return httpx.Response(200, json=body, headers={"mcp-session-id": "sess-1"})


PING = 'id: g-1\ndata: {"jsonrpc":"2.0","id":"srv-1","method":"ping"}\n\n'
PRIMING = "id: event-1\nretry: 1\ndata: \n\n"
ANSWER = 'id: event-3\ndata: {"jsonrpc":"2.0","id":5,"result":{"resumed":true}}\n\n'


class Script:
    """Answers each GET and POST with the next reply scripted for its method (the last one repeats)."""

    def __init__(self, get: list[Any], post: list[Any] | None = None) -> None:
        self.replies = {"GET": get, "POST": [initialized, *(post or [])], "DELETE": [status(200)]}
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        replies = self.replies[request.method]
        reply: Callable[[httpx.Request], httpx.Response] = replies.pop(0) if len(replies) > 1 else replies[0]
        return reply(request)

    def of(self, method: str) -> list[httpx.Request]:
        return [request for request in self.requests if request.method == method]


@pytest.fixture
def script(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Script]:
    """Route every ``httpx.AsyncClient`` made by the transport to a script."""

    def install(get: list[Any], post: list[Any] | None = None) -> Script:
        made = Script(get, post)
        real = httpx.AsyncClient

        def client(**kwargs: Any) -> httpx.AsyncClient:
            return real(transport=httpx.MockTransport(made), **kwargs)

        monkeypatch.setattr(httpx, "AsyncClient", client)
        return made

    return install


def message(request_id: int | None, method: str, version: str | None = LEGACY) -> OutgoingMessage:
    body: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": {}}
    if request_id is not None:
        body["id"] = request_id
    return OutgoingMessage(raw=json.dumps(body), method=method, request_id=request_id, protocol_version=version)


async def connected(recorder: Recorder, **kwargs: Any) -> StreamableHttpTransport:
    transport = StreamableHttpTransport(URL, default_retry_ms=1, **kwargs)
    await transport.start(recorder)
    await transport.send(message(0, "initialize", version=None))
    await recorder.wait_for(Received, lambda e: e.in_reply_to == 0)
    assert transport.session_id == "sess-1"
    return transport


def states_after_close(transport: StreamableHttpTransport) -> str:
    """The stream state, read where the type checker would hold on to an earlier reading of it."""
    return transport.server_stream_state


# -- the standalone GET stream ------------------------------------------------------------------------------


async def test_a_stream_that_closes_without_progress_is_lost_after_the_reconnections(
    script: Callable[..., Script], recorder: Recorder
) -> None:
    served = script([sse(PING), sse()])
    transport = await connected(recorder)
    await transport.open_server_stream()
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "server-stream-lost" and fault.request_id is None and not fault.fatal
    assert fault.message == "the GET stream is gone after 2 failed reconnections: the server closed the stream"
    assert fault.hint == "server-initiated messages (requests, list_changed) will not arrive; reconnect"
    assert fault.http is not None and fault.http.method == "GET" and fault.http.status is None
    assert transport.server_stream_state == "ended"
    gets = served.of("GET")
    assert len(gets) == 3  # the first, then one that made progress is forgiven, then two that made none
    assert [g.headers.get("last-event-id") for g in gets] == [None, "g-1", "g-1"]
    assert all(g.headers["mcp-session-id"] == "sess-1" for g in gets)
    assert all(g.headers["accept"] == "text/event-stream" for g in gets)
    assert all("content-type" not in g.headers for g in gets)
    (ping,) = [e for e in recorder.of(Received) if e.http is not None and e.http.method == "GET"]
    assert ping.in_reply_to is None
    await transport.close()


async def test_every_reconnection_that_makes_progress_resets_the_count(
    script: Callable[..., Script], recorder: Recorder
) -> None:
    no_id = 'data: {"jsonrpc":"2.0","method":"notifications/message","params":{}}\n\n'
    served = script([sse(PING), sse(no_id), sse(no_id), sse("id: g-2\n\n"), sse()])
    transport = await connected(recorder)
    await transport.open_server_stream()
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "server-stream-lost"
    # An event with no new id is progress; so is a new event id alone, with no event.
    assert [g.headers.get("last-event-id") for g in served.of("GET")] == [None, "g-1", "g-1", "g-1", "g-2", "g-2"]
    await transport.close()


async def test_a_stream_cut_by_an_error_counts_as_a_failure_even_after_events(
    script: Callable[..., Script], recorder: Recorder
) -> None:
    served = script([sse(PING, error=httpx.ReadError("peer reset"))])
    transport = await connected(recorder)
    await transport.open_server_stream()
    fault = await recorder.wait_for(TransportFault)
    assert fault.message == "the GET stream is gone after 2 failed reconnections: peer reset"
    assert len(served.of("GET")) == 2
    await transport.close()


async def test_the_state_is_reconnecting_until_a_stream_is_open_again(
    script: Callable[..., Script], recorder: Recorder
) -> None:
    states: list[str] = []

    def again(request: httpx.Request) -> httpx.Response:
        states.append(transport.server_stream_state)
        return sse(PING, hang=True)(request)

    served = script([sse(), again])
    transport = await connected(recorder)
    await transport.open_server_stream()
    await recorder.wait_for(Received, lambda e: '"ping"' in e.raw)
    assert states == ["reconnecting"]
    assert transport.server_stream_state == "open"
    assert len(served.of("GET")) == 2
    await transport.close()
    assert states_after_close(transport) == "ended"
    assert not recorder.of(TransportFault)


async def test_a_failed_first_connection_is_a_fault_with_no_retry(
    script: Callable[..., Script], recorder: Recorder
) -> None:
    served = script([refused])
    transport = await connected(recorder)
    await transport.open_server_stream()
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "connect" and fault.fatal and fault.request_id is None
    assert fault.message == "could not connect to mcp.test: connection refused"
    assert fault.http is not None and fault.http.method == "GET" and fault.http.status is None
    assert transport.server_stream_state == "not-opened"
    await asyncio.sleep(0.02)
    assert len(served.of("GET")) == 1
    await transport.close()


async def test_failed_reconnections_are_counted_and_named(script: Callable[..., Script], recorder: Recorder) -> None:
    served = script([sse(), refused])
    transport = await connected(recorder)
    await transport.open_server_stream()
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "server-stream-lost"
    assert fault.message == "the GET stream is gone after 2 failed reconnections: connection refused"
    assert len(served.of("GET")) == 2
    assert transport.server_stream_state == "ended"
    await transport.close()


async def test_a_404_on_the_get_stream_expires_the_session(script: Callable[..., Script], recorder: Recorder) -> None:
    script([status(404, "Session not found")])
    transport = await connected(recorder)
    await transport.open_server_stream()
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "session-expired" and fault.request_id is None
    assert fault.message == "HTTP 404: the server no longer knows session sess-1"
    assert fault.http is not None and fault.http.status == 404 and fault.http.body_excerpt is None
    assert transport.session_id is None and transport.session_expired
    assert transport.server_stream_state == "not-opened"
    await transport.close()


async def test_a_404_while_reconnecting_ends_the_stream(script: Callable[..., Script], recorder: Recorder) -> None:
    script([sse(), status(404, "Session not found")])
    transport = await connected(recorder)
    await transport.open_server_stream()
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "session-expired"
    assert transport.server_stream_state == "ended"
    assert transport.session_expired
    await transport.close()


async def test_a_get_answered_with_a_page_is_refused(script: Callable[..., Script], recorder: Recorder) -> None:
    script([status(200, "<html><body><h1>Welcome</h1></body></html>", "text/html")])
    transport = await connected(recorder)
    await transport.open_server_stream()
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "unexpected-content-type" and fault.request_id is None
    assert fault.message == "the GET stream answered HTTP 200 with Content-Type text/html, not an event stream"
    assert fault.hint == "the server does not offer a GET stream the standard way"
    assert fault.http is not None and fault.http.body_excerpt == "Welcome"
    assert transport.server_stream_state == "not-opened"
    await transport.close()


async def test_a_get_answered_with_an_error_status_is_that_status_fault(
    script: Callable[..., Script], recorder: Recorder
) -> None:
    script([status(500, "store down")])
    transport = await connected(recorder)
    await transport.open_server_stream()
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "http-500"
    assert fault.message == f"HTTP 500 Internal Server Error from GET {URL}: store down"
    assert fault.http is not None and fault.http.status == 500 and fault.http.body_excerpt == "store down"
    await transport.close()


async def test_a_stream_of_an_old_session_is_replaced(script: Callable[..., Script], recorder: Recorder) -> None:
    served = script([sse(PING, hang=True)], post=[initialized])
    transport = await connected(recorder)
    await transport.open_server_stream()
    await transport.open_server_stream()  # same session: the running stream stays
    assert len(served.of("GET")) == 1
    served.replies["POST"] = [
        lambda r: httpx.Response(200, json={"jsonrpc": "2.0", "id": 0, "result": {}}, headers={"mcp-session-id": "s2"})
    ]
    await transport.send(message(0, "initialize", version=None))
    await recorder.wait_for(Received, lambda e: e.in_reply_to == 0 and '"result":{}' in e.raw)
    assert transport.session_id == "s2"
    await transport.open_server_stream()
    gets = served.of("GET")
    assert [g.headers["mcp-session-id"] for g in gets] == ["sess-1", "s2"]
    assert gets[1].headers.get("last-event-id") is None
    await transport.close()


# -- resuming a cut POST stream with Last-Event-ID ----------------------------------------------------------


def call(version: str = LEGACY) -> OutgoingMessage:
    return message(5, "tools/call", version)


async def test_resumption_delivers_the_response_on_the_get(script: Callable[..., Script], recorder: Recorder) -> None:
    served = script([sse("id: event-2\ndata: \n\n", ANSWER, hang=True)], post=[sse(PRIMING)])
    transport = await connected(recorder)
    await transport.send(call())
    answer = await recorder.wait_for(Received, lambda e: e.in_reply_to == 5)
    assert answer.http is not None and answer.http.method == "GET"
    (get,) = served.of("GET")
    assert get.headers["last-event-id"] == "event-1"
    assert get.headers["mcp-protocol-version"] == LEGACY
    assert transport.server_stream_state == "not-opened"
    await transport.close()
    assert not recorder.of(TransportFault)


async def test_resumption_gives_up_after_failed_gets(script: Callable[..., Script], recorder: Recorder) -> None:
    served = script([status(500, "resumption store unavailable")], post=[sse(PRIMING)])
    transport = await connected(recorder)
    await transport.send(call())
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "stream-cut" and fault.request_id == 5
    assert fault.message == (
        "the event stream of request 5 was cut (the resuming GET got HTTP 500; resuming gave up after 2 tries) "
        "before its response arrived"
    )
    assert fault.hint == "the request was not retried; send it again (with a new id)"
    assert fault.http is not None and fault.http.method == "GET" and fault.http.status == 500
    assert fault.http.body_excerpt == "resumption store unavailable"
    assert len(served.of("GET")) == 2
    await transport.close()


async def test_resumption_refused_with_405_is_a_cut_at_once(script: Callable[..., Script], recorder: Recorder) -> None:
    served = script([status(405)], post=[sse(PRIMING)])
    transport = await connected(recorder)
    await transport.send(call())
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "stream-cut" and fault.request_id == 5
    assert fault.message == (
        "the event stream of request 5 was cut (the server cannot resume it: GET answered 405) "
        "before its response arrived"
    )
    assert fault.http is not None and fault.http.status == 405
    assert len(served.of("GET")) == 1
    assert transport.server_stream_state == "not-opened"
    await transport.close()


async def test_resumption_answered_404_expires_the_session(script: Callable[..., Script], recorder: Recorder) -> None:
    script([status(404, "Session not found")], post=[sse(PRIMING)])
    transport = await connected(recorder)
    await transport.send(call())
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "session-expired" and fault.request_id == 5
    assert fault.http is not None and fault.http.status == 404 and fault.http.method == "GET"
    assert transport.session_id is None and transport.session_expired
    await transport.close()


async def test_resumption_that_cannot_connect_names_the_error(
    script: Callable[..., Script], recorder: Recorder
) -> None:
    served = script([refused], post=[sse(PRIMING)])
    transport = await connected(recorder)
    await transport.send(call())
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "stream-cut" and fault.request_id == 5
    assert "(connection refused; resuming gave up after 2 tries)" in fault.message
    # No GET got an answer: the exchange shown is the POST that was cut.
    assert fault.http is not None and fault.http.method == "POST" and fault.http.status == 200
    assert len(served.of("GET")) == 2
    await transport.close()


async def test_resumed_streams_with_new_ids_go_on_and_without_give_up(
    script: Callable[..., Script], recorder: Recorder
) -> None:
    # Events without a new id are no progress for a resumption; a new id (even on a priming event) is.
    served = script(
        [sse("id: event-2\ndata: \n\n"), sse('data: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n'), sse()],
        post=[sse(PRIMING)],
    )
    transport = await connected(recorder)
    await transport.send(call())
    fault = await recorder.wait_for(TransportFault)
    assert "(the resumed stream ended again without the response; resuming gave up after 2 tries)" in fault.message
    assert fault.http is not None and fault.http.method == "GET" and fault.http.status == 200
    assert [g.headers["last-event-id"] for g in served.of("GET")] == ["event-1", "event-2", "event-2"]
    await transport.close()


async def test_a_resumed_stream_cut_by_an_error_names_it(script: Callable[..., Script], recorder: Recorder) -> None:
    script([sse(error=httpx.ReadError("peer reset"))], post=[sse(PRIMING)])
    transport = await connected(recorder)
    await transport.send(call())
    fault = await recorder.wait_for(TransportFault)
    assert "was cut (peer reset; resuming gave up after 2 tries)" in fault.message
    await transport.close()


async def test_a_modern_stream_is_not_resumed(script: Callable[..., Script], recorder: Recorder) -> None:
    served = script([status(500)], post=[sse(PRIMING)])
    transport = await connected(recorder)
    await transport.send(call("2026-07-28"))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "stream-cut"
    assert fault.message == "the event stream of request 5 was closed by the server before its response arrived"
    assert served.of("GET") == []
    await transport.close()
