"""State and helpers shared by every kind of HTTP exchange: headers, session id, SSE reading, fault events."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Collection, Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Literal

import httpx

from inspector.transport.base import (
    EventSink,
    HttpExchange,
    Received,
    RequestKey,
    TransportEvent,
    TransportFault,
)
from inspector.transport.http_faults import FaultText, excerpt, redact

if TYPE_CHECKING:
    from inspector.transport.sse import SseEvent, SseParser

ServerStreamState = Literal["not-opened", "open", "reconnecting", "unsupported", "ended"]
ExchangeFactory = Callable[..., HttpExchange]
"""``make(body_excerpt=None)``: the exchange an event on this response is reported with, timed at the call."""


class HttpCore:
    """What the POST path and the legacy GET/DELETE paths of ``StreamableHttpTransport`` share."""

    def __init__(
        self,
        url: str,
        headers: Mapping[str, str] | None,
        secret_headers: Collection[str],
        clock: Callable[[], float] = time.monotonic,
        timeout: float | None = 30.0,
        read_timeout: float | None = None,
        default_retry_ms: int = 1000,
        max_reconnect_attempts: int = 2,
    ) -> None:
        self.url = url
        self._user_headers = dict(headers or {})
        self._secret = frozenset(name.lower() for name in secret_headers)
        self._clock = clock
        # Reading has no timeout by default: SSE streams (subscriptions, slow tools) may stay quiet for a long time;
        # the session owns per-request deadlines and cancels.
        self._timeout = httpx.Timeout(timeout, read=read_timeout)
        self._default_retry_ms = default_retry_ms
        self._max_reconnect_attempts = max_reconnect_attempts
        self._sink: EventSink | None = None
        self._client: httpx.AsyncClient | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._session_id: str | None = None
        self.session_expired = False
        """True once the server answered 404 to our legacy session id, until a new session id arrives."""
        self._protocol_version: str | None = None
        self._closing: asyncio.Task[None] | None = None
        self.server_stream_state: ServerStreamState = "not-opened"
        """The legacy GET stream. ``unsupported``: the server answered 405, it offers none (normal, not a fault)."""

    @property
    def session_id(self) -> str | None:
        """The legacy ``Mcp-Session-Id`` the server gave us, echoed on every request until it expires."""
        return self._session_id

    def _request_headers(
        self, protocol: Mapping[str, str], protocol_version: str | None, *, accept: str, content: bool = True
    ) -> httpx.Headers:
        """User headers, then the protocol's (which win over them), then the legacy session id."""
        headers = httpx.Headers(self._user_headers)
        headers["Accept"] = accept
        if content:
            headers["Content-Type"] = "application/json"
        for name, value in protocol.items():
            headers[name] = value
        if protocol_version is not None:
            headers["MCP-Protocol-Version"] = protocol_version
        if self._session_id is not None:
            headers["Mcp-Session-Id"] = self._session_id
        return headers

    def _redact(self, headers: httpx.Headers) -> dict[str, str]:
        """Headers as sent or received (original name case), secrets replaced."""
        encoding = headers.encoding
        pairs = ((name.decode(encoding), value.decode(encoding, errors="replace")) for name, value in headers.raw)
        return redact(pairs, self._secret)

    @property
    def _sent_authorization(self) -> bool:
        return any(name.lower() == "authorization" for name in self._user_headers)

    def _exchange_factory(self, request: HttpExchange, response: httpx.Response, start: float) -> ExchangeFactory:
        response_headers = self._redact(response.headers)
        content_type = response.headers.get("content-type")

        def make(body_excerpt: str | None = None) -> HttpExchange:
            return HttpExchange(
                request.method,
                request.url,
                request.request_headers,
                response.status_code,
                response_headers,
                content_type,
                round((self._clock() - start) * 1000, 3),
                body_excerpt,
            )

        return make

    async def _consume_sse(
        self, response: httpx.Response, parser: SseParser, request_id: RequestKey | None, make: ExchangeFactory
    ) -> tuple[bool, httpx.HTTPError | None, int]:
        """Read an event stream to its end: (our response arrived, the error that cut the stream, events seen)."""
        seen = 0
        try:
            async for chunk in response.aiter_bytes():
                for event in parser.feed(chunk):
                    seen += 1
                    if self._on_event(event, request_id, make):
                        return True, None, seen
            for event in parser.finish():
                seen += 1
                if self._on_event(event, request_id, make):
                    return True, None, seen
        except httpx.HTTPError as exc:
            return False, exc, seen
        return False, None, seen

    def _on_event(self, event: SseEvent, request_id: RequestKey | None, make: ExchangeFactory) -> bool:
        if event.event != "message":
            # Not tied to request_id: a fault's request_id means the request ended, and this one goes on.
            on = f" on the stream of request {request_id!r}" if request_id is not None else ""
            self._fault(
                FaultText(
                    "sse-event-ignored",
                    f"ignored an SSE event of type {event.event!r}{on} (only `message` events carry JSON-RPC): "
                    + excerpt(event.data, 120),
                    "a server of the old HTTP+SSE transport (2024-11-05) sends `endpoint` events",
                ),
                None,
                make(),
            )
            return False
        if event.data == "":
            return False  # a priming event: only its id and retry matter
        self._emit(Received(raw=event.data, at=self._clock(), in_reply_to=request_id, http=make(), event_id=event.id))
        return request_id is not None and answers(event.data, request_id)

    def _note_session(self, response: httpx.Response) -> None:
        session = response.headers.get("mcp-session-id")
        if session:
            self._session_id = session
            self.session_expired = False

    def _session_expired(self, sent_session: str, request_id: RequestKey | None, exchange: HttpExchange) -> None:
        if self._session_id == sent_session:
            self._session_id = None
            self.session_expired = True
        self._fault(
            FaultText(
                "session-expired",
                f"HTTP 404: the server no longer knows session {sent_session}",
                "re-initialize: the session id has been dropped, so the next initialize starts a new session",
            ),
            request_id,
            exchange,
        )

    def _stream_cut(self, request_id: RequestKey, exchange: HttpExchange | None, error: object, lost: str) -> None:
        how = f"was cut ({error})" if error is not None else "was closed by the server"
        tail = f"; an unfinished event was lost: {excerpt(lost, 120)}" if lost else ""
        self._fault(
            FaultText(
                "stream-cut",
                f"the event stream of request {request_id!r} {how} before its response arrived{tail}",
                "the request was not retried; send it again (with a new id)",
            ),
            request_id,
            exchange,
        )

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _fault(self, fault: FaultText, request_id: RequestKey | None, exchange: HttpExchange | None = None) -> None:
        self._emit(
            TransportFault(
                kind=fault.kind,
                message=fault.message,
                hint=fault.hint,
                at=self._clock(),
                request_id=request_id,
                http=exchange,
                fatal=fault.fatal,
            )
        )

    def _emit(self, event: TransportEvent) -> None:
        if self._sink is not None:
            self._sink(event)


def answers(raw: str, request_id: RequestKey) -> bool:
    """Does this message answer our request (a result or error with its id, or an error with a null id)?"""
    if '"id"' not in raw:
        return False
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return False
    if not isinstance(value, dict) or ("result" not in value and "error" not in value):
        return False
    answer_id = value.get("id")
    if answer_id is None:
        return "error" in value
    return type(answer_id) is type(request_id) and answer_id == request_id
