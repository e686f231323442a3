"""What the server sends of its own accord, applied to the timeline: every s2c record is dispatched here (a
response goes to ``build_wire``), notifications land on the round they belong to (by progress token, task id or
the stream that carried them), and server requests become a round of the call they interrupted, or a session row.
Functions over the builder's ``BuildState``.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.protocol.jsonrpc import JsonObject, WireParse
from inspector.protocol.methods import INPUT_REQUEST_METHODS
from inspector.protocol.sanitize import one_line
from inspector.session import build_tasks, build_wire
from inspector.session import findings as lint
from inspector.session.build_state import BuildState
from inspector.session.http_info import HttpInfo
from inspector.session.records import Record, undecodable_bytes
from inspector.session.timeline import Call, ConsoleLine, Round, WireMessage
from inspector.session.timeline_events import RoundStarted, RoundUpdated, SessionRowChanged


def incoming(state: BuildState, record: Record, t: float, parsed: WireParse) -> None:
    http = HttpInfo.from_json(record["http"]) if "http" in record else None
    reply_to = record.get("reply_to")
    if record.get("note") == "sse":
        on = f"the stream of request {reply_to!r}" if reply_to is not None else "the GET stream"
        state.console(ConsoleLine(t, "transport", f"SSE on {on}, no message: {one_line(parsed.raw, 300)}", "debug"))
        return
    undecodable = undecodable_bytes(record) if "bytes" in record else None
    wire = WireMessage(parsed.raw, t, "s2c", parsed.message, http, undecodable)
    if undecodable is not None or (http is not None and build_wire.odd_content_type(http)):
        build_wire.wire_problems(state, wire, build_wire.owner(state, parsed, reply_to))
    if parsed.kind in ("response", "error"):
        build_wire.response(state, parsed, wire, reply_to)
    elif parsed.kind == "notification":
        _notification(state, parsed, wire, reply_to)
    elif parsed.kind == "request":
        _server_request(state, parsed, wire, reply_to)
    else:
        state.timeline.unmatched.append(wire)
        excerpt = parsed.raw if len(parsed.raw) <= 120 else parsed.raw[:117] + "..."
        state.finding(lint.make("invalid-message", f"{parsed.problem}: {excerpt!r}"))


def _notification(state: BuildState, parsed: WireParse, wire: WireMessage, reply_to: Any) -> None:
    message = parsed.message or {}
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    assert isinstance(params, dict)
    target: tuple[Call, Round] | None = None
    if parsed.method in build_tasks.TASK_NOTIFICATIONS:
        target = build_tasks.notified(state, parsed.method or "", params, wire.at)
        if target is not None:
            target[1].notifications.append(wire)
            build_wire.derive_status(state, target[0], target[1], wire.at)
            state.timeline.emit(RoundUpdated(*target))
            return
    token = params.get("progressToken")
    token = token if isinstance(token, int | str) else None  # a malformed token (a list) must not break lookup
    if parsed.method == "notifications/progress" and token in state.progress:
        round_ = state.progress[token]
        target = (_call_of(state, round_), round_)
    elif isinstance(reply_to, int | str) and reply_to in state.in_flight:
        flight = state.in_flight[reply_to]
        target = (flight.call, flight.round)
    elif state.in_flight:
        flight = list(state.in_flight.values())[-1]
        target = (flight.call, flight.round)
    if parsed.method == "notifications/message":
        level = params.get("level")
        data = params.get("data")
        text = data if isinstance(data, str) else classify_text(data)
        logger = params.get("logger")
        prefix = f"{logger}: " if isinstance(logger, str) else ""
        state.console(ConsoleLine(wire.at, "log", prefix + text, str(level) if level is not None else None))
    if target is None:
        state.timeline.unmatched.append(wire)
        return
    call, round_ = target
    if parsed.method == "notifications/progress":
        _check_progress(state, call, round_, params)
    if call.ended and not round_.late and call.task is None:
        round_.late = True
        state.on_round("late-notification", f"{parsed.method} came after the call ended {call.status}", call, round_)
    round_.notifications.append(wire)
    state.timeline.emit(RoundUpdated(call, round_))


def _check_progress(state: BuildState, call: Call, round_: Round, params: JsonObject) -> None:
    """Progress MUST increase: a value that goes back is a finding (once a round)."""
    value = params.get("progress")
    if not isinstance(value, int | float) or isinstance(value, bool):
        return
    previous = [
        n.message["params"].get("progress")
        for n in round_.notifications
        if n.message is not None
        and n.message.get("method") == "notifications/progress"
        and isinstance(n.message.get("params"), dict)
    ]
    earlier = [p for p in previous if isinstance(p, int | float) and not isinstance(p, bool)]
    if earlier and value <= earlier[-1] and not any(f.code == "progress-not-increasing" for f in round_.findings):
        state.on_round("progress-not-increasing", f"progress went from {earlier[-1]} to {value}", call, round_)


def _call_of(state: BuildState, round_: Round) -> Call:
    for call in reversed(state.timeline.calls):
        if round_ in call.rounds:
            return call
    raise LookupError("round without a call")


def _server_request(state: BuildState, parsed: WireParse, wire: WireMessage, reply_to: Any) -> None:
    message = parsed.message or {}
    params = message.get("params")
    call = state.owner_of_server_request(reply_to, parsed.method, params)
    if call is None:
        _session_row(state, parsed, wire, params)
        return
    round_ = Round(
        index=len(call.rounds) + 1,
        kind="server-request",
        request_id=parsed.id,
        method=parsed.method or "",
        request=wire,
    )
    if parsed.method in INPUT_REQUEST_METHODS:
        request: JsonObject = {"method": parsed.method}
        if isinstance(params, dict):
            request["params"] = params
        round_.input_requests = {"": request}
    if state.timeline.era is not None and state.timeline.era.era == "modern":
        state.on_round("server-request-in-modern", f"the server sent a {parsed.method} request", call, round_)
    call.rounds.append(round_)
    build_wire.check_forms(state, call, round_)
    if parsed.id is not None:
        state.server_requests[parsed.id] = (call, round_)
    state.timeline.emit(RoundStarted(call, round_))


def _session_row(state: BuildState, parsed: WireParse, wire: WireMessage, params: Any) -> None:
    """A server request of no call: a row of the session, never a round of a call, never its status."""
    round_ = Round(
        index=len(state.timeline.session) + 1,
        kind="server-request",
        request_id=parsed.id,
        method=parsed.method or "",
        request=wire,
    )
    if parsed.method in INPUT_REQUEST_METHODS:
        request: JsonObject = {"method": parsed.method}
        if isinstance(params, dict):
            request["params"] = params
        round_.input_requests = {"": request}
    state.timeline.session.append(round_)
    if parsed.id is not None:
        state.server_requests[parsed.id] = (None, round_)
    state.timeline.emit(SessionRowChanged(round_))


def classify_text(value: Any) -> str:
    """A log payload that is not a string, as compact JSON."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
