"""Our requests and their responses applied to the timeline: everything the wire can tell is derived here from
the exact text (rounds, responses, result types, requestState and its echo, status, lint), so a live session and
the replay of its recording build the same model; what the server sends of its own accord (notifications, server
requests) is ``build_server``'s. Functions over the builder's ``BuildState``.
"""

from __future__ import annotations

from typing import Any

from inspector.protocol.elicitation_schema import unsupported_reason
from inspector.protocol.envelope import META_PROTOCOL_VERSION, META_SERVER_INFO, is_modern
from inspector.protocol.jsonrpc import JsonObject, WireParse
from inspector.protocol.methods import RESULT_TYPES, allows_input_required
from inspector.protocol.sanitize import has_hidden, one_line
from inspector.session import build_tasks
from inspector.session import findings as lint
from inspector.session.build_state import BuildState, InFlight
from inspector.session.http_info import HttpInfo
from inspector.session.records import Record
from inspector.session.timeline import Call, CallStatus, RequestState, Round, WireMessage
from inspector.session.timeline_events import (
    CallFinished,
    RoundStarted,
    RoundUpdated,
    SessionChanged,
    SessionRowChanged,
)
from inspector.session.url_elicitation import URL_ELICITATION_REQUIRED, elicitation_key, url_elicitations


def outgoing(state: BuildState, record: Record, t: float, parsed: WireParse) -> None:
    http = HttpInfo.from_json(record["http"]) if "http" in record else None
    wire = WireMessage(parsed.raw, t, "c2s", parsed.message, http)
    index = record.get("call")
    call = state.timeline.call(index) if isinstance(index, int) else None
    if parsed.kind == "request" and parsed.id is not None and call is not None:
        _start_round(state, call, parsed, wire)
    elif parsed.kind in ("response", "error") and parsed.id is not None and parsed.id in state.server_requests:
        owner, round_ = state.server_requests.pop(parsed.id)
        round_.response = wire
        round_.result_type = "error" if parsed.kind == "error" else "complete"
        if parsed.kind == "error" and parsed.message is not None:
            round_.error = parsed.message.get("error")
        state.timeline.emit(RoundUpdated(owner, round_) if owner is not None else SessionRowChanged(round_))
    elif call is not None and call.rounds:
        call.rounds[-1].notifications.append(wire)
        state.timeline.emit(RoundUpdated(call, call.rounds[-1]))
    else:
        state.timeline.unmatched.append(wire)


def _start_round(state: BuildState, call: Call, parsed: WireParse, wire: WireMessage) -> None:
    message = parsed.message or {}
    params = message.get("params")
    if not isinstance(params, dict):
        params = {}
    meta = params.get("_meta")
    if not isinstance(meta, dict):
        meta = {}
    version = meta.get(META_PROTOCOL_VERSION)
    if not isinstance(version, str):
        version = None
    echoed = params.get("requestState")
    round_ = Round(
        index=len(call.rounds) + 1,
        kind="request",
        request_id=parsed.id,
        method=parsed.method or call.method,
        request=wire,
        echoed_state=echoed if isinstance(echoed, str) else None,
    )
    previous = call.final_round if call.rounds else None
    if previous is not None and previous.request_state is not None and previous.result_type == "input_required":
        previous.request_state.echoed = round_.echoed_state == previous.request_state.value
        if not previous.request_state.echoed:
            state.on_round("state-not-echoed", "the retry did not carry the requestState unchanged", call, round_)
    token = meta.get("progressToken")
    token = token if isinstance(token, int | str) else None
    if token is not None:
        state.progress[token] = round_
    call.rounds.append(round_)
    if call.task is None:
        call.status, call.finished_at = "pending", None  # a retry or the next page: the call goes on
    else:
        build_tasks.cancel_sent(call, round_)
        call.status = build_tasks.call_status(call) or "working"  # a poll does not make the task pending again
    assert parsed.id is not None
    state.in_flight[parsed.id] = InFlight(call, round_, version, token)
    if state.timeline.listeners:  # (no event objects to build when nobody listens: a headless run)
        state.timeline.emit(RoundStarted(call, round_))


def owner(state: BuildState, parsed: WireParse, reply_to: Any) -> tuple[Call, Round] | None:
    """The call and round a message from the server belongs to, before it is applied (for its findings)."""
    key = parsed.id if parsed.kind in ("response", "error") and parsed.id is not None else reply_to
    flight = state.in_flight.get(key) if isinstance(key, int | str) else None
    if flight is None and parsed.kind in ("notification", "request") and state.in_flight:
        flight = list(state.in_flight.values())[-1]
    return (flight.call, flight.round) if flight is not None else None


def odd_content_type(http: HttpInfo) -> bool:
    """A 2xx answer whose Content-Type is neither JSON nor an event stream (accepted, and said)."""
    kind = (http.content_type or "").partition(";")[0].strip().lower()
    return (
        http.status is not None and 200 <= http.status < 300 and kind not in ("application/json", "text/event-stream")
    )


