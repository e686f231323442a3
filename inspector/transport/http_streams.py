"""Legacy-era (2025-03-26 .. 2025-11-25) HTTP duties: the GET stream, ``Last-Event-ID`` resumption, DELETE.

Resumption follows SEP-1699 as the conformance scenario ``sse-retry`` checks it: when a request's event stream ends
before its response after an event carrying an ``id``, wait the server's ``retry:`` delay (1 s when it gave none),
then GET the endpoint with ``Last-Event-ID``; the rest of the request's messages, its response included, arrive on
that stream. A stream that makes progress may be resumed any number of times; one that does not gives up after
``max_reconnect_attempts``. The 2026-07-28 revision has no resumption: there a cut stream is a lost request.

Both GET loops (the standalone stream's reconnections and a request's resumption) make their attempts through
``LegacyStreams._get``, and differ only in what they make of each attempt's outcome.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import httpx

from inspector.transport.base import HttpExchange, OutgoingMessage
from inspector.transport.http_faults import (
    FaultText,
    exception_fault,
    excerpt,
    media_type,
    status_fault,
)
from inspector.transport.sse import SseParser

if TYPE_CHECKING:
    from collections.abc import Callable

    from inspector.transport.base import RequestKey
    from inspector.transport.http_channel import HttpChannel

EVENT_STREAM = "text/event-stream"
DELETE_TIMEOUT = 5.0

ServerStreamState = Literal["not-opened", "open", "reconnecting", "unsupported", "ended"]


@dataclass(frozen=True, slots=True)
class Streamed:
    """The GET was answered with an event stream, read to its end (``answered``: up to the resumed response)."""

    request: HttpExchange
    response: HttpExchange
    """Timed when the headers arrived."""
    answered: bool
    error: httpx.HTTPError | None
    """What cut the stream; None when the server closed it."""
    seen: int
    last_event_id: str | None
    """The stream's last event ID when it ended (None when it never had one, or the server cleared it)."""
    retry_ms: int | None


@dataclass(frozen=True, slots=True)
class Unsupported:
    """405: the server offers no GET stream."""

    response: HttpExchange


@dataclass(frozen=True, slots=True)
class Expired:
    """404 to our session id; already reported, and the session id dropped."""


@dataclass(frozen=True, slots=True)
class Refused:
    """Any other answer that is not an event stream; ``why`` as the standalone stream reports it."""

    response: HttpExchange
    """Timed when the body was read, with an excerpt of it."""
    why: FaultText


@dataclass(frozen=True, slots=True)
class Unreachable:
    """No answer came (or its body could not be read)."""

    request: HttpExchange
    error: httpx.HTTPError


GetAttempt = Streamed | Unsupported | Expired | Refused | Unreachable
"""How one GET for an event stream went, for the loop that decides whether to try again."""


