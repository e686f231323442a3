"""One HTTP endpoint as every exchange with it sees it: the client, the headers we send and how they are shown, the
legacy session id, the events we report (faults included) and the reading of event streams."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Collection, Coroutine, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

from inspector.transport.base import (
    BODY_CAP,
    EventSink,
    HttpExchange,
    Received,
    RequestKey,
    StreamNote,
    TransportEvent,
    TransportFault,
    decode_wire,
)
from inspector.transport.http_faults import FaultText, excerpt, redact
from inspector.transport.sse import SseNote

if TYPE_CHECKING:
    from inspector.transport.oauth.driver import OAuthDriver
    from inspector.transport.sse import SseEvent, SseParser


@dataclass(frozen=True, slots=True)
class Body:
    """An HTTP response body as read: its text, its exact bytes when they are not UTF-8, whether it was cut at
    ``BODY_CAP``."""

    text: str
    undecodable: bytes | None = None
    truncated: bool = False


ExchangeFactory = Callable[..., HttpExchange]
"""``make(body=None)``: the exchange an event on this response is reported with (and the body that was not JSON-RPC,
verbatim), timed at the call."""


class HttpChannel:
    """What the POST path and the legacy GET/DELETE paths share: one client, one session id, one event sink.

    ``open`` makes the client and names the sink; until then events go nowhere and nothing can be sent.
    """

    def __init__(
        self,
        url: str,
        headers: Mapping[str, str] | None,
        secret_headers: Collection[str],
        clock: Callable[[], float],
        timeout: httpx.Timeout,
    ) -> None:
        self.url = url
        self.target: httpx.URL | None = None
        """The URL parsed once (``open``), so a POST does not parse it again."""
        self.clock = clock
        self._user_headers = dict(headers or {})
        self._secret = frozenset(name.lower() for name in secret_headers)
        self._timeout = timeout
        self._sink: EventSink = _nowhere
        self._client: httpx.AsyncClient | None = None
        self.opened = False
        """True once ``open`` made the client (it stays true after the client is closed)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.session_id: str | None = None
        """The legacy ``Mcp-Session-Id`` the server gave us, echoed on every request until it expires."""
        self.session_expired = False
        """True once the server answered 404 to our legacy session id, until a new session id arrives."""
        self.expired_sessions: set[str] = set()
        """The legacy session ids the server said it no longer knows (each said once as a fault)."""
        self.protocol_version: str | None = None
        """The last ``MCP-Protocol-Version`` a message went with: what the legacy GET and DELETE carry."""
        self.auth: OAuthDriver | None = None
        """The OAuth driver when the transport may log in: it gives every request its token."""

    def open(self, sink: EventSink, target: httpx.URL) -> None:
        """Make the client; every later event goes to ``sink``."""
        self._sink = sink
        self.target = target
        self._client = httpx.AsyncClient(timeout=self._timeout, follow_redirects=False)
        self.opened = True

    @property
    def client(self) -> httpx.AsyncClient:
        """The client ``open`` made; only paths that run after it ask for it."""
        assert self._client is not None, "the channel is not open"
        return self._client

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run an exchange in its own task, kept until it ends so ``cancel_all`` can stop it."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def cancel_all(self) -> None:
        """Cancel every exchange still running and wait until they all ended."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def request_headers(
        self,
        protocol: Mapping[str, str],
        protocol_version: str | None,
        *,
        accept: str,
        content: bool = True,
        method: str = "POST",
    ) -> httpx.Headers:
        """User headers, then the login's token (unless the user gave an Authorization; a DPoP-bound token with a
        proof for ``method`` to this URL), then the protocol's (which win over them), then the legacy session id."""
        headers = httpx.Headers(self._user_headers)
        if self.auth is not None and "authorization" not in headers:
            headers.update(self.auth.credentials(method, str(self.target or self.url)))
        headers["Accept"] = accept
        if content:
            headers["Content-Type"] = "application/json"
        for name, value in protocol.items():
            headers[name] = value
        if protocol_version is not None:
            headers["MCP-Protocol-Version"] = protocol_version
        if self.session_id is not None:
            headers["Mcp-Session-Id"] = self.session_id
        return headers

    def redact(self, headers: httpx.Headers) -> dict[str, str]:
        """Headers as sent or received (original name case), secrets replaced."""
        encoding = headers.encoding
        pairs = ((name.decode(encoding), value.decode(encoding, errors="replace")) for name, value in headers.raw)
        return redact(pairs, self._secret)

    @property
    def sent_authorization(self) -> bool:
        """Did the user give an ``Authorization`` header (so a 401 means the token was refused, not missing)?"""
        return any(name.lower() == "authorization" for name in self._user_headers)

    def exchange_factory(self, request: HttpExchange, response: httpx.Response, start: float) -> ExchangeFactory:
        """How to report ``response`` to ``request`` (sent at ``start``): headers redacted once, timed per call."""
        response_headers = self.redact(response.headers)
        content_type = response.headers.get("content-type")

        def make(body: Body | None = None) -> HttpExchange:
            return HttpExchange(
                request.method,
                request.url,
                request.request_headers,
                response.status_code,
                response_headers,
                content_type,
                round((self.clock() - start) * 1000, 3),
                excerpt(body.text) if body is not None else None,
                body.text if body is not None else None,
                body.truncated if body is not None else False,
            )

        return make

    @staticmethod
    async def read_body(response: httpx.Response, *, whole: bool) -> Body:
        """The response body as text, with its exact bytes when they are not UTF-8. ``whole``: all of it (a JSON
        answer may be 20 MB); otherwise at most ``BODY_CAP`` bytes are read and kept (an error page).
        Raises ``httpx.HTTPError`` when the body cannot be read."""
        if whole:
            data = await response.aread()
            truncated = False
        else:
            chunks: list[bytes] = []
            size = 0
            truncated = False
            async for chunk in response.aiter_bytes():
                chunks.append(chunk)
                size += len(chunk)
                if size > BODY_CAP:
                    truncated = True
                    break
            data = b"".join(chunks)[:BODY_CAP]
        text, undecodable = decode_wire(data)
        return Body(text, undecodable, truncated)

    async def consume_sse(
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

    def _on_event(self, event: SseEvent | SseNote, request_id: RequestKey | None, make: ExchangeFactory) -> bool:
        if isinstance(event, SseNote):
            self.emit(StreamNote(event.text, self.clock(), request_id, make()))
            return False
        if event.event != "message":
            # Not tied to request_id: a fault's request_id means the request ended, and this one goes on.
            on = f" on the stream of request {request_id!r}" if request_id is not None else ""
            self.fault(
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
            self.emit(StreamNote("data:", self.clock(), request_id, make()))  # priming: only its id and retry matter
            return False
        self.emit(
            Received(
                raw=event.data,
                at=self.clock(),
                in_reply_to=request_id,
                http=make(),
                undecodable=event.undecodable,
            )
        )
        return request_id is not None and answers(event.data, request_id)

    def note_session(self, response: httpx.Response) -> None:
        """Take the session id a response gave (a new one renews an expired session)."""
        session = response.headers.get("mcp-session-id")
        if session:
            self.session_id = session
            self.session_expired = False

    def expire_session(self, sent_session: str, request_id: RequestKey | None, exchange: HttpExchange) -> None:
        """The server answered 404 to ``sent_session``: drop it (unless a newer one came meanwhile) and say so."""
        if self.session_id == sent_session:
            self.session_id = None
            self.session_expired = True
        elif request_id is None and sent_session in self.expired_sessions:
            # A notification that crossed the request which found the session gone (sent before, answered after):
            # nothing waits on it, and the expiry was said once already. Kept, with its exchange, as a note.
            text = f"HTTP 404 again for session {sent_session}, already expired: a notification sent on it was lost"
            self.emit(StreamNote(text, self.clock(), None, exchange))
            return
        self.expired_sessions.add(sent_session)
        self.fault(
            FaultText(
                "session-expired",
                f"HTTP 404: the server no longer knows session {sent_session}",
                "re-initialize: the session id has been dropped, so the next initialize starts a new session",
            ),
            request_id,
            exchange,
        )

    def stream_cut(self, request_id: RequestKey, exchange: HttpExchange | None, error: object, lost: str) -> None:
        """Report that the event stream of ``request_id`` ended without its response: the request is lost."""
        how = f"was cut ({error})" if error is not None else "was closed by the server"
        tail = f"; an unfinished event was lost: {excerpt(lost, 120)}" if lost else ""
        self.fault(
            FaultText(
                "stream-cut",
                f"the event stream of request {request_id!r} {how} before its response arrived{tail}",
                "the request was not retried; send it again (with a new id)",
            ),
            request_id,
            exchange,
        )

    def fault(self, fault: FaultText, request_id: RequestKey | None, exchange: HttpExchange | None = None) -> None:
        """Report a fault, timed now."""
        self._sink(
            TransportFault(
                kind=fault.kind,
                message=fault.message,
                hint=fault.hint,
                at=self.clock(),
                request_id=request_id,
                http=exchange,
                fatal=fault.fatal,
            )
        )

    def emit(self, event: TransportEvent) -> None:
        """Hand an event to the sink (before ``open``, to nobody)."""
        self._sink(event)


def _nowhere(event: TransportEvent) -> None:
    """The sink before ``open``: what happens before the transport started is nobody's to see."""


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