def wire_problems(state: BuildState, wire: WireMessage, owner: tuple[Call, Round] | None) -> None:
    """Findings about how a message arrived (its bytes, its HTTP answer), on the round it belongs to."""
    found: list[tuple[str, str]] = []
    if wire.undecodable is not None:
        found.append(("invalid-utf8", f"the message is not valid UTF-8: {bad_utf8(wire.undecodable)}"))
    http = wire.http
    if http is not None and odd_content_type(http):
        found.append(
            (
                "unexpected-content-type",
                f"HTTP {http.status} with Content-Type {http.content_type or '(none)'}, neither application/json "
                "nor text/event-stream; it was read as JSON-RPC anyway",
            )
        )
    for code, message in found:
        if owner is None:
            state.finding(lint.make(code, message))
        else:
            state.on_round(code, message, *owner)


def bad_utf8(data: bytes) -> str:
    """Where the bytes stop being UTF-8, and what is there (hex): what the U+FFFD on screen replaced."""
    spans: list[tuple[int, int]] = []
    position = 0
    while position < len(data):
        try:
            data[position:].decode("utf-8")
            break
        except UnicodeDecodeError as bad:
            start, end = position + bad.start, position + bad.end
            if spans and spans[-1][1] == start:
                spans[-1] = (spans[-1][0], end)  # adjacent bad sequences read as one run
            else:
                spans.append((start, end))
            position = end
    shown = [
        f"byte {start}: {data[start:end].hex(' ')}"
        if end - start == 1
        else f"bytes {start}-{end - 1}: {data[start:end][:16].hex(' ')}{' …' if end - start > 16 else ''}"
        for start, end in spans[:3]
    ]
    more = f" and {len(spans) - 3} more" if len(spans) > 3 else ""
    return f"{'; '.join(shown)}{more}, shown as U+FFFD; the exact bytes are kept in the recording"


def response(state: BuildState, parsed: WireParse, wire: WireMessage, reply_to: Any) -> None:
    request_id = parsed.id
    if request_id is None and isinstance(reply_to, int | str):
        request_id = reply_to  # an HTTP error body with a null id answers the POST that carried it
    flight = state.in_flight.pop(request_id, None) if request_id is not None else None
    if flight is None and request_id is not None and request_id in state.abandoned:
        _late_response(state, state.abandoned.pop(request_id), parsed, wire)
        return
    if flight is None:
        state.timeline.unmatched.append(wire)
        if request_id is not None and request_id in state.answered:
            state.finding(lint.make("duplicate-response-id", f"a second response for id {request_id!r}"))
        else:
            state.finding(lint.make("unknown-response-id", f"a response for id {request_id!r}, which is not in flight"))
        return
    assert request_id is not None
    state.answered.add(request_id)
    # (the progress token stays known: a notification that comes after the response is late on this round, never
    # put on another call's)
    call, round_ = flight.call, flight.round
    round_.response = wire
    message = parsed.message or {}
    if parsed.kind == "error":
        round_.result_type = "error"
        error = message.get("error")
        round_.error = error if isinstance(error, dict) else None
        if round_.error is not None and round_.error.get("code") == URL_ELICITATION_REQUIRED:
            # 2025-11-25 URL elicitation: the error's elicitations are this round's input requests
            wanted = url_elicitations(round_.error.get("data"))
            round_.input_requests = {
                elicitation_key(e, i): {"method": "elicitation/create", "params": {"mode": "url", **e}}
                for i, e in enumerate(wanted)
            }
        if round_.method in build_tasks.TASK_METHODS:
            build_tasks.task_error(state, call, round_, round_.error)
    else:
        _result(state, call, round_, message.get("result"), flight.version)
    if state.timeline.listeners:
        state.timeline.emit(RoundUpdated(call, round_))
    derive_status(state, call, round_, wire.at)


def _late_response(state: BuildState, flight: InFlight, parsed: WireParse, wire: WireMessage) -> None:
    """A response to a request its call had stopped waiting for (cancelled, timed out): kept on its round, marked
    late; the call's end stands."""
    call, round_ = flight.call, flight.round
    round_.response = wire
    round_.late = True
    message = parsed.message or {}
    if parsed.kind == "error":
        round_.result_type = "error"
        error = message.get("error")
        round_.error = error if isinstance(error, dict) else None
    else:
        result = message.get("result")
        kind = result.get("resultType") if isinstance(result, dict) else None
        round_.result_type = kind if isinstance(kind, str) else "complete"
    when = f"{wire.at - round_.started_at:.1f} s after it was sent"
    state.on_round("late-response", f"the response came after the call ended {call.status} ({when})", call, round_)
    if state.timeline.listeners:
        state.timeline.emit(RoundUpdated(call, round_))


