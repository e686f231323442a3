"""``InspectorSession``: one connection to one server, in either era, feeding one Timeline.

The faces (TUI, headless CLI, replay re-runs, the load runner) only call these methods and read ``timeline``.
Every operation is a Call on the timeline; MRTR rounds and legacy server requests become its rounds. The session
holds its collaborators: the ``Connection`` (ids, correlation, timeouts), the ``CallLedger`` (calls started and
ended, answers, findings), the handshake's result, and the ``RequestSender`` (a request at the negotiated version).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any, Final, Literal

from inspector.answers.source import AnswerRefused, AnswerSource, CallCancelled, NoAnswer
from inspector.protocol.caching import READ
from inspector.protocol.envelope import LATEST_LEGACY, LATEST_MODERN, client_capabilities, declares_tasks
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import CATALOG, INPUT_REQUIRED_METHODS, RESULT_TYPES, CatalogKind
from inspector.protocol.redact import Redactor
from inspector.protocol.task_polling import TASK_TIMEOUT_S
from inspector.session.calls import CallServices
from inspector.session.connection import Connection
from inspector.session.errors import RequestFailed, RpcError, cancel_reason, explain, raised_when_awaited
from inspector.session.handshake import PROBE_TIMEOUT_S, ConnectError, EraMode, Handshake, HandshakeOptions, Negotiated
from inspector.session.heap import HeapPolicy
from inspector.session.ledger import CallLedger
from inspector.session.listing import CatalogLister, forbidden_input_required
from inspector.session.mrtr_driver import (
    DEFAULT_MAX_ROUNDS,
    MalformedInputRequired,
    RoundCapReached,
    drive_input_required,
    is_input_required,
)
from inspector.session.recorder import Recorder
from inspector.session.result_cache import Authorization, ResultCache, Served
from inspector.session.sender import RequestSender
from inspector.session.session_log import SessionLog
from inspector.session.subscriptions import Subscriber
from inspector.session.task_calls import TaskFollower, asked_shape, created_shape, with_task_request
from inspector.session.task_store import TaskStore
from inspector.timeline import findings as lint
from inspector.timeline.model import Call, CallStatus, EraDecision, Timeline
from inspector.timeline.outcome import Outcome
from inspector.timeline.url_elicitation import URL_ELICITATION_REQUIRED, elicitation_key, url_elicitations
from inspector.transport.base import Transport

Started = Callable[[int], object]
"""Told a call's number as soon as the call is on the timeline (``InspectorSession.request``)."""

MAX_TIMEOUT_S: Final = 600.0
"""How long progress notifications can keep a request waiting, in all (``--max-timeout``)."""
REPLY_GRACE_S: Final = 1.0
"""How long a 2026 ``tools/call`` cancelled with ``notifications/cancelled`` (stdio) still waits for a reply the
server sent before it read the cancel: that reply may name a task, which only ``tasks/cancel`` stops. A server that
read the cancel sends no reply at all, so the wait always ends; a reply already written to the pipe comes within
a few turns of the loop, even a loaded one (a repaint holds it for 100-150 ms at most)."""


CALL_FAILURES: Final = (RpcError, RequestFailed, MalformedInputRequired, NoAnswer, CallCancelled, RoundCapReached)
"""What a call's work may raise that ends the call with an outcome (``InspectorSession.ended_by``); anything else
is a bug and propagates."""


