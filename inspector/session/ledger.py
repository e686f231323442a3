"""The call ledger: every call a session makes is started, answered and ended here, as records in its log.

The session and its handshake ask the ledger; nothing else writes call events. A call whose final reply says how it
ended needs no end record (the builder derives it from the wire, see ``TimelineBuilder``); any other end (no
answer, the round cap, a failure, a cancel) is written once the records queued before it are applied.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from inspector.answers.source import AnswerSource, ask
from inspector.protocol.jsonrpc import JsonObject
from inspector.session.errors import RequestFailed
from inspector.session.heap import HeapPolicy
from inspector.session.session_log import SessionLog
from inspector.timeline import findings as lint
from inspector.timeline import records
from inspector.timeline.model import CallStatus, Finding
from inspector.timeline.outcome import Outcome

Settle = Callable[[int, str, Awaitable[Outcome]], Awaitable[Outcome]]
"""Runs a call's work to its outcome, ending the call as a failure says when the work fails: a JSON-RPC error (with
what to try), a request that failed, an interruption (``InspectorSession.settle``)."""


class CallLedger:
    """Starts and ends calls, records answers and findings, in one session's log."""

    def __init__(self, log: SessionLog, answers: AnswerSource, heap: HeapPolicy | None = None) -> None:
        self.log = log
        self.answers = answers
        self.heap = heap
        self._started = 0

    def start(self, method: str, params: JsonObject, resends: int | None = None) -> int:
        """A new call on the timeline (``resends``: the call it sends again); returns its number."""
        self._started += 1
        self.log.queue(records.call_started(self.log.now(), self._started, method, params, resends=resends))
        return self._started

    async def answer(self, call: int, key: str, request: JsonObject) -> JsonObject:
        """Ask the answers source for one input request of ``call``; the answer and who gave it are recorded."""
        # (the answer chain validates each answer with jsonschema, ~60 ms to import: imported here, before the
        # answer's clock starts, so it is never counted in an answer's time, and a session whose calls ask nothing,
        # such as a one-shot `inspector call`, never loads it)
        import inspector.answers.validation  # noqa: F401

        given = await ask(self.answers, key, request, self.log.clock)
        self.log.write(records.answer_given(self.log.now(), call, key, given))
        return given.response

    def finding(self, found: Finding) -> None:
        """A finding the session raised (the wire's own are derived by the builder)."""
        self.log.write(records.finding(self.log.now(), found))

    def end(
        self,
        call: int,
        status: CallStatus,
        detail: str = "",
        *,
        result: JsonObject | None = None,
        error: JsonObject | None = None,
        hint: str = "",
    ) -> Outcome:
        """End ``call``; the end record is written unless the final reply already said the same."""
        log = self.log
        t = log.now()

        def record_the_end() -> None:
            # Runs once the final reply is on the timeline (it may still be queued: see session_log).
            found = log.call(call)
            if found.status != status or detail or found.finished_at is None:
                log.write(records.call_ended(t, call, status, detail))

        log.after_queued(record_the_end)
        return self._finished(Outcome(call, status, result, error, detail, hint))

    def served(self, call: int, result: JsonObject, *, age_ms: float, of: int | None, pages: int = 1) -> Outcome:
        """``call`` answered from the client's cache, nothing sent: the record says so (and ends it complete)."""
        self.log.write(records.served_from_cache(self.log.now(), call, result, age_ms=age_ms, of=of, pages=pages))
        return self._finished(Outcome(call, "complete", result))

    def ended_by_wire(self, call: int, status: CallStatus, result: JsonObject) -> Outcome:
        """A call whose final reply says how it ended (resultType complete, or none): the builder ends it on that
        reply with this same status, so there is no end record to write."""
        return self._finished(Outcome(call, status, result))

    def interrupted(self, call: int, reason: str | None = None) -> None:
        """The caller's task was cancelled (Ctrl-C, a UI worker replaced, a load run's drain: ``reason``, when the
        canceller said): the call still ends, on the timeline and in the recording, instead of staying pending."""
        self.end(call, "cancelled", reason or "interrupted before the call finished")

    def failed(self, call: int, failure: RequestFailed) -> Outcome:
        """End a call that got no usable response; a timeout or the server going away is also a finding."""
        code = {"timeout": "timeout", "closed": "disconnected"}.get(failure.kind)
        if code is not None:
            self.finding(lint.make(code, failure.message, call=call))
        status: CallStatus = "cancelled" if failure.kind == "cancelled" else "failed"
        detail = f"{failure.message} ({failure.hint})" if failure.hint else failure.message
        return self.end(call, status, detail)

    def _finished(self, outcome: Outcome) -> Outcome:
        if self.heap is not None:
            self.heap.call_finished()
        redactor = self.log.redactor
        if redactor is not None:  # what a face prints from the outcome is as redacted as the timeline
            return Outcome(
                outcome.call_index,
                outcome.status,
                redactor.redact_value(outcome.result),
                redactor.redact_value(outcome.error),
                redactor.redact(outcome.detail),
                redactor.redact(outcome.hint),
            )
        return outcome
