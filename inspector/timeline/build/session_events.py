"""The session's event records (a call started, an answer given, a call ended, a finding, the era, a fault, the
end of the connection): what the wire cannot tell, applied to the Timeline. Functions over ``BuildState``."""

from __future__ import annotations

from inspector.answers.source import PARTIES
from inspector.protocol.json_values import json_int, json_number
from inspector.timeline.build import listen as build_listen
from inspector.timeline.build.state import BuildState
from inspector.timeline.cache_span import FromCache
from inspector.timeline.model import (
    Call,
    CallFinished,
    CallStarted,
    ConsoleLine,
    EraDecision,
    Finding,
    GivenAnswer,
    RoundUpdated,
    SessionChanged,
    SessionRowChanged,
)
from inspector.timeline.records import Record
from inspector.timeline.time_split import party_of


def event(state: BuildState, record: Record, t: float) -> None:
    name = record.get("event")
    if name == "call":  # (first, and before the lookup: the call it starts is not there yet)
        method = str(record.get("method", ""))
        params = record.get("params") if isinstance(record.get("params"), dict) else {}
        assert isinstance(params, dict)
        new = Call(
            state.timeline.next_index, method, params, t
        )  # (index, method, params, started_at; positional: see protocol.values)
        resends = json_int(record.get("resends"))
        if resends is not None and 1 <= resends < new.index:
            new.resends = resends
        state.timeline.calls.append(new)
        if state.timeline.listeners:
            state.timeline.emit(CallStarted(new))
        return
    call = state.timeline.call(record["call"]) if isinstance(record.get("call"), int) else None
    if name == "answer" and call is not None:
        _answer(state, call, record, t)
    elif name == "answer":
        _session_answer(state, record, t)
    elif name == "end" and call is not None:
        call.status = record.get("status", "failed")
        call.status_detail = str(record.get("detail", ""))
        call.finished_at = t
        for request_id in [rid for rid, flight in state.in_flight.items() if flight.call is call]:
            flight = state.in_flight.pop(request_id)
            flight.round.abandoned = call.status  # the round ends with its call: never pending forever
            state.abandoned[request_id] = flight
        build_listen.ended(call)
        state.timeline.emit(CallFinished(call))
    elif name == "cached" and call is not None:
        _served_from_cache(state, call, record, t)
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
        state.finding(found, call, round_)
    elif name == "era":
        state.timeline.era = EraDecision(
            record.get("era", "modern"), str(record.get("version", "")), str(record.get("why", ""))
        )
        if state.timeline.era.era == "legacy":
            state.legacy_version = state.timeline.era.version
        state.timeline.connected = True
        state.timeline.emit(SessionChanged())
    elif name == "fault":
        state.console(ConsoleLine(t, "transport", f"{record.get('message', '')} ({record.get('hint', '')})", "error"))
    elif name == "instance" and isinstance(record.get("request"), int | str):
        state.instances[record["request"]] = str(record.get("instance", ""))
    elif name == "closed":
        state.timeline.connected = False
        state.timeline.disconnect_reason = str(record.get("reason", ""))
        state.console(ConsoleLine(t, "transport", f"connection closed: {state.timeline.disconnect_reason}", "info"))
        state.timeline.emit(SessionChanged())


def _served_from_cache(state: BuildState, call: Call, record: Record, t: float) -> None:
    """The call got its result from the client's cache: it ends complete at once, with no round."""
    result = record.get("result")
    age = json_number(record.get("age_ms"))
    of = json_int(record.get("of"))
    pages = json_int(record.get("pages"))
    call.cached = FromCache(
        result if isinstance(result, dict) else {}, age or 0.0, of, pages if pages is not None and pages > 0 else 1
    )
    call.status = "complete"
    call.finished_at = t
    state.timeline.emit(CallFinished(call))


def _given(record: Record, t: float) -> GivenAnswer:
    """An answer record read back; one made before answers said whose time they took (``party``, ``model_ms``)
    is read by its source (``time_split.party_of``)."""
    key = record.get("key")
    response = record.get("response") if isinstance(record.get("response"), dict) else {}
    assert isinstance(response, dict)
    source = str(record.get("source", ""))
    party = record.get("party")
    model_ms = record.get("model_ms")
    return GivenAnswer(
        key if isinstance(key, str) else None,
        response,
        source,
        t,
        party if party in PARTIES else party_of(source),
        float(model_ms) if isinstance(model_ms, int | float) and not isinstance(model_ms, bool) else None,
    )


def _session_answer(state: BuildState, record: Record, t: float) -> None:
    """Our answer to a server request of no call (a session row)."""
    server_request = record.get("server_request")
    waiting = state.server_requests.get(server_request) if isinstance(server_request, int | str) else None
    if waiting is not None and waiting[0] is None:  # (found even once newer rows pushed it out of the kept ones)
        waiting[1].answers.append(_given(record, t))
        state.timeline.emit(SessionRowChanged(waiting[1]))
        return
    for round_ in reversed(state.timeline.session):
        if round_.request_id == server_request:
            round_.answers.append(_given(record, t))
            state.timeline.emit(SessionRowChanged(round_))
            return


def _answer(state: BuildState, call: Call, record: Record, t: float) -> None:
    given = _given(record, t)
    server_request = record.get("server_request")
    waiting = state.server_requests.get(server_request) if isinstance(server_request, int | str) else None
    if waiting is not None and waiting[1].folded:  # (a request past the call's first: not among its rounds)
        waiting[1].answers.append(given)
        return
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
    state.timeline.emit(RoundUpdated(call, round_))