class LegacyStreams:
    """The standalone GET stream, the resumption of cut request streams, and the DELETE that ends a session."""

    def __init__(self, channel: HttpChannel, default_retry_ms: int, max_reconnect_attempts: int) -> None:
        self._channel = channel
        self._default_retry_ms = default_retry_ms
        self._max_reconnect_attempts = max_reconnect_attempts
        self.state: ServerStreamState = "not-opened"
        """The standalone GET stream. ``unsupported``: the server answered 405, it offers none (not a fault)."""
        self._server_stream: asyncio.Task[None] | None = None
        self._server_stream_session: str | None = None

    async def open_server_stream(self) -> None:
        """Open the standalone GET stream; return once the server answered it (405: it offers none, no fault).

        A stream still running (or reconnecting) for an earlier session is replaced: its event ids and its session
        died with that session.
        """
        if self._server_stream is not None and not self._server_stream.done():
            if self._server_stream_session == self._channel.session_id:
                return
            self._server_stream.cancel()
            await asyncio.wait({self._server_stream})
        self._server_stream_session = self._channel.session_id
        answered = asyncio.Event()
        self._server_stream = self._channel.spawn(self._run_server_stream(answered))
        waiter = asyncio.ensure_future(answered.wait())
        try:
            await asyncio.wait({self._server_stream, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()

    async def _run_server_stream(self, answered: asyncio.Event) -> None:
        channel = self._channel
        last_id: str | None = None
        retry_ms: int | None = None
        failures = 0
        first = True
        last_error: object = None

        def opened() -> None:
            self.state = "open"
            answered.set()

        try:
            while True:
                if not first:
                    self.state = "reconnecting"
                    await asyncio.sleep(self._delay(retry_ms))
                attempt = await self._get(channel.protocol_version, last_id, retry_ms, None, opened)
                if isinstance(attempt, Unsupported):
                    self.state = "unsupported"
                    return
                if isinstance(attempt, Expired):
                    return
                if isinstance(attempt, Refused):
                    channel.fault(attempt.why, None, attempt.response)
                    return
                if isinstance(attempt, Unreachable):
                    if first:
                        fault = exception_fault(attempt.error, channel.url, response_started=False)
                        channel.fault(fault, None, attempt.request)
                        return
                    failures += 1
                    last_error = attempt.error
                else:
                    progressed = attempt.seen > 0 or attempt.last_event_id != last_id
                    last_id, retry_ms = attempt.last_event_id or last_id, attempt.retry_ms
                    failures = 0 if progressed and attempt.error is None else failures + 1
                    last_error = attempt.error or "the server closed the stream"
                first = False
                answered.set()
                if failures >= self._max_reconnect_attempts:
                    channel.fault(
                        FaultText(
                            "server-stream-lost",
                            f"the GET stream is gone after {failures} failed reconnections: {last_error}",
                            "server-initiated messages (requests, list_changed) will not arrive; reconnect",
                        ),
                        None,
                        attempt.request,
                    )
                    return
        finally:
            answered.set()
            if self.state in ("open", "reconnecting"):
                self.state = "ended"

    async def resume(
        self, message: OutgoingMessage, last_id: str, retry_ms: int | None, exchange: HttpExchange
    ) -> None:
        """Resume a request's cut stream with GET + ``Last-Event-ID`` until its response arrives or we give up.

        ``exchange`` is the cut POST's: what the fault shows when no GET got an answer.
        """
        request_id = message.request_id
        assert request_id is not None
        failures = 0
        last_error: object = None
        while True:
            await asyncio.sleep(self._delay(retry_ms))
            attempt = await self._get(message.protocol_version, last_id, retry_ms, request_id)
            if isinstance(attempt, Expired) or (isinstance(attempt, Streamed) and attempt.answered):
                return
            if isinstance(attempt, Unsupported):
                self._channel.stream_cut(
                    request_id, attempt.response, "the server cannot resume it: GET answered 405", ""
                )
                return
            if isinstance(attempt, Unreachable):
                # No answer to show: the fault keeps the exchange of the last GET (or POST) that had one.
                failures += 1
                last_error = attempt.error
            elif isinstance(attempt, Refused):
                exchange = attempt.response
                failures += 1
                last_error = f"the resuming GET got HTTP {exchange.status}"
            else:
                exchange = attempt.response
                progressed = attempt.last_event_id not in (None, last_id)
                last_id, retry_ms = attempt.last_event_id or last_id, attempt.retry_ms
                failures = 0 if progressed else failures + 1
                last_error = attempt.error or "the resumed stream ended again without the response"
            if failures >= self._max_reconnect_attempts:
                self._channel.stream_cut(
                    request_id, exchange, f"{last_error}; resuming gave up after {failures} tries", ""
                )
                return

    async def _get(
        self,
        protocol_version: str | None,
        last_id: str | None,
        retry_ms: int | None,
        request_id: RequestKey | None,
        opened: Callable[[], None] | None = None,
    ) -> GetAttempt:
        """One GET for an event stream, read to its end when it is one; ``opened`` is called before reading it.

        Events go up with ``request_id`` as the request they belong to (None: the standalone stream's own).
        """
        channel = self._channel
        headers = channel.request_headers({}, protocol_version, accept=EVENT_STREAM, content=False, method="GET")
        if last_id is not None:
            headers["Last-Event-ID"] = last_id
        sent_session = channel.session_id
        start = channel.clock()
        request = HttpExchange("GET", channel.url, channel.redact(headers))
        try:
            async with channel.client.stream("GET", channel.url, headers=headers) as response:
                channel.note_session(response)
                make = channel.exchange_factory(request, response, start)
                exchange = make()
                status = response.status_code
                if status == 405:
                    return Unsupported(exchange)
                if status == 404 and sent_session is not None:
                    channel.expire_session(sent_session, request_id, exchange)
                    return Expired()
                if not (200 <= status < 300 and media_type(response.headers.get("content-type")) == EVENT_STREAM):
                    body = await channel.read_body(response, whole=False)
                    return Refused(make(body), self._refusal(status, response.headers, body.text))
                if opened is not None:
                    opened()
                parser = SseParser(last_id, retry_ms)
                answered, error, seen = await channel.consume_sse(response, parser, request_id, make)
                return Streamed(request, exchange, answered, error, seen, parser.last_event_id, parser.retry_ms)
        except httpx.HTTPError as exc:
            return Unreachable(request, exc)

    def _refusal(self, status: int, headers: httpx.Headers, text: str) -> FaultText:
        if 200 <= status < 300:
            kind = media_type(headers.get("content-type")) or "(none)"
            return FaultText(
                "unexpected-content-type",
                f"the GET stream answered HTTP {status} with Content-Type {kind}, not an event stream",
                "the server does not offer a GET stream the standard way",
            )
        return status_fault(
            status,
            method="GET",
            url=self._channel.url,
            headers=headers,
            body_excerpt=excerpt(text),
            sent_authorization=self._channel.sent_authorization,
        )

    def _delay(self, retry_ms: int | None) -> float:
        return (retry_ms if retry_ms is not None else self._default_retry_ms) / 1000

    async def delete_session(self) -> str:
        """End the legacy session. Returns how it went, for the ``Closed`` reason."""
        channel = self._channel
        session = channel.session_id
        headers = channel.request_headers(
            {}, channel.protocol_version, accept="application/json", content=False, method="DELETE"
        )
        try:
            async with asyncio.timeout(DELETE_TIMEOUT):
                response = await channel.client.delete(channel.url, headers=headers)
        except (httpx.HTTPError, TimeoutError) as exc:
            return f"; DELETE of session {session} failed: {exc or type(exc).__name__}"
        finally:
            channel.session_id = None
        with contextlib.suppress(httpx.HTTPError):
            await response.aclose()
        if response.status_code == 405:
            return f"; the server does not let clients end session {session} (DELETE answered 405)"
        return f"; session {session} ended (DELETE answered {response.status_code})"