def derive_status(state: BuildState, call: Call, round_: Round, at: float) -> None:
    """What the wire alone says about the call: input-required, or finished (complete, tool-error, error).

    The session writes an ``end`` event only when it ends a call some other way (no answer, round cap, a
    failure, a cancel), so most recordings need no end record at all; a later round sets it pending again.
    """
    if call.task is not None:
        derived = build_tasks.call_status(call)
        if derived is None or derived == call.status:
            return
        call.status = derived
        if call.ended:
            call.finished_at = at
            if state.timeline.listeners:
                state.timeline.emit(CallFinished(call))
        return
    if round_.result_type == "input_required":
        call.status = "input-required"
        return
    if round_.result_type == "error":
        status: CallStatus = "error"
    elif round_.result_type == "complete":
        result = round_.result or {}
        status = "tool-error" if result.get("isError") is True else "complete"
    else:
        return
    call.status = status
    call.finished_at = at
    if state.timeline.listeners:
        state.timeline.emit(CallFinished(call))


def _result(state: BuildState, call: Call, round_: Round, result: Any, version: str | None) -> None:
    if not isinstance(result, dict):
        return
    if round_.method in ("server/discover", "initialize"):
        _server_identity(state, round_.method, result)
    result_type = result.get("resultType")
    modern = version is not None and is_modern(version)
    if result_type is None:
        result_type = "complete"
        if modern:
            state.on_round("missing-result-type", f"{round_.method} result has no resultType", call, round_)
    elif not isinstance(result_type, str) or result_type not in RESULT_TYPES:
        state.on_round("unknown-result-type", f"resultType {result_type!r} on {round_.method}", call, round_)
        result_type = str(result_type)
    round_.result_type = result_type
    if result_type == "input_required" and round_.method not in build_tasks.TASK_METHODS:
        _input_required(state, call, round_, result)
    at = round_.response.at if round_.response is not None else 0.0
    if round_.method in build_tasks.TASK_METHODS:
        build_tasks.task_round(state, call, round_, result, at)
        return
    creates = result_type == "task" or (not modern and round_.method == "tools/call" and "task" in result)
    if creates and build_tasks.created(state, call, round_, result, modern=modern, at=at):
        round_.result_type = "task"
        return
    check_version = version if modern else state.legacy_version
    # A 2025-11-25 task-augmented call (params.task) may answer CreateTaskResult, which mcp-types keeps out of
    # its public surface ("tasks/* deliberately absent"): validating it as CallToolResult would be a false alarm.
    task_augmented = not modern and _request_params(round_).get("task") is not None
    if check_version is not None and result_type in ("complete", "input_required") and not task_augmented:
        shaped = result if "resultType" in result or not modern else {**result, "resultType": "complete"}
        size = len(round_.response.raw) if round_.response is not None else 0
        for problem in lint.schema_problems(round_.method, check_version, shaped, size=size):
            state.on_round("schema-invalid", f"{round_.method} ({check_version}): {problem}", call, round_)


def _input_required(state: BuildState, call: Call, round_: Round, result: JsonObject) -> None:
    if not allows_input_required(round_.method):
        state.on_round("input-required-forbidden", f"{round_.method} answered input_required", call, round_)
    for problem in lint.input_required_problems(result):
        state.on_round("malformed-input-required", problem, call, round_)
    requests = result.get("inputRequests")
    if isinstance(requests, dict):
        round_.input_requests = {str(k): v for k, v in requests.items() if isinstance(v, dict)}
        check_forms(state, call, round_)
    request_state = result.get("requestState")
    if isinstance(request_state, str):
        round_.request_state = RequestState(request_state)


def check_forms(state: BuildState, call: Call, round_: Round) -> None:
    """Elicitations a client must not take as they come: a form whose requestedSchema the spec does not allow
    (nested objects, $ref, unknown types: the form falls back to a JSON editor), and a URL that holds control or
    invisible characters (it is never offered for opening or copying as is)."""
    for key, request in round_.input_requests.items():
        params = request.get("params")
        if request.get("method") != "elicitation/create" or not isinstance(params, dict):
            continue
        where = f"input {one_line(key, 60)!r}" if key else "elicitation/create"
        if params.get("mode", "form") == "url":
            url = params.get("url")
            if isinstance(url, str) and has_hidden(url):
                state.on_round("unsafe-url", f"{where}: the URL holds hidden characters: {one_line(url)}", call, round_)
            continue
        if params.get("mode", "form") != "form":
            continue
        reason = unsupported_reason(params.get("requestedSchema"))
        if reason is not None:
            state.on_round("unsupported-schema", f"{where}: {reason}", call, round_)


def _server_identity(state: BuildState, method: str, result: JsonObject) -> None:
    if method == "initialize":
        info = result.get("serverInfo")
        version = result.get("protocolVersion")
        if isinstance(version, str):
            state.legacy_version = version
    else:
        meta = result.get("_meta")
        info = meta.get(META_SERVER_INFO) if isinstance(meta, dict) else None
    state.timeline.server_info = info if isinstance(info, dict) else state.timeline.server_info
    caps = result.get("capabilities")
    state.timeline.server_capabilities = caps if isinstance(caps, dict) else state.timeline.server_capabilities
    instructions = result.get("instructions")
    state.timeline.instructions = instructions if isinstance(instructions, str) else state.timeline.instructions
    state.timeline.emit(SessionChanged())


def _request_params(round_: Round) -> JsonObject:
    message = round_.request.message or {}
    params = message.get("params")
    return params if isinstance(params, dict) else {}
