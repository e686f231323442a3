"""Streamable HTTP transport on httpx: one POST per message, answers as JSON or SSE, legacy sessions.

Each POST runs in its own task, so ``send`` returns as soon as the request body is written and any number of
requests can be in flight; ``cancel`` closes one request's stream (the 2026-07-28 way to cancel). ``Sent`` is
emitted from inside that task when httpx reports the body written, so it always precedes the answer's events.
What every exchange shares (client, headers, session id, events, SSE reading) is the ``HttpChannel`` of
:mod:`.http_channel`; the legacy duties (the GET stream, ``Last-Event-ID`` resumption, DELETE on close) are the
``LegacyStreams`` of :mod:`.http_streams`, which works on the same channel.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

import httpx

from inspector.protocol.envelope import is_modern
from inspector.transport.base import (
    Closed,
    EventSink,
    HttpExchange,
    OutgoingMessage,
    Received,
    RequestKey,
    Sent,
    TransportKind,
    TransportStartError,
)
from inspector.transport.http_channel import HttpChannel
from inspector.transport.http_faults import (
    FaultText,
    exception_fault,
    excerpt,
    looks_like_jsonrpc,
    media_type,
    status_fault,
)
from inspector.transport.http_streams import LegacyStreams
from inspector.transport.shutdown import SharedShutdown
from inspector.transport.sse import SseParser

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping

    from inspector.transport.http_channel import ExchangeFactory
    from inspector.transport.http_streams import ServerStreamState
    from inspector.transport.oauth.config import AuthConfig

ACCEPT = "application/json, text/event-stream"


class StreamableHttpTransport:
    """A server at an HTTP(S) URL.

    ``headers`` go on every request (e.g. ``Authorization``); they are shown redacted when their name is
    ``Authorization``, ``Cookie``, ``Proxy-Authorization`` or listed in ``secret_headers``. ``timeout`` bounds
    connecting and writing; ``read_timeout`` (default none) bounds each read, so quiet SSE streams survive.
    """

    kind: TransportKind = "http"

    def __init__(
        self,
        url: str,
        headers: Mapping[str, str] | None = None,
        secret_headers: Collection[str] = (),
        clock: Callable[[], float] = time.monotonic,
        timeout: float | None = 30.0,
        *,
        read_timeout: float | None = None,
        default_retry_ms: int = 1000,
        max_reconnect_attempts: int = 2,
        auth: AuthConfig | None = None,
    ) -> None:
        self.url = url
        # Reading has no timeout by default: SSE streams (subscriptions, slow tools) may stay quiet for a long time;
        # the session owns per-request deadlines and cancels.
        self._channel = HttpChannel(url, headers, secret_headers, clock, httpx.Timeout(timeout, read=read_timeout))
        self._streams = LegacyStreams(self._channel, default_retry_ms, max_reconnect_attempts)
        if auth is not None:
            # A login is possible: requests carry its token, and a challenge runs the login (transport/oauth).
            from inspector.transport.oauth.driver import OAuthDriver

            self._channel.auth = OAuthDriver(auth, url, self._channel)
        self._inflight: dict[RequestKey, asyncio.Task[None]] = {}
        self._closing = SharedShutdown(self._shutdown, lambda: self._channel.opened)

    @property
    def session_id(self) -> str | None:
        """The legacy ``Mcp-Session-Id`` the server gave us, echoed on every request until it expires."""
        return self._channel.session_id

    @property
    def session_expired(self) -> bool:
        """True once the server answered 404 to our legacy session id, until a new session id arrives."""
        return self._channel.session_expired

    @property
    def server_stream_state(self) -> ServerStreamState:
        """The legacy GET stream. ``unsupported``: the server answered 405, it offers none (normal, not a fault)."""
        return self._streams.state

    def describe(self) -> str:
        """The URL."""
        return self.url

    async def start(self, sink: EventSink) -> None:
        """Make the HTTP client; nothing is sent yet. A URL that is not http(s) raises ``TransportStartError``."""
        try:
            parsed = httpx.URL(self.url)
        except httpx.InvalidURL as exc:
            raise TransportStartError(
                f"not a valid URL: {self.url} ({exc})", "give a URL like http://127.0.0.1:8000/mcp"
            ) from exc
        if parsed.scheme not in ("http", "https") or not parsed.host:
            raise TransportStartError(
                f"not an http(s) URL: {self.url}", "give a URL like http://127.0.0.1:8000/mcp, or a command for stdio"
            )
        self._channel.open(sink, parsed)

    async def send(self, message: OutgoingMessage) -> None:
        """POST one message; return once its body is written (or the attempt failed). Answers arrive as events."""
        channel = self._channel
        if not channel.opened or self._closing.started:
            closed = FaultText("closed", "the transport is closed; nothing was sent", "reconnect to the server", True)
            channel.fault(closed, message.request_id)
            return
        if message.protocol_version is not None:
            channel.protocol_version = message.protocol_version
        # A bare future (settled by the POST task, or when that task ends in any way) is the cheapest wait there is:
        # this runs once per message, on the hot path.
        written: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        task = channel.spawn(self._post(message, written))
        task.add_done_callback(lambda _: _settle(written))
        key = message.request_id
        if key is not None:
            self._inflight[key] = task
            task.add_done_callback(lambda done: self._forget(key, done))
        await written

    async def open_server_stream(self) -> None:
        """Open the standalone GET stream; return once the server answered it (405: it offers none, no fault).

        A stream still running (or reconnecting) for an earlier session is replaced: its event ids and its session
        died with that session.
        """
        if self._channel.opened and not self._closing.started:
            await self._streams.open_server_stream()

    async def cancel(self, request_id: RequestKey) -> bool:
        """Close that request's POST (its SSE stream or pending JSON answer). False when none is in flight."""
        task = self._inflight.get(request_id)
        if task is None or task.done():
            return False
        task.cancel()
        await asyncio.wait({task})
        return True

    async def close(self) -> None:
        """Cancel every exchange, DELETE the legacy session (405 is fine), close the client. Idempotent."""
        await self._closing.run()

    async def _shutdown(self) -> None:
        channel = self._channel
        await channel.cancel_all()
        outcome = await self._streams.delete_session() if channel.session_id is not None else ""
        await channel.client.aclose()
        channel.emit(Closed(reason="closed by the client" + outcome, at=channel.clock()))

    def _forget(self, key: RequestKey, task: asyncio.Task[None]) -> None:
        if self._inflight.get(key) is task:
            del self._inflight[key]

    async def _post(self, message: OutgoingMessage, written: asyncio.Future[None]) -> None:
        channel = self._channel
        start = channel.clock()
        sent_session = channel.session_id
        exchange = HttpExchange("POST", self.url, {})
        sent = False
        refused: FaultText | None = None

        def emit_sent() -> None:
            nonlocal sent
            if not sent:
                sent = True
                channel.emit(
                    Sent(
                        raw=message.raw,
                        at=channel.clock(),
                        request_id=message.request_id,
                        http=exchange,
                        owner=message.owner,
                    )
                )
            _settle(written)

        async def trace(name: str, info: dict[str, Any]) -> None:
            if name == "http11.send_request_body.complete":
                emit_sent()

        try:
            client = channel.client
            headers = channel.request_headers(message.headers, message.protocol_version, accept=ACCEPT)
            request = client.build_request(
                "POST",
                channel.target or self.url,
                content=message.raw.encode("utf-8"),
                headers=headers,
                extensions={"trace": trace},
            )
            exchange = HttpExchange("POST", self.url, channel.redact(request.headers))
            if channel.auth is None:
                response: httpx.Response | None = await client.send(request, stream=True)
            else:
                response, refused = await channel.auth.send(request, message.request_id)
        except httpx.HTTPError as exc:
            channel.fault(exception_fault(exc, self.url, response_started=False), message.request_id, exchange)
            return
        finally:
            _settle(written)
        if response is None:  # a login failed before the request could go out
            assert refused is not None
            channel.fault(refused, message.request_id, exchange)
            return
        try:
            emit_sent()
            if refused is not None:
                body = await channel.read_body(response, whole=False)
                channel.fault(refused, message.request_id, channel.exchange_factory(exchange, response, start)(body))
                return
            channel.note_session(response)
            if sent_session is None and response.is_success:
                channel.session_expired = False  # it took a request with no session id: there is nothing to renew
            await self._answer(message, response, channel.exchange_factory(exchange, response, start), sent_session)
        finally:
            await response.aclose()

    async def _answer(
        self, message: OutgoingMessage, response: httpx.Response, make: ExchangeFactory, sent_session: str | None
    ) -> None:
        channel = self._channel
        status = response.status_code
        kind = media_type(response.headers.get("content-type"))
        request_id = message.request_id
        if 200 <= status < 300 and kind == "text/event-stream":
            await self._post_stream(message, response, make)
            return
        try:
            body = await channel.read_body(response, whole=200 <= status < 300)
        except httpx.HTTPError as exc:
            channel.fault(exception_fault(exc, self.url, response_started=True), request_id, make())
            return
        text = body.text

        def received() -> Received:
            return Received(
                raw=text, at=channel.clock(), in_reply_to=request_id, http=make(), undecodable=body.undecodable
            )

        if 200 <= status < 300:
            if not text.strip():
                if request_id is not None:
                    channel.fault(_empty_answer(status, request_id), request_id, make(body))
            elif kind == "application/json" or looks_like_jsonrpc(text):  # parsed only when the type does not say
                channel.emit(received())
            else:
                channel.fault(_not_jsonrpc(status, kind, text), request_id, make(body))
            return
        jsonrpc = not body.truncated and looks_like_jsonrpc(text)
        if status == 404 and sent_session is not None:
            # The fault goes first: the official SDK's 404 body is a JSON-RPC error with a null id, which would
            # otherwise end the request as that error and hide the expiry the session re-initializes on.
            channel.expire_session(sent_session, request_id, make(body))
            if jsonrpc:
                channel.emit(received())
            return
        if jsonrpc and status != 401:
            channel.emit(received())
            return
        fault = status_fault(
            status,
            method="POST",
            url=self.url,
            headers=response.headers,
            body_excerpt=excerpt(text),
            sent_authorization=channel.sent_authorization,
        )
        channel.fault(fault, request_id, make(body))

    async def _post_stream(self, message: OutgoingMessage, response: httpx.Response, make: ExchangeFactory) -> None:
        parser = SseParser()
        answered, error, _ = await self._channel.consume_sse(response, parser, message.request_id, make)
        if answered or message.request_id is None:
            return
        legacy = message.protocol_version is None or not is_modern(message.protocol_version)
        if legacy and parser.last_event_id is not None:
            await response.aclose()
            await self._streams.resume(message, parser.last_event_id, parser.retry_ms, make())
            return
        self._channel.stream_cut(message.request_id, make(), error, parser.pending)


def _settle(written: asyncio.Future[None]) -> None:
    if not written.done():
        written.set_result(None)


def _empty_answer(status: int, request_id: RequestKey) -> FaultText:
    return FaultText(
        "empty-response",
        f"HTTP {status} with no body for request {request_id!r}: no answer will come",
        "a Streamable HTTP server answers a request with JSON or an event stream; check the server and the URL",
    )


def _not_jsonrpc(status: int, kind: str, text: str) -> FaultText:
    return FaultText(
        "unexpected-content-type",
        f"HTTP {status} with Content-Type {kind or '(none)'}, neither JSON nor an event stream: {excerpt(text)}",
        "the URL may point at a web page rather than the MCP endpoint",
    )
