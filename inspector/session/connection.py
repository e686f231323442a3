"""The JSON-RPC engine over one transport: ids, correlation, timeouts, cancellation, and the session log.

Every transport event is recorded (recorder + timeline builder) before it is acted on, so the recording is complete
even when a request fails. Responses resolve the future of their request; legacy server->client requests are handed
to ``on_server_request``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Coroutine
from typing import Any

from inspector.protocol import wire_text
from inspector.protocol.jsonrpc import JsonObject, RequestId, WireParse, classify, notification
from inspector.protocol.wire_text import Encoded, dumps
from inspector.session.deadlines import Deadlines, Expired, Pending
from inspector.session.errors import RequestFailed, RpcError, cancel_reason
from inspector.session.session_log import SessionLog
from inspector.timeline import auth_records, records
from inspector.timeline import findings as lint
from inspector.timeline.http_info import HttpInfo
from inspector.timeline.model import Call
from inspector.transport.base import (
    AuthEvent,
    Closed,
    HttpExchange,
    OutgoingMessage,
    Received,
    Sent,
    StderrLine,
    StreamNote,
    Transport,
    TransportEvent,
    TransportFault,
)

ServerRequestHandler = Callable[[WireParse, Call | None], Coroutine[Any, Any, None]]
NotificationHandler = Callable[[str | None, Any], None]
"""Told each notification's method and params as it comes (the client's cache forgets what it makes stale)."""


def http_info(exchange: HttpExchange | None, *, response_only: bool = False) -> HttpInfo | None:
    """The recordable part of an HTTP exchange; for a received message only the response side (the request's
    method, URL and headers are on the request's own record already)."""
    if exchange is None:
        return None
    if response_only:
        return HttpInfo(
            status=exchange.status,
            response_headers=dict(exchange.response_headers),
            content_type=exchange.content_type,
            elapsed_ms=exchange.elapsed_ms,
        )
    return HttpInfo(
        method=exchange.method,
        url=exchange.url,
        status=exchange.status,
        request_headers=dict(exchange.request_headers),
        response_headers=dict(exchange.response_headers),
        content_type=exchange.content_type,
        elapsed_ms=exchange.elapsed_ms,
        body=exchange.body,
        body_truncated=exchange.body_truncated,
    )


async def _poll_until_done(future: asyncio.Future[Any], seconds: float) -> None:
    """Keep the event loop turning (it polls its file descriptors without sleeping while a callback is ready) until
    ``future`` is done or ``seconds`` have passed.

    A reply that comes back within that time is picked up as soon as it lands instead of after the process is woken
    from sleep, which on a VM costs tens of microseconds a round trip, and it makes the round's measured latency
    closer to the server's own. Everything else on the loop keeps running meanwhile (each turn is a full loop
    iteration), so nothing starves; the cost is CPU for at most ``seconds`` per request.
    """
    deadline = time.perf_counter() + seconds
    # (ASYNC110 would have an Event here: waiting on one lets the loop sleep, which is what this avoids)
    while not future.done() and time.perf_counter() < deadline:  # noqa: ASYNC110
        await asyncio.sleep(0)


class Connection:
    """Sends requests and correlates responses. One per transport.

    ``reply_poll_s``: how long ``request`` keeps the event loop turning after a request left, before letting it
    sleep until the reply wakes it (0: never). The composition root chooses it per transport (see
    ``_poll_until_done``)."""

    def __init__(self, transport: Transport, log: SessionLog, *, reply_poll_s: float = 0.0) -> None:
        self.transport = transport
        self.log = log
        self.reply_poll_s = reply_poll_s
        self.on_server_request: ServerRequestHandler | None = None
        self.on_notification: NotificationHandler | None = None
        self._next_id = 0
        self._pending: dict[RequestId, Pending] = {}
        self._deadlines = Deadlines(self._pending)
        self._requests_out: dict[RequestId, tuple[int, JsonObject, str]] = {}
        """Requests handed to the transport, by id: their call, object and exact text, until ``Sent``. By id, not by
        text: hashing a request's ~450 characters was about 1% of a load run's call
        (``tests/perf/bench_instructions.py --as-load --concurrency 10``)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.closed_reason: str | None = None
        self._closing = False
        self.waited_on_person = 0.0
        """Seconds requests spent waiting on a person logging in (the handshake does not count them)."""

    async def start(self) -> None:
        """Start the transport; raises ``TransportStartError`` when the server cannot be reached."""
        await self.transport.start(self._on_event)

    def next_id(self) -> int:
        """A fresh request id (never reused in this session)."""
        self._next_id += 1
        return self._next_id

    # ------------------------------------------------------------------------------------------------ sending
    async def request(
        self,
        call: int,
        method: str,
        params: JsonObject | None,
        *,
        timeout: float | None,
        protocol_version: str | None,
        headers: dict[str, str] | None = None,
        cancel_notice: bool = True,
        meta: Encoded | None = None,
        max_timeout: float | None = None,
        progress_token: int | str | None = None,
    ) -> JsonObject:
        """Send a request for ``call`` and return its result; raise ``RpcError`` or ``RequestFailed``.

        ``meta`` (a modern request's envelope) goes into the params as ``_meta``, after the keys they have. Each
        progress notification for ``progress_token`` counts ``timeout`` again, up to ``max_timeout`` from the send:
        a server that says it is working is given the time it says it needs, within a bound."""
        if self.closed_reason is not None:
            raise RequestFailed("closed", f"the connection is closed: {self.closed_reason}", "reconnect and try again")
        self._next_id = request_id = self._next_id + 1  # (next_id, without its call: once a request)
        message, raw = wire_text.request(request_id, method, params, meta)
        loop = asyncio.get_running_loop()
        pending = Pending(loop.create_future(), call, method)
        self._pending[request_id] = pending
        self._requests_out[request_id] = (call, message, raw)
        outgoing = OutgoingMessage(raw, method, request_id, protocol_version, headers or {})
        await self.transport.send(outgoing)
        if timeout is not None:
            self._deadlines.watch(loop, request_id, pending, timeout, max_timeout, progress_token)
        try:
            if self.reply_poll_s and len(self._pending) == 1 and not pending.future.done():
                # (only a lone request polls: with others in flight their replies wake the loop anyway, and several
                # pollers would only take CPU from a server that shares ours)
                await _poll_until_done(pending.future, self.reply_poll_s)
            reply = await pending.future
        except Expired:
            self._pending.pop(request_id, None)
            await self._abandon(call, request_id, protocol_version, "timeout", cancel_notice)
            if pending.progressed and pending.max_deadline is not None and loop.time() >= pending.max_deadline:
                said = f"within --max-timeout {max_timeout:g} s, though it kept sending progress"
                hint = "raise --max-timeout if the work takes that long"
            else:
                since = " of its last progress notification" if pending.progressed else ""
                said = f"within {timeout:g} s{since}"
                hint = "raise --timeout, or check the server's stderr"
            raise RequestFailed("timeout", f"no response to {method} (id {request_id}) {said}", hint) from None
        except asyncio.CancelledError as cancelled:
            if self._pending.pop(request_id, None) is not None:
                reason = cancel_reason(cancelled) or "cancelled by the user"
                await self._abandon(call, request_id, protocol_version, reason, cancel_notice)
            raise
        finally:
            self._pending.pop(request_id, None)
            if progress_token is not None:
                self._deadlines.forget(progress_token)
        message = reply.message or {}
        if reply.kind == "error":
            raise RpcError.from_error(message.get("error"))
        result = message.get("result")
        if not isinstance(result, dict):
            raise RequestFailed("invalid", f"{method} response has no result object", "see the finding on the timeline")
        return result

    async def _abandon(self, call: int, request_id: RequestId, version: str | None, reason: str, notice: bool) -> None:
        """Stop waiting for a request: HTTP closes its stream; stdio sends notifications/cancelled."""
        with contextlib.suppress(Exception):
            if not await self.transport.cancel(request_id) and notice and self.closed_reason is None:
                params: JsonObject = {"requestId": request_id, "reason": reason}
                await self.send_notification(call, "notifications/cancelled", params, protocol_version=version)

    async def send_notification(
        self, call: int | None, method: str, params: JsonObject | None, *, protocol_version: str | None
    ) -> None:
        """Send a notification (``notifications/cancelled``, legacy ``notifications/initialized``)."""
        raw = dumps(notification(method, params))
        await self.transport.send(OutgoingMessage(raw, method, None, protocol_version, {"Mcp-Method": method}, call))

    async def send_response(self, call: int | None, message: JsonObject, *, protocol_version: str | None) -> None:
        """Answer a legacy server->client request."""
        raw = dumps(message)
        await self.transport.send(OutgoingMessage(raw, None, None, protocol_version, {}, call))

    def waiting(self) -> list[tuple[RequestId, Pending]]:
        """The requests sent and not answered yet, oldest first: each one's id, call and method."""
        return list(self._pending.items())

    async def cancel_call(
        self, call: int, reason: str = "cancelled by the user", *, reply_grace_s: float | None = None
    ) -> int:
        """Cancel every request of ``call`` still in flight; returns how many were cancelled. A request whose reply
        is in hand already (its caller not yet resumed) is not cancelled: the server answered it.

        Each fails at once, unless ``reply_grace_s`` is given: then (over stdio: the cancel is a notification, and
        a reply the server wrote before it read it still comes) it waits that long for its reply, which its caller
        gets as usual, then fails; its own timeout no longer counts."""
        ids = [rid for rid, p in self._pending.items() if p.call == call and not p.future.done()]
        for request_id in ids:
            pending = self._pending[request_id]
            if reply_grace_s is None:
                del self._pending[request_id]
                pending.future.set_exception(RequestFailed("cancelled", reason))
            else:
                pending.deadline = None
                loop = asyncio.get_running_loop()
                loop.call_later(reply_grace_s, self._stop_waiting, request_id, pending, reason)
            await self._abandon(call, request_id, None, reason, True)
        return len(ids)

    def _stop_waiting(self, request_id: RequestId, pending: Pending, reason: str) -> None:
        """The grace of a cancelled request is over (``cancel_call``): no reply came, it fails as cancelled."""
        if self._pending.get(request_id) is pending and not pending.future.done():
            del self._pending[request_id]
            pending.future.set_exception(RequestFailed("cancelled", reason))

    async def close(self) -> None:
        """Close the transport and fail whatever is still waiting."""
        self._closing = True
        self._deadlines.stop()
        await self.transport.close()
        self._fail_all(RequestFailed("closed", "the session was closed"))
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task

    # ------------------------------------------------------------------------------------------------ events
    def _on_event(self, event: TransportEvent) -> None:
        log = self.log
        if isinstance(event, Sent):
            sent = self._requests_out.pop(event.request_id, None) if event.request_id is not None else None
            call: int | None
            ours: JsonObject | None
            if sent is not None and (sent[2] is event.raw or sent[2] == event.raw):
                call, ours, _ = sent
            else:
                call, ours = event.owner, None
            # raw is exactly dumps(ours): record the object (parsed here, after the write, off the path to the wire)
            parsed = WireParse(event.raw, "request", ours) if ours is not None else None
            http = http_info(event.http) if event.http is not None else None
            record = records.wire(event.at - log.t0, "c2s", event.raw, call=call, http=http, message=ours)
            # Queued like a reply: the requests that leave in one turn of the loop (a load run's workers, woken by
            # one read of several replies) are recorded and applied together once the turn's callers have sent.
            log.queue(record, parsed)
            log.flush_soon()
        elif isinstance(event, Received):
            parsed = classify(event.raw)
            record = records.wire(
                event.at - log.t0,  # (log.since_start, inline on the two events of every call)
                "s2c",
                event.raw,
                http=http_info(event.http, response_only=True) if event.http is not None else None,
                reply_to=event.in_reply_to,
                undecodable=event.undecodable,
            )
            # Queued, not written: the waiting request resumes first, and the reply's bookkeeping runs once the
            # next request has left (or on the loop's next turn). See session_log.
            log.queue(record, parsed)
            self._dispatch(parsed, event.in_reply_to)
            log.flush_soon()
        elif isinstance(event, StderrLine):
            log.write(records.stderr(log.since_start(event.at), event.text, event.undecodable))
        elif isinstance(event, StreamNote):
            http = http_info(event.http, response_only=True)
            log.write(records.stream_note(log.since_start(event.at), event.text, http=http, reply_to=event.in_reply_to))
        elif isinstance(event, TransportFault):
            self._fault(event)
        elif isinstance(event, AuthEvent):
            for secret in event.secrets:
                log.add_secret(secret)  # before anything that could hold it is written
            log.write(auth_records.record(log.since_start(event.at), event))
            self._hold_for_login(event)
        elif isinstance(event, Closed):
            self.closed_reason = event.reason
            log.write(records.closed(log.since_start(event.at), event.reason, event.returncode))
            code = f" (exit code {event.returncode})" if event.returncode is not None else ""
            self._fail_all(
                RequestFailed(
                    "closed",
                    f"the server went away{code}: {event.reason}",
                    "the server's stderr says why it went away",
                    fatal=True,
                )
            )

    def _dispatch(self, parsed: WireParse, reply_to: Any) -> None:
        if parsed.kind == "notification":
            if self._deadlines.by_token and parsed.method == "notifications/progress" and parsed.message is not None:
                self._deadlines.progressed(parsed.message.get("params"))
            if self.on_notification is not None and parsed.message is not None:
                self.on_notification(parsed.method, parsed.message.get("params"))
            return
        if parsed.kind in ("response", "error"):
            request_id = parsed.id if parsed.id is not None else reply_to
            pending = self._pending.get(request_id) if isinstance(request_id, int | str) else None
            if pending is not None and not pending.future.done():
                pending.future.set_result(parsed)
        elif parsed.kind == "invalid" and parsed.message is not None and "method" not in parsed.message:
            # An unusable reply (a result that is not an object, an error without a code) still ends its request
            # now: waiting for the timeout would hide that the server did answer.
            request_id = parsed.id if parsed.id is not None else reply_to
            pending = self._pending.get(request_id) if isinstance(request_id, int | str) else None
            if pending is not None and not pending.future.done():
                message = (
                    f"the response to {pending.method} (id {request_id!r}) is not valid JSON-RPC: {parsed.problem}"
                )
                pending.future.set_exception(RequestFailed("invalid", message, "see the invalid-message finding"))
        elif parsed.kind == "request" and self.on_server_request is not None and not self._closing:
            # (A server request arriving while we close is recorded but not answered: the way back is shutting.)
            self.log.flush()
            params = parsed.message.get("params") if parsed.message is not None else None
            owner = self.log.builder.owner_of_server_request(reply_to, parsed.method, params)
            task: asyncio.Task[None] = asyncio.get_running_loop().create_task(self.on_server_request(parsed, owner))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _fault(self, fault: TransportFault) -> None:
        log = self.log
        t = log.since_start(fault.at)
        log.write(
            records.fault(
                t,
                fault.kind,
                fault.message,
                fault.hint,
                request_id=fault.request_id,
                fatal=fault.fatal,
                http=http_info(fault.http),
            )
        )
        pending = self._pending.get(fault.request_id) if fault.request_id is not None else None
        call = pending.call if pending is not None else None
        log.write(
            records.finding(t, lint.make("transport", f"{fault.kind}: {fault.message}", call=call, hint=fault.hint))
        )
        kind = "session-expired" if fault.kind == "session-expired" else "transport"
        if pending is not None and not pending.future.done():
            failure = RequestFailed(kind, fault.message, fault.hint, fatal=fault.fatal, fault_kind=fault.kind)
            pending.future.set_exception(failure)
        if fault.fatal:
            self.closed_reason = fault.message
            self._fail_all(RequestFailed("transport", fault.message, fault.hint, fatal=True))

    def _hold_for_login(self, event: AuthEvent) -> None:
        """A login is no slow server: each of its steps is progress, so the request's timeout counts again from it
        (the login's own exchanges have timeouts of their own); while it waits on a person in a browser, the
        timeout is held altogether."""
        pending = self._pending.get(event.request_id) if event.request_id is not None else None
        if pending is None:
            return
        loop = asyncio.get_running_loop()
        if event.outcome == "waiting":
            self._deadlines.hold(loop, pending)
        else:
            self.waited_on_person += self._deadlines.resume(loop, pending)

    def _fail_all(self, failure: RequestFailed) -> None:
        for pending in self._pending.values():
            if not pending.future.done():
                pending.future.set_exception(failure)
