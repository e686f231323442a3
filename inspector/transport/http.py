"""Streamable HTTP transport on httpx: one POST per message, answers as JSON or SSE, legacy sessions.

Each POST runs in its own task, so ``send`` returns as soon as the request body is written and any number of
requests can be in flight; ``cancel`` closes one request's stream (the 2026-07-28 way to cancel). ``Sent`` is
emitted from inside that task when httpx reports the body written, so it always precedes the answer's events.
Legacy duties (the GET stream, ``Last-Event-ID`` resumption, DELETE on close) are in :mod:`.http_streams`.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
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
from inspector.transport.http_faults import (
    FaultText,
    exception_fault,
    excerpt,
    looks_like_jsonrpc,
    media_type,
    status_fault,
)
from inspector.transport.http_streams import LegacyStreams
from inspector.transport.sse import SseParser

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping

    from inspector.transport.http_core import ExchangeFactory

ACCEPT = "application/json, text/event-stream"


def _absent_sniffio_fails_fast() -> None:
    """httpcore 1.x runs ``import sniffio`` four times per request; sniffio is optional (anyio 4 does not need it)
    and, when it is not installed, every attempt searches the whole ``sys.path`` again: a fifth of a round trip's
    CPU. ``None`` in ``sys.modules`` gives the very same ImportError at once."""
    if "sniffio" not in sys.modules and importlib.util.find_spec("sniffio") is None:
        sys.modules["sniffio"] = None  # type: ignore[assignment]


_absent_sniffio_fails_fast()


class StreamableHttpTransport(LegacyStreams):
    """A server at an HTTP(S) URL.

    ``headers`` go on every request (e.g. ``Authorization``); they are shown redacted when their name is
    ``Authorization``, ``Cookie``, ``Proxy-Authorization`` or listed in ``secret_headers``. ``timeout`` bounds
    connecting and writing; ``read_timeout`` (default none) bounds each read, so quiet SSE streams survive.
    """

    kind: TransportKind = "http"
    reply_poll_s: float = 0.0
    """No polling: an HTTP reply takes milliseconds, and polling would only burn CPU."""

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
    ) -> None:
        super().__init__(
            url, headers, secret_headers, clock, timeout, read_timeout, default_retry_ms, max_reconnect_attempts
        )
        self._inflight: dict[RequestKey, asyncio.Task[None]] = {}
        self._target: httpx.URL | None = None
        """The URL parsed once (``start``), so a POST does not parse it again."""

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
        self._sink = sink
        self._target = parsed
        self._client = httpx.AsyncClient(timeout=self._timeout, follow_redirects=False)

    async def send(self, message: OutgoingMessage) -> None:
        """POST one message; return once its body is written (or the attempt failed). Answers arrive as events."""
        if self._client is None or self._closing is not None:
            closed = FaultText("closed", "the transport is closed; nothing was sent", "reconnect to the server", True)
            self._fault(closed, message.request_id)
            return
        if message.protocol_version is not None:
            self._protocol_version = message.protocol_version
        # A bare future (settled by the POST task, or when that task ends in any way) is the cheapest wait there is:
        # this runs once per message, on the hot path.
        written: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        task = self._spawn(self._post(message, written))
        task.add_done_callback(lambda _: _settle(written))
        key = message.request_id
        if key is not None:
            self._inflight[key] = task
            task.add_done_callback(lambda done: self._forget(key, done))
        await written

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
        if self._client is None:
            return
        if self._closing is None:
            self._closing = asyncio.create_task(self._shutdown())
        await asyncio.shield(self._closing)

    async def _shutdown(self) -> None:
        assert self._client is not None
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        outcome = await self._delete_session() if self._session_id is not None else ""
        await self._client.aclose()
        self._emit(Closed(reason="closed by the client" + outcome, at=self._clock()))

    def _forget(self, key: RequestKey, task: asyncio.Task[None]) -> None:
        if self._inflight.get(key) is task:
            del self._inflight[key]

    async def _post(self, message: OutgoingMessage, written: asyncio.Future[None]) -> None:
        assert self._client is not None
        start = self._clock()
        sent_session = self._session_id
        exchange = HttpExchange("POST", self.url, {})
        sent = False

        def emit_sent() -> None:
            nonlocal sent
            if not sent:
                sent = True
                self._emit(Sent(raw=message.raw, at=self._clock(), request_id=message.request_id, http=exchange))
            _settle(written)

        async def trace(name: str, info: dict[str, Any]) -> None:
            if name == "http11.send_request_body.complete":
                emit_sent()

        try:
            headers = self._request_headers(message.headers, message.protocol_version, accept=ACCEPT)
            request = self._client.build_request(
                "POST",
                self._target or self.url,
                content=message.raw.encode("utf-8"),
                headers=headers,
                extensions={"trace": trace},
            )
            exchange = HttpExchange("POST", self.url, self._redact(request.headers))
            response = await self._client.send(request, stream=True)
        except httpx.HTTPError as exc:
            self._fault(exception_fault(exc, self.url, response_started=False), message.request_id, exchange)
            return
        finally:
            _settle(written)
        try:
            emit_sent()
            self._note_session(response)
            if sent_session is None and response.is_success:
                self.session_expired = False  # it took a request with no session id: there is nothing to renew
            await self._answer(message, response, self._exchange_factory(exchange, response, start), sent_session)
        finally:
            await response.aclose()

    async def _answer(
        self, message: OutgoingMessage, response: httpx.Response, make: ExchangeFactory, sent_session: str | None
    ) -> None:
        status = response.status_code
        kind = media_type(response.headers.get("content-type"))
        request_id = message.request_id
        if 200 <= status < 300 and kind == "text/event-stream":
            await self._post_stream(message, response, make)
            return
        try:
            text = (await response.aread()).decode("utf-8", errors="replace")
        except httpx.HTTPError as exc:
            self._fault(exception_fault(exc, self.url, response_started=True), request_id, make())
            return
        if 200 <= status < 300:
            if not text.strip():
                if request_id is not None:
                    self._fault(_empty_answer(status, request_id), request_id, make())
            elif kind == "application/json" or looks_like_jsonrpc(text):  # parsed only when the type does not say
                self._emit(Received(raw=text, at=self._clock(), in_reply_to=request_id, http=make()))
            else:
                self._fault(_not_jsonrpc(status, kind, text), request_id, make(excerpt(text)))
            return
        jsonrpc = looks_like_jsonrpc(text)
        if status == 404 and sent_session is not None:
            # The fault goes first: the official SDK's 404 body is a JSON-RPC error with a null id, which would
            # otherwise end the request as that error and hide the expiry the session re-initializes on.
            self._session_expired(sent_session, request_id, make(excerpt(text)))
            if jsonrpc:
                self._emit(Received(raw=text, at=self._clock(), in_reply_to=request_id, http=make()))
            return
        if jsonrpc and status != 401:
            self._emit(Received(raw=text, at=self._clock(), in_reply_to=request_id, http=make()))
            return
        fault = status_fault(
            status,
            method="POST",
            url=self.url,
            headers=response.headers,
            body_excerpt=excerpt(text),
            sent_authorization=self._sent_authorization,
        )
        self._fault(fault, request_id, make(excerpt(text)))

    async def _post_stream(self, message: OutgoingMessage, response: httpx.Response, make: ExchangeFactory) -> None:
        parser = SseParser()
        answered, error, _ = await self._consume_sse(response, parser, message.request_id, make)
        if answered or message.request_id is None:
            return
        legacy = message.protocol_version is None or not is_modern(message.protocol_version)
        if legacy and parser.last_event_id is not None:
            await response.aclose()
            await self._resume(message, parser.last_event_id, parser.retry_ms, make())
            return
        self._stream_cut(message.request_id, make(), error, parser.pending)


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