class InspectorSession:
    """A live session. ``connect`` first; every other method returns an ``Outcome`` and never raises for the server."""

    def __init__(
        self,
        transport: Transport,
        answers: AnswerSource,
        *,
        era: EraMode = "auto",
        capabilities: JsonObject | None = None,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        timeout: float = 60.0,
        max_timeout: float | None = MAX_TIMEOUT_S,
        probe_timeout: float = PROBE_TIMEOUT_S,
        recorder: Recorder | None = None,
        clock: Callable[[], float] = time.monotonic,
        timeline: Timeline | None = None,
        legacy_offer: str = LATEST_LEGACY,
        modern_version: str = LATEST_MODERN,
        heap: HeapPolicy | None = None,
        reply_poll_s: float = 0.0,
        secrets: Iterable[str] = (),
        tasks: bool = True,
        log_level: str | None = None,
        task_store: TaskStore | None = None,
        task_timeout: float | None = TASK_TIMEOUT_S,
        cache: ResultCache | None = None,
    ) -> None:
        self.redactor = Redactor(secrets)
        """Every secret of the target, in every spelling: out of the recording, the timeline and what faces print."""
        self.log = SessionLog(clock, recorder, timeline, self.redactor)
        self.log.timeline.target = self.redactor.redact(transport.describe())
        self.log.timeline.transport = transport.kind
        self.connection = Connection(transport, self.log, reply_poll_s=reply_poll_s)
        self.ledger = CallLedger(self.log, answers, heap)
        self.options = HandshakeOptions(
            era=era,
            capabilities=client_capabilities(tasks=tasks) if capabilities is None else dict(capabilities),
            probe_timeout=probe_timeout,
            legacy_offer=legacy_offer,
            modern_version=modern_version,
            timeout=timeout,
            log_level=log_level,
        )
        self.handshake = Handshake(self.connection, self.ledger, self.options, self.cancel)
        self.max_rounds = max_rounds
        self.timeout = timeout
        self.max_timeout = max_timeout
        self.log_level = log_level
        """The log level asked for: on every modern request's ``_meta``, with ``logging/setLevel`` on legacy ones."""
        self.heap = heap
        self.tools: dict[str, JsonObject] = {}
        """Tools from the last tools/list, by name (their inputSchema gives the Mcp-Param-* headers)."""
        self._sender: RequestSender | None = None
        self._held_back: set[int] = set()
        """Calls cancelled while nothing of them was on the wire: their next request is not sent (``cancel``)."""
        calls = CallServices(self.ledger, self._send, self.settle)
        self.tasks = TaskFollower(calls, task_store, task_timeout or None)
        """Follows the tasks the calls create (and cancels them, and those that run past ``task_timeout``, in
        seconds: 0 or None, no limit)."""
        self.subscriber = Subscriber(calls, self.connection)
        self.lister = CatalogLister(calls, http=transport.kind == "http")
        self.cache = cache
        """Lists and reads kept while their ttlMs says (None: nothing is, every list and read asks the server)."""
        self._cache_owner = object()
        """This session, as the owner of the private results it caches (``result_cache.Authorization``)."""
        if cache is not None:
            self.connection.on_notification = cache.notified

    @property
    def timeline(self) -> Timeline:
        """The model every face reads, with every record applied."""
        return self.log.timeline

    @property
    def transport(self) -> Transport:
        """The transport under the connection."""
        return self.connection.transport

    def redact(self, text: str) -> str:
        """``text`` (an error message, a line of the server's stderr) with the target's secrets taken out."""
        return self.redactor.redact(text)

    def call(self, index: int) -> Call:
        """Call ``index`` on the timeline, with every round the wire has told of so far."""
        found = self.timeline.call(index)
        if found is None:
            raise LookupError(f"call {index} was never started")
        return found

    # ------------------------------------------------------------------------------------------------ connecting
    async def connect(self) -> EraDecision:
        """Start the transport and settle the era; raises ``ConnectError`` (the transport's own start error too)."""
        negotiated = await self.handshake.connect()
        self._sender = RequestSender(
            self.connection,
            negotiated,
            self.options,
            schema_of=self._schema_of,
            reinitialize=self._reinitialize,
            max_timeout=self.max_timeout,
        )
        if self.heap is not None:
            self.heap.connected()
        offered = self.timeline.server_capabilities or {}
        if self.log_level is not None and negotiated.legacy and "logging" in offered:
            await self.request("logging/setLevel", {"level": self.log_level})
        era = self.timeline.era
        assert era is not None
        return era

    @property
    def negotiated(self) -> Negotiated | None:
        """What the handshake settled (None before ``connect``)."""
        return self._sender.negotiated if self._sender is not None else None

    def _schema_of(self, tool: str) -> JsonObject | None:
        found = self.tools.get(tool)
        schema = found.get("inputSchema") if found is not None else None
        return schema if isinstance(schema, dict) else None

    async def _reinitialize(self) -> Negotiated:
        """A new legacy session after the server forgot ours (HTTP 404 with our ``Mcp-Session-Id``)."""
        assert self._sender is not None
        why = "the HTTP session expired (404); re-initialized"
        try:
            return await self.handshake.initialize(why)
        except ConnectError as lost:
            # A failed re-initialize ends the call like any transport failure, not as an exception.
            raise RequestFailed(
                "transport", f"the session expired and re-initializing failed: {lost.message}", lost.hint
            ) from None

    def _send(
        self,
        call: int,
        method: str,
        params: JsonObject,
        capabilities: JsonObject | None,
        *,
        unbounded: bool = False,
    ) -> Coroutine[Any, Any, JsonObject]:
        """The sender's request (a plain function, not a coroutine of its own: one frame less on every call)."""
        if self._held_back and call in self._held_back:
            return raised_when_awaited(RequestFailed("cancelled", "cancelled by the user before it was sent"))
        if self._sender is None:
            return raised_when_awaited(RequestFailed("closed", "the session is not connected", "connect first"))
        return self._sender.send(call, method, params, capabilities, unbounded=unbounded)

    async def settle(self, call: int, method: str, work: Awaitable[Outcome]) -> Outcome:
        """``work``'s outcome; when it fails, the call ended as the failure says (``ended_by``)."""
        try:
            return await work
        except asyncio.CancelledError as cancelled:
            self.ledger.interrupted(call, cancel_reason(cancelled))
            raise
        except CALL_FAILURES as failure:
            return self.ended_by(call, method, failure, None)

    def ended_by(self, call: int, method: str, failure: Exception, capabilities: JsonObject | None) -> Outcome:
        """The one failure ladder: how a call ended, for every failure a call's work can raise (``CALL_FAILURES``).
        Both ``request`` and ``settle`` (the list, task, subscription and resend paths) end calls through it, so a
        failure reads the same whichever path met it."""
        ledger = self.ledger
        if isinstance(failure, RpcError):
            return self._rpc_failed(call, method, failure, capabilities)
        if isinstance(failure, RequestFailed):
            return ledger.failed(call, failure)
        if isinstance(failure, MalformedInputRequired):
            detail = f"{method} returned a malformed InputRequiredResult: {failure}; it was not retried"
            return ledger.end(call, "failed", detail, result=failure.result)
        if isinstance(failure, NoAnswer):
            code = "answer-refused" if isinstance(failure, AnswerRefused) else "no-answer"
            ledger.finding(lint.make(code, failure.reason, call=call))
            return ledger.end(call, "no-answer", failure.reason, hint=lint.CATALOG["no-answer"][1])
        if isinstance(failure, CallCancelled):
            return ledger.end(call, "cancelled", "the user cancelled the call")
        if isinstance(failure, RoundCapReached):
            ledger.finding(lint.make("round-cap", f"still input_required after {failure.rounds} rounds", call=call))
            return ledger.end(
                call,
                "round-cap",
                f"stopped after {failure.rounds} rounds; raise --max-rounds if the server needs more",
                result=failure.last,
            )
        raise failure

    def _rpc_failed(self, call: int, method: str, error: RpcError, capabilities: JsonObject | None) -> Outcome:
        # (a legacy server that turns our refusal of its request into an error for the call: the call ended because
        # nothing answered, or the user cancelled; that, not "error", is its status, and the error is kept)
        answerer = self.negotiated.server_requests if self.negotiated is not None else None
        if answerer is not None and call in answerer.cancelled:
            return self.ledger.end(call, "cancelled", "the user cancelled the call", error=error.to_json())
        if answerer is not None and call in answerer.unanswered:
            return self.ledger.end(
                call,
                "no-answer",
                answerer.unanswered[call],
                error=error.to_json(),
                hint=lint.CATALOG["no-answer"][1],
            )
        legacy = self.negotiated is not None and self.negotiated.legacy
        hint = explain(error, method, legacy=legacy, tasks_declared=self._declares_tasks(capabilities))
        return self.ledger.end(call, "error", f"{error.code} {error.message}", error=error.to_json(), hint=hint)

    # ------------------------------------------------------------------------------------------------ operations
    async def list_all(self, kind: CatalogKind, *, fresh: bool = False) -> Outcome:
        """Fetch every page of a catalog list; each page is a round of one call. ``result`` holds all items. With a
        cache, a list whose every page is fresh there is served from it (a call with no request); ``fresh``: ask
        the server whatever the cache holds (what it answers is kept again)."""
        served = self._from_cache(CATALOG[kind].list_method) if not fresh else None
        if served is not None:
            outcome = self.lister.from_cache(kind, served, self._whose(served))
        else:
            outcome = await self.lister.list_all(kind)
            self._keep(outcome)
        if kind == "tools" and outcome.ok:
            self.tools = self.lister.tools
        return outcome

    async def call_tool(
        self,
        name: str,
        arguments: JsonObject | None = None,
        *,
        capabilities: JsonObject | None = None,
        resends: int | None = None,
        started: Started | None = None,
    ) -> Outcome:
        """``tools/call``, driving MRTR rounds to the end (``resends``: the call it sends again, if it does;
        ``started``: see ``request``)."""
        params: JsonObject = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        return await self.request("tools/call", params, capabilities=capabilities, resends=resends, started=started)

    async def get_prompt(
        self,
        name: str,
        arguments: dict[str, str] | None = None,
        *,
        resends: int | None = None,
        started: Started | None = None,
    ) -> Outcome:
        """``prompts/get``, driving MRTR rounds to the end."""
        params: JsonObject = {"name": name}
        if arguments:
            params["arguments"] = arguments
        return await self.request("prompts/get", params, resends=resends, started=started)

    async def read_resource(
        self, uri: str, *, resends: int | None = None, started: Started | None = None, fresh: bool = False
    ) -> Outcome:
        """``resources/read``, driving MRTR rounds to the end. With a cache, a fresh read of ``uri`` is served from
        it (a call with no request); a resend, or ``fresh``, asks the server (and a result answered in one round is
        kept again)."""
        served = self._from_cache(READ, uri) if not fresh and resends is None else None
        if served is not None:
            call = self.ledger.start(READ, {"uri": uri})
            if started is not None:
                started(call)
            return self.ledger.served(call, served.pages[0], age_ms=served.age_ms, of=self._whose(served))
        outcome = await self.request(READ, {"uri": uri}, resends=resends, started=started)
        self._keep(outcome)
        return outcome

    # ------------------------------------------------------------------------------------------------ the cache
    def forget_cached(self) -> None:
        """Empty the cache (the TUI's refresh key): every later list and read asks the server."""
        if self.cache is not None:
            self.cache.clear()

    def _authorization(self) -> Authorization:
        """Who this session's private results belong to now: this session, and how many tokens its logins brought
        (a new token, a step-up's say, is another authorization context)."""
        tokens = sum(1 for step in self.timeline.auth if step.step in ("token", "refresh") and step.outcome == "ok")
        return self._cache_owner, tokens

    def _from_cache(self, method: str, uri: str | None = None) -> Served | None:
        """What the cache serves for a list (every page) or a read of ``uri``, at this session's version and
        authorization (None: no cache, not connected, or nothing fresh)."""
        cache, negotiated = self.cache, self.negotiated
        if cache is None or negotiated is None:
            return None
        owner = self._authorization()
        if uri is not None:
            return cache.read(uri, version=negotiated.version, owner=owner)
        return cache.list_pages(method, version=negotiated.version, owner=owner)

    def _whose(self, served: Served) -> int | None:
        """The call of this session whose result ``served`` is (None: a call of an earlier session)."""
        return served.call if served.owner[0] is self._cache_owner else None

    def _keep(self, outcome: Outcome) -> None:
        """Keep what the call got in the cache, if it may be kept (``ResultCache.keep``)."""
        cache, negotiated = self.cache, self.negotiated
        if cache is None or negotiated is None or not outcome.ok:
            return
        now = self.log.now()
        cache.keep(
            self.call(outcome.call_index),
            version=negotiated.version,
            owner=self._authorization(),
            ago_s=lambda at: max(now - at, 0.0),
        )

    async def request(
        self,
        method: str,
        params: JsonObject,
        *,
        capabilities: JsonObject | None = None,
        resends: int | None = None,
        started: Started | None = None,
    ) -> Outcome:
        """Any request as one call; MRTR is driven for the three methods that allow it. ``started`` is told the
        call's number as soon as it is on the timeline, before anything of it is sent: a face that lets a person
        cancel the call they have just asked for cancels that one (``cancel``), not the one shown before it."""
        ledger = self.ledger
        call = ledger.start(method, params, resends)
        if started is not None:
            started(call)
        sent = self._with_task_request(method, params, capabilities)
        tasks = self.tasks
        # Whether the request declares the Tasks extension, read once for what it may be answered with (read twice,
        # and the negotiated state through its property each time, it cost 2,400 instructions a load call:
        # tests/perf/bench_instructions.py --as-load --concurrency 10).
        declares = False
        if method == "tools/call":
            negotiated = self.negotiated
            legacy = negotiated is not None and negotiated.legacy
            declares = self._declares_tasks(capabilities)
            tasks.asking(call, asked_shape(method, sent, legacy=legacy, declared=declares and not legacy))
        try:
            result = await self._first_round(call, method, sent, capabilities)
            asks = is_input_required(result)
            if asks and method in INPUT_REQUIRED_METHODS:

                async def answer(key: str, request: JsonObject) -> JsonObject:
                    if tasks.cancel_asked(call):
                        raise CallCancelled  # (cancelled while the round's request waited: nobody is asked)
                    return await ledger.answer(call, key, request)

                async def retry(responses: JsonObject | None, state: str | None) -> JsonObject:
                    again = dict(params)
                    if responses is not None:
                        again["inputResponses"] = responses
                    if state is not None:
                        again["requestState"] = state
                    return await self._send(call, method, again, capabilities)

                result = (
                    await drive_input_required(result, answer=answer, retry=retry, max_rounds=self.max_rounds)
                ).result
            elif asks:
                return ledger.end(call, "failed", forbidden_input_required(method), result=result)
            shape = created_shape(method, sent, result, declared=declares)
            if shape is not None:
                tool = params.get("name")
                if tasks.cancel_asked(call):
                    self._held_back.discard(call)  # (its tasks/cancel, and the polls that show its end, must leave)
                named = tool if isinstance(tool, str) else None
                return await tasks.follow(call, result, shape, capabilities, tool=named)
        except asyncio.CancelledError as cancelled:
            ledger.interrupted(call, cancel_reason(cancelled))
            raise
        except CALL_FAILURES as failure:
            return self.ended_by(call, method, failure, capabilities)
        finally:
            self._held_back.discard(call)
            cancelled_early = tasks.cancel_asked(call)
            tasks.forget(call)
        negotiated = self.negotiated
        answerer = negotiated.server_requests if negotiated is not None else None
        if answerer is not None and call in answerer.cancelled:
            return ledger.end(call, "cancelled", "the user cancelled the call", result=result)
        if answerer is not None and call in answerer.unanswered:
            return ledger.end(call, "no-answer", answerer.unanswered[call], result=result)
        if cancelled_early and result.get("resultType") in (None, "complete"):
            # A cancel only asks: the server answered first, and its answer is how the call ended.
            answered: CallStatus = "tool-error" if result.get("isError") is True else "complete"
            return ledger.end(call, answered, "cancel was asked, and the server answered first", result=result)
        result_type = result.get("resultType")
        if result_type == "task":
            detail = (
                f"{method} answered a task to a request that did not declare the Tasks extension: an invalid response"
            )
            return ledger.end(call, "failed", detail, result=result)
        if result_type is not None and result_type not in RESULT_TYPES:
            return ledger.end(
                call,
                "failed",
                f"{method} answered resultType {result_type!r}, which is not a result type: an invalid response",
                result=result,
            )
        status: CallStatus = "tool-error" if result.get("isError") is True else "complete"
        if result_type is None or result_type == "complete":
            return ledger.ended_by_wire(call, status, result)
        return ledger.end(call, status, result=result)

    async def _first_round(
        self, call: int, method: str, params: JsonObject, capabilities: JsonObject | None
    ) -> JsonObject:
        """The request; in the legacy era a -32042 (URL elicitation required) is surfaced as input requests: each
        URL is put to the answers source (consent, never a fetch) and, once all are accepted, the request is sent
        again with a new id, as a 2025-11-25 client does after the user finished in the browser."""
        for attempt in range(self.max_rounds):
            try:
                return await self._send(call, method, params, capabilities)
            except RpcError as error:
                wanted = url_elicitations(error.data)
                legacy = self.negotiated is not None and self.negotiated.legacy
                if error.code != URL_ELICITATION_REQUIRED or not legacy or not wanted:
                    raise
                if attempt + 1 >= self.max_rounds:
                    raise RoundCapReached(attempt + 1, error.to_json()) from None
                for index, elicitation in enumerate(wanted):
                    request: JsonObject = {"method": "elicitation/create", "params": {"mode": "url", **elicitation}}
                    response = await self.ledger.answer(call, elicitation_key(elicitation, index), request)
                    if response.get("action") != "accept":
                        raise RpcError(
                            error.code, f"{error.message} (the user answered {response.get('action')!r})", error.data
                        ) from None
        raise AssertionError("unreachable")  # pragma: no cover

    async def listen(self, notifications: JsonObject, stop: asyncio.Event) -> Outcome:
        """``subscriptions/listen`` for ``notifications`` until the server ends it, it is lost, or ``stop`` is set
        (see ``Subscriber.listen``)."""
        return await self.subscriber.listen(notifications, stop)

    async def subscribe(self, uris: list[str], stop: asyncio.Event) -> Outcome:
        """2025-11-25 resource subscriptions until ``stop`` is set (see ``Subscriber.subscribe``)."""
        return await self.subscriber.subscribe(uris, stop)

    async def look_at_task(self, task_id: str, action: Literal["get", "wait", "cancel"] = "get") -> Outcome:
        """A task made earlier, by its id (after a restart: seed 004's "a new client, tasks/get on another
        instance"): ``get`` asks for its status once, ``wait`` follows it to its end, ``cancel`` asks the server
        to cancel it and follows it to what it really did."""
        call = self.ledger.start("tasks/get", {"taskId": task_id})
        legacy = self.negotiated is not None and self.negotiated.legacy
        watched = self.tasks.watch(call, task_id, action, legacy=legacy, capabilities=None)
        return await self.settle(call, "tasks/get", watched)

    async def cancel(self, call: int) -> bool:
        """Cancel a call in flight: a task with ``tasks/cancel`` (cooperative: it may still complete); anything
        else on the wire (stdio: notifications/cancelled; HTTP: close its stream). A call with nothing on the wire
        (just started, or between two rounds) sends nothing more: its next request ends it cancelled instead of
        leaving. False: nothing of it was on the wire (a caller waiting on something else, an answer, stops it).

        A ``tools/call`` that may be answered with a task, cancelled while it waits for its reply, is cancelled
        twice over: the task its reply names is cancelled as soon as the id comes (``tasks/cancel`` before any
        poll; the call ends as the server then reports). A 2025-11-25 task-augmented request sends nothing else
        (``tasks/cancel`` MUST be used for it, never ``notifications/cancelled``). A 2026 one may still be answered
        without a task, so it is cancelled as any request is; over stdio it then waits ``REPLY_GRACE_S`` for a reply
        the server sent before it read the cancel."""
        tasks = self.tasks
        if tasks.cancel(call):
            return True
        shape = tasks.asked(call)
        if shape is not None and not any(pending.call == call for _, pending in self.connection.waiting()):
            shape = None  # (between its rounds: the request that may name a task is not out)
        if shape == "ext-2026" and not declares_tasks(self.timeline.server_capabilities or {}):
            shape = None  # a server that does not offer the extension answers without a task
        if shape is not None:
            tasks.cancel_when_created(call)
            if shape == "legacy-2025":
                return True
        grace = REPLY_GRACE_S if shape is not None and self.transport.kind != "http" else None
        if await self.connection.cancel_call(call, reply_grace_s=grace) > 0:
            return True
        found = self.timeline.call(call)
        if found is not None and found.in_flight:
            self._held_back.add(call)
        # A reply in hand (its caller not resumed yet) is the server's answer: its caller reads it (a task it names
        # is cancelled then), and nothing more of the call is sent.
        return shape is not None or any(pending.call == call for _, pending in self.connection.waiting())

    # ------------------------------------------------------------------------------------------------ tasks
    def _with_task_request(self, method: str, params: JsonObject, capabilities: JsonObject | None) -> JsonObject:
        negotiated = self.negotiated
        if method != "tools/call" or negotiated is None or not negotiated.legacy:
            return params
        return with_task_request(
            params,
            declared=self._declares_tasks(capabilities),
            server_capabilities=self.timeline.server_capabilities,
            tool=self.tools.get(str(params.get("name"))),
        )

    def _declares_tasks(self, capabilities: JsonObject | None) -> bool:
        """A request declares the Tasks extension: in its own capabilities, else in the session's."""
        return declares_tasks(capabilities if capabilities is not None else self.options.capabilities)

    async def close(self) -> None:
        """End the subscriptions still open (the client ends them), close the connection (bounded), with every
        record written, and close the recording."""
        await self.subscriber.end_all()
        await self.connection.close()
        self.log.flush()
        if self.log.recorder is not None:
            self.log.recorder.close()
        if self.heap is not None:
            self.heap.session_closed()


__all__ = ["ConnectError", "EraMode", "InspectorSession"]
