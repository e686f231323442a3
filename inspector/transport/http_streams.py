"""Legacy-era (2025-03-26 .. 2025-11-25) HTTP duties: the GET stream, ``Last-Event-ID`` resumption, DELETE.

Resumption follows SEP-1699 as the conformance scenario ``sse-retry`` checks it: when a request's event stream ends
before its response after an event carrying an ``id``, wait the server's ``retry:`` delay (1 s when it gave none),
then GET the endpoint with ``Last-Event-ID``; the rest of the request's messages, its response included, arrive on
that stream. A stream that makes progress may be resumed any number of times; one that does not gives up after
``max_reconnect_attempts``. The 2026-07-28 revision has no resumption: there a cut stream is a lost request.
"""

from __future__ import annotations

import asyncio
import contextlib
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
    from inspector.transport.http_channel import HttpChannel

EVENT_STREAM = "text/event-stream"
DELETE_TIMEOUT = 5.0

ServerStreamState = Literal["not-opened", "open", "reconnecting", "unsupported", "ended"]


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

    def _get_headers(self, protocol_version: str | None, last_event_id: str | None) -> httpx.Headers:
        headers = self._channel.request_headers({}, protocol_version, accept=EVENT_STREAM, content=False)
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        return headers

    def _delay(self, retry_ms: int | None) -> float:
        return (retry_ms if retry_ms is not None else self._default_retry_ms) / 1000

    async def _run_server_stream(self, answered: asyncio.Event) -> None:
        last_id: str | None = None
        retry_ms: int | None = None
        failures = 0
        first = True
        last_error: object = None
        try:
            while True:
                if not first:
                    self.state = "reconnecting"
                    await asyncio.sleep(self._delay(retry_ms))
                headers = self._get_headers(self._channel.protocol_version, last_id)
                sent_session = self._channel.session_id
                start = self._channel.clock()
                request = HttpExchange("GET", self._channel.url, self._channel.redact(headers))
                try:
                    async with self._channel.client.stream("GET", self._channel.url, headers=headers) as response:
                        self._channel.note_session(response)
                        make = self._channel.exchange_factory(request, response, start)
                        status = response.status_code
                        if status == 405:
                            self.state = "unsupported"
                            return
                        if status == 404 and sent_session is not None:
                            self._channel.expire_session(sent_session, None, make())
                            return
                        if not (
                            200 <= status < 300 and media_type(response.headers.get("content-type")) == EVENT_STREAM
                        ):
                            text = (await response.aread()).decode("utf-8", errors="replace")
                            self._channel.fault(
                                self._get_refused(status, response.headers, text), None, make(excerpt(text))
                            )
                            return
                        self.state = "open"
                        answered.set()
                        parser = SseParser(last_id, retry_ms)
                        _, error, seen = await self._channel.consume_sse(response, parser, None, make)
                        progressed = seen > 0 or parser.last_event_id != last_id
                        last_id, retry_ms = parser.last_event_id or last_id, parser.retry_ms
                        failures = 0 if progressed and error is None else failures + 1
                        last_error = error or "the server closed the stream"
                except httpx.HTTPError as exc:
                    if first:
                        self._channel.fault(
                            exception_fault(exc, self._channel.url, response_started=False), None, request
                        )
                        return
                    failures += 1
                    last_error = exc
                first = False
                answered.set()
                if failures >= self._max_reconnect_attempts:
                    self._channel.fault(
                        FaultText(
                            "server-stream-lost",
                            f"the GET stream is gone after {failures} failed reconnections: {last_error}",
                            "server-initiated messages (requests, list_changed) will not arrive; reconnect",
                        ),
                        None,
                        request,
                    )
                    return
        finally:
            answered.set()
            if self.state in ("open", "reconnecting"):
                self.state = "ended"

    def _get_refused(self, status: int, headers: httpx.Headers, text: str) -> FaultText:
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

    async def resume(
        self, message: OutgoingMessage, last_id: str, retry_ms: int | None, exchange: HttpExchange
    ) -> None:
        """Resume a request's cut stream with GET + ``Last-Event-ID`` until its response arrives or we give up."""
        assert message.request_id is not None
        request_id = message.request_id
        failures = 0
        last_error: object = None
        while True:
            await asyncio.sleep(self._delay(retry_ms))
            headers = self._get_headers(message.protocol_version, last_id)
            sent_session = self._channel.session_id
            start = self._channel.clock()
            request = HttpExchange("GET", self._channel.url, self._channel.redact(headers))
            try:
                async with self._channel.client.stream("GET", self._channel.url, headers=headers) as response:
                    self._channel.note_session(response)
                    make = self._channel.exchange_factory(request, response, start)
                    exchange = make()
                    status = response.status_code
                    if status == 404 and sent_session is not None:
                        self._channel.expire_session(sent_session, request_id, exchange)
                        return
                    if status == 405:
                        self._channel.stream_cut(
                            request_id, exchange, "the server cannot resume it: GET answered 405", ""
                        )
                        return
                    if 200 <= status < 300 and media_type(response.headers.get("content-type")) == EVENT_STREAM:
                        parser = SseParser(last_id, retry_ms)
                        answered, error, _ = await self._channel.consume_sse(response, parser, request_id, make)
                        if answered:
                            return
                        progressed = parser.last_event_id not in (None, last_id)
                        last_id, retry_ms = parser.last_event_id or last_id, parser.retry_ms
                        failures = 0 if progressed else failures + 1
                        last_error = error or "the resumed stream ended again without the response"
                    else:
                        text = (await response.aread()).decode("utf-8", errors="replace")
                        exchange = make(excerpt(text))
                        failures += 1
                        last_error = f"the resuming GET got HTTP {status}"
            except httpx.HTTPError as exc:
                failures += 1
                last_error = exc
            if failures >= self._max_reconnect_attempts:
                self._channel.stream_cut(
                    request_id, exchange, f"{last_error}; resuming gave up after {failures} tries", ""
                )
                return

    async def delete_session(self) -> str:
        """End the legacy session. Returns how it went, for the ``Closed`` reason."""
        session = self._channel.session_id
        headers = self._channel.request_headers(
            {}, self._channel.protocol_version, accept="application/json", content=False
        )
        try:
            async with asyncio.timeout(DELETE_TIMEOUT):
                response = await self._channel.client.delete(self._channel.url, headers=headers)
        except (httpx.HTTPError, TimeoutError) as exc:
            return f"; DELETE of session {session} failed: {exc or type(exc).__name__}"
        finally:
            self._channel.session_id = None
        with contextlib.suppress(httpx.HTTPError):
            await response.aclose()
        if response.status_code == 405:
            return f"; the server does not let clients end session {session} (DELETE answered 405)"
        return f"; session {session} ended (DELETE answered {response.status_code})"
