"""The session's event records (a call started, an answer given, a call ended, a finding, the era, a fault, the
end of the connection): what the wire cannot tell, applied to the Timeline."""

from __future__ import annotations

from inspector.session.builder_state import BuilderState
from inspector.session.records import Record
from inspector.session.timeline import (
    Call,
    CallFinished,
    CallStarted,
    ConsoleLine,
    EraDecision,
    Finding,
    GivenAnswer,
    RoundUpdated,
    SessionChanged,
)


class EventRecords(BuilderState):
    """Applies event records."""

    def _event(self, record: Record, t: float) -> None:
        name = record.get("event")
        call = self.timeline.call(record["call"]) if isinstance(record.get("call"), int) else None
        if name == "call":
            method = str(record.get("method", ""))
            params = record.get("params") if isinstance(record.get("params"), dict) else {}
            assert isinstance(params, dict)
            new = Call(index=len(self.timeline.calls) + 1, method=method, params=params, started_at=t)
            self.timeline.calls.append(new)
            if self.timeline.listeners:
                self.timeline.emit(CallStarted(new))
        elif name == "answer" and call is not None:
            self._answer(call, record)
        elif name == "end" and call is not None:
            call.status = record.get("status", "failed")
            call.status_detail = str(record.get("detail", ""))
            call.finished_at = t
            for request_id in [rid for rid, flight in self._in_flight.items() if flight.call is call]:
                del self._in_flight[request_id]
            self.timeline.emit(CallFinished(call))
        elif name == "finding":
            found = Finding(
                code=str(record.get("code", "")),
                severity=record.get("severity", "warning"),
                message=str(record.get("message", "")),
                hint=str(record.get("hint", "")),
                call_index=record.get("call") if isinstance(record.get("call"), int) else None,
                round_index=record.get("round") if isinstance(record.get("round"), int) else None,
            )
            round_ = (
                call.rounds[found.round_index - 1]
                if call is not None and found.round_index and found.round_index <= len(call.rounds)
                else None
            )
            self._finding(found, call, round_)
        elif name == "era":
            self.timeline.era = EraDecision(
                record.get("era", "modern"), str(record.get("version", "")), str(record.get("why", ""))
            )
            if self.timeline.era.era == "legacy":
                self.legacy_version = self.timeline.era.version
            self.timeline.connected = True
            self.timeline.emit(SessionChanged())
        elif name == "fault":
            self._console(
                ConsoleLine(t, "transport", f"{record.get('message', '')} ({record.get('hint', '')})", "error")
            )
        elif name == "closed":
            self.timeline.connected = False
            self.timeline.disconnect_reason = str(record.get("reason", ""))
            self._console(ConsoleLine(t, "transport", f"connection closed: {self.timeline.disconnect_reason}", "info"))
            self.timeline.emit(SessionChanged())

    def _answer(self, call: Call, record: Record) -> None:
        key = record.get("key")
        response = record.get("response") if isinstance(record.get("response"), dict) else {}
        assert isinstance(response, dict)
        given = GivenAnswer(key if isinstance(key, str) else None, response, str(record.get("source", "")))
        server_request = record.get("server_request")
        for round_ in reversed(call.rounds):
            if server_request is not None and round_.kind == "server-request" and round_.request_id == server_request:
                break
            if server_request is None and round_.kind == "request" and given.key in round_.input_requests:
                break
        else:
            round_ = call.rounds[-1] if call.rounds else None  # type: ignore[assignment]
        if round_ is None:
            return
        round_.answers.append(given)
        self.timeline.emit(RoundUpdated(call, round_))
