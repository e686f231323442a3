"""The state and bookkeeping of an ``InspectorSession``, shared by its handshake and its operations."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal

from inspector.answers.base import AnswerSource
from inspector.protocol.envelope import (
    DEFAULT_CAPABILITIES,
    LATEST_LEGACY,
    LATEST_MODERN,
    Envelope,
)
from inspector.protocol.headers import protocol_headers
from inspector.protocol.jsonrpc import JsonObject
from inspector.session import findings as lint
from inspector.session import heap, records
from inspector.session.connection import Connection
from inspector.session.errors import RequestFailed
from inspector.session.legacy import ServerRequestAnswerer
from inspector.session.mrtr import (
    DEFAULT_MAX_ROUNDS,
)
from inspector.session.outcome import Outcome
from inspector.session.recorder import Recorder
from inspector.session.session_log import SessionLog
from inspector.session.timeline import CallStatus, Finding, Timeline
from inspector.transport.base import Transport

EraMode = Literal["auto", "modern", "legacy"]
PROBE_TIMEOUT_S = 10.0


class ConnectError(Exception):
    """The session could not be established; ``hint`` says what to try."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class SessionBase:
    """The state of a session and the bookkeeping every operation shares: calls started and ended, answers,
    findings, failures. ``SessionHandshake`` adds connecting and sending; ``InspectorSession`` the operations."""

    def __init__(
        self,
        transport: Transport,
        answers: AnswerSource,
        *,
        era: EraMode = "auto",
        capabilities: JsonObject | None = None,
        max_rounds: int = DEFAULT_MAX_ROUNDS,
        timeout: float = 60.0,
        probe_timeout: float = PROBE_TIMEOUT_S,
        recorder: Recorder | None = None,
        clock: Callable[[], float] = time.monotonic,
        timeline: Timeline | None = None,
        legacy_offer: str = LATEST_LEGACY,
    ) -> None:
        self.transport = transport
        self.answers = answers
        self.era_mode: EraMode = era
        self.capabilities: JsonObject = dict(DEFAULT_CAPABILITIES if capabilities is None else capabilities)
        self._session_envelope: Envelope | None = None
        """The ``_meta`` of this session's modern requests, encoded once (see ``SessionHandshake._envelope``)."""
        self.max_rounds = max_rounds
        self.timeout = timeout
        self.probe_timeout = probe_timeout
        self.log = SessionLog(clock, recorder, timeline)
        self.log.timeline.target = transport.describe()
        self.log.timeline.transport = transport.kind
        self.connection = Connection(transport, self.log)
        self.version: str = LATEST_MODERN
        self.legacy_offer = legacy_offer
        """The version offered in ``initialize`` (legacy era)."""
        self.legacy = False
        self._answerer: ServerRequestAnswerer | None = None
        self._progress_tokens = 0
        self._calls_started = 0
        self.tools: dict[str, JsonObject] = {}
        """Tools from the last tools/list, by name (their inputSchema gives the Mcp-Param-* headers)."""

    @property
    def timeline(self) -> Timeline:
        """The model every face reads."""
        return self.log.timeline

    def _headers(self, method: str, params: JsonObject) -> dict[str, str]:
        """Mcp-Method, Mcp-Name and the tool's Mcp-Param-* headers (HTTP only; stdio has no headers)."""
        tool = self.tools.get(str(params.get("name"))) if method == "tools/call" else None
        schema = tool.get("inputSchema") if tool is not None else None
        return protocol_headers(method, params, None, schema if isinstance(schema, dict) else None)

    async def _answer(self, call: int, key: str, request: JsonObject) -> JsonObject:
        answer = await self.answers.answer(key, request)
        self.log.write(records.answer_given(self.log.now(), call, key, answer.response, answer.source))
        return answer.response

    def _start_call(self, method: str, params: JsonObject) -> int:
        self._calls_started += 1
        self.log.queue(records.call_started(self.log.now(), self._calls_started, method, params))
        return self._calls_started

    def _end_call(
        self,
        call: int,
        status: CallStatus,
        detail: str = "",
        *,
        result: JsonObject | None = None,
        error: JsonObject | None = None,
    ) -> Outcome:
        log = self.log
        t = log.now()
        found = log.call(call)

        def settle() -> None:
            # Runs once the final reply is on the timeline (it may still be queued: see session_log). When the
            # wire did not already say how the call ended (TimelineBuilder._derive_status), record it.
            if found.status != status or detail or found.finished_at is None:
                log.write(records.call_ended(t, call, status, detail))

        log.after_queued(settle)
        heap.call_finished()
        return Outcome(found, status, result, error, detail, settle=log.flush)

    def _ended_by_wire(self, call: int, status: CallStatus, result: JsonObject) -> Outcome:
        """A call whose final reply says how it ended (resultType complete, or none): the builder ends it on that
        reply with this same status (TimelineBuilder._derive_status), so there is no end record to write, and
        nothing to wait for while the reply's bookkeeping is still queued."""
        heap.call_finished()
        return Outcome(self.log.call(call), status, result, settle=self.log.flush)

    def _finding(self, found: Finding) -> None:
        self.log.write(records.finding(self.log.now(), found))

    def _interrupted(self, call: int) -> None:
        """The caller's task was cancelled (Ctrl-C, a UI worker replaced): the call still ends, on the timeline
        and in the recording, instead of staying pending forever."""
        self._end_call(call, "cancelled", "interrupted before the call finished")

    def _request_failed(self, call: int, failure: RequestFailed) -> Outcome:
        """End a call that got no usable response; a timeout or the server going away is also a finding."""
        code = {"timeout": "timeout", "closed": "disconnected"}.get(failure.kind)
        if code is not None:
            self._finding(lint.make(code, failure.message, call=call))
        status: CallStatus = "cancelled" if failure.kind == "cancelled" else "failed"
        return self._end_call(call, status, _failure_text(failure))


def forbidden_input_required(method: str) -> str:
    return f"{method} answered input_required, which only tools/call, prompts/get and resources/read may do"


def _failure_text(failure: RequestFailed) -> str:
    return f"{failure.message} ({failure.hint})" if failure.hint else failure.message
