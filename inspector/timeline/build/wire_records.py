"""The wire records (``c2s``, ``s2c``) applied to the timeline: everything the wire can tell is derived here from
the exact text (responses, result types, requestState and its echo, notifications, lint), so a live session and
the replay of its recording build the same model. Functions over the builder's ``BuildState``.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.protocol.envelope import META_PROTOCOL_VERSION
from inspector.protocol.json_values import json_number
from inspector.protocol.jsonrpc import JsonObject, WireParse
from inspector.protocol.methods import INPUT_REQUEST_METHODS, LISTEN, SUBSCRIBE
from inspector.protocol.sanitize import one_line
from inspector.timeline import findings as lint
from inspector.timeline.build import listen as build_listen
from inspector.timeline.build import results as build_results
from inspector.timeline.build import task_spans as build_tasks
from inspector.timeline.build.state import BuildState, InFlight
from inspector.timeline.http_info import HttpInfo
from inspector.timeline.listen_span import KIND_OF_NOTIFICATION
from inspector.timeline.model import Call, ConsoleLine, Round, RoundStarted, RoundUpdated, SessionRowChanged
from inspector.timeline.records import Record, undecodable_bytes
from inspector.timeline.url_elicitation import URL_ELICITATION_REQUIRED, elicitation_key, url_elicitations
from inspector.timeline.wire import WireMessage


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
        if owner is None:
            state.timeline.emit(SessionRowChanged(round_))
        elif not round_.folded:
            state.timeline.emit(RoundUpdated(owner, round_))
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
    # (index, kind, request_id, method, request; positional: see protocol.values)
    round_ = Round(len(call.rounds) + 1, "request", parsed.id, parsed.method or call.method, wire)
    echoed = params.get("requestState")
    if isinstance(echoed, str):
        round_.echoed_state = echoed
    if state.instances and parsed.id is not None:
        round_.instance = state.instances.pop(parsed.id, None)
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
    if round_.method == LISTEN and call.listen is None:
        build_listen.started(state, call, round_, params)
    elif round_.method == SUBSCRIBE:
        build_listen.subscribed(state, call, params)
    if call.task is None:
        call.status, call.finished_at = "pending", None  # a retry or the next page: the call goes on
    else:
        build_tasks.cancel_sent(call, round_)
        call.status = build_tasks.call_status(call) or "working"  # a poll does not make the task pending again
    assert parsed.id is not None
    state.in_flight[parsed.id] = InFlight(call, round_, version, token)
    if state.timeline.listeners:  # (no event objects to build when nobody listens: a headless run)
        state.timeline.emit(RoundStarted(call, round_))


def incoming(state: BuildState, record: Record, t: float, parsed: WireParse) -> None:
    http = HttpInfo.from_json(record["http"]) if "http" in record else None
    reply_to = record.get("reply_to")
    if record.get("note") == "sse":
        on = f"the stream of request {reply_to!r}" if reply_to is not None else "the GET stream"
        state.console(ConsoleLine(t, "transport", f"SSE on {on}, no message: {one_line(parsed.raw, 300)}", "debug"))
        return
    undecodable = undecodable_bytes(record) if "bytes" in record else None
    wire = WireMessage(parsed.raw, t, "s2c", parsed.message, http, undecodable)
    if undecodable is not None or (http is not None and _odd_content_type(http)):
        _wire_problems(state, wire, _owner(state, parsed, reply_to))
    if parsed.kind in ("response", "error"):
        _response(state, parsed, wire, reply_to)
    elif parsed.kind == "notification":
        _notification(state, parsed, wire, reply_to)
    elif parsed.kind == "request":
        _server_request(state, parsed, wire, reply_to)
    else:
        state.timeline.unmatched.append(wire)
        excerpt = parsed.raw if len(parsed.raw) <= 120 else parsed.raw[:117] + "..."
        state.finding(lint.make("invalid-message", f"{parsed.problem}: {excerpt!r}"))


def _owner(state: BuildState, parsed: WireParse, reply_to: Any) -> tuple[Call, Round] | None:
    """The call and round a message from the server belongs to, before it is applied (for its findings)."""
    key = parsed.id if parsed.kind in ("response", "error") and parsed.id is not None else reply_to
    flight = state.in_flight.get(key) if isinstance(key, int | str) else None
    if flight is None and parsed.kind in ("notification", "request") and state.in_flight:
        flight = list(state.in_flight.values())[-1]
    return (flight.call, flight.round) if flight is not None else None


def _odd_content_type(http: HttpInfo) -> bool:
    """A 2xx answer whose Content-Type is neither JSON nor an event stream (accepted, and said)."""
    kind = (http.content_type or "").partition(";")[0].strip().lower()
    return (
        http.status is not None and 200 <= http.status < 300 and kind not in ("application/json", "text/event-stream")
    )


def _wire_problems(state: BuildState, wire: WireMessage, owner: tuple[Call, Round] | None) -> None:
    """Findings about how a message arrived (its bytes, its HTTP answer), on the round it belongs to."""
    found: list[tuple[str, str]] = []
    if wire.undecodable is not None:
        found.append(("invalid-utf8", f"the message is not valid UTF-8: {bad_utf8(wire.undecodable)}"))
    http = wire.http
    if http is not None and _odd_content_type(http):
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


def _response(state: BuildState, parsed: WireParse, wire: WireMessage, reply_to: Any) -> None:
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
        _error(round_, message)
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
        build_results.apply_result(state, call, round_, message.get("result"), flight.version)
    if state.timeline.listeners:
        state.timeline.emit(RoundUpdated(call, round_))
    build_results.derive_status(state, call, round_, wire.at)


def _error(round_: Round, message: JsonObject) -> None:
    """A JSON-RPC error response on its round."""
    round_.result_type = "error"
    error = message.get("error")
    round_.error = error if isinstance(error, dict) else None


def _late_response(state: BuildState, flight: InFlight, parsed: WireParse, wire: WireMessage) -> None:
    """A response to a request its call had stopped waiting for (cancelled, timed out): kept on its round, marked
    late; the call's end stands."""
    call, round_ = flight.call, flight.round
    round_.response = wire
    round_.late = True
    message = parsed.message or {}
    if parsed.kind == "error":
        _error(round_, message)
    else:
        result = message.get("result")
        kind = result.get("resultType") if isinstance(result, dict) else None
        round_.result_type = kind if isinstance(kind, str) else "complete"
    when = f"{wire.at - round_.started_at:.1f} s after it was sent"
    state.on_round("late-response", f"the response came after the call ended {call.status} ({when})", call, round_)
    if state.timeline.listeners:
        state.timeline.emit(RoundUpdated(call, round_))


def _notification(state: BuildState, parsed: WireParse, wire: WireMessage, reply_to: Any) -> None:
    message = parsed.message or {}
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    assert isinstance(params, dict)
    target: tuple[Call, Round] | None = None
    listening = build_listen.subscription_of(state, params) if "_meta" in params else None
    if listening is None and parsed.method == "notifications/cancelled" and state.listens:
        listening = build_listen.cancelled_by_server(state, params)
    if listening is None and parsed.method in KIND_OF_NOTIFICATION and state.legacy_listen is not None:
        listening = state.legacy_listen
    if listening is not None and listening.rounds:
        if parsed.method != "notifications/cancelled":
            build_listen.notified(state, listening, parsed.method or "", params, wire)
        listening.rounds[0].notifications.append(wire)
        state.timeline.emit(RoundUpdated(listening, listening.rounds[0]))
        return
    if parsed.method in build_tasks.TASK_NOTIFICATIONS:
        target = build_tasks.notified(state, parsed.method or "", params, wire.at)
        if target is not None:
            target[1].notifications.append(wire)
            build_results.derive_status(state, target[0], target[1], wire.at)
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
    if call.ended and not round_.late and call.task is None and call.listen is None:
        round_.late = True
        state.on_round("late-notification", f"{parsed.method} came after the call ended {call.status}", call, round_)
    round_.notifications.append(wire)
    state.timeline.emit(RoundUpdated(call, round_))


def _check_progress(state: BuildState, call: Call, round_: Round, params: JsonObject) -> None:
    """Progress MUST increase: a value that goes back is a finding (once a round)."""
    value = json_number(params.get("progress"))
    if value is None:
        return
    previous = [
        n.message["params"].get("progress")
        for n in round_.notifications
        if n.message is not None
        and n.message.get("method") == "notifications/progress"
        and isinstance(n.message.get("params"), dict)
    ]
    earlier = [p for p in map(json_number, previous) if p is not None]
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
    call, inferred = state.attribute_server_request(reply_to, parsed.method, params)
    if call is None:
        _session_row(state, parsed, wire, params)
        return
    round_ = Round(
        index=len(call.rounds) + 1,
        kind="server-request",
        request_id=parsed.id,
        method=parsed.method or "",
        request=wire,
        inferred_owner=inferred,
    )
    round_.input_requests = _asked(parsed, params)
    requests = call.server_requests
    # The first ones are rounds of the call; the rest are counted and the newest kept apart, so that the rounds'
    # indexes stay their places and a server that asks without end costs a fixed amount (timeline.server_requests).
    round_.folded = requests.count >= requests.limit
    if round_.folded:
        requests.append(round_)
    else:
        requests.counted(round_.method)
    if state.timeline.era is not None and state.timeline.era.era == "modern":
        state.on_round("server-request-in-modern", f"the server sent a {parsed.method} request", call, round_)
    if not round_.folded:
        call.rounds.append(round_)
    build_results.check_forms(state, call, round_)
    if parsed.id is not None:
        state.server_requests[parsed.id] = (call, round_)
    if not round_.folded:
        state.timeline.emit(RoundStarted(call, round_))


def _session_row(state: BuildState, parsed: WireParse, wire: WireMessage, params: Any) -> None:
    """A server request of no call: a row of the session, never a round of a call, never its status."""
    round_ = Round(
        index=state.timeline.session.count + 1,
        kind="server-request",
        request_id=parsed.id,
        method=parsed.method or "",
        request=wire,
    )
    round_.input_requests = _asked(parsed, params)
    state.timeline.session.append(round_)
    if parsed.id is not None:
        state.server_requests[parsed.id] = (None, round_)
    state.timeline.emit(SessionRowChanged(round_))


def _asked(parsed: WireParse, params: Any) -> dict[str, JsonObject]:
    """A legacy server request as the round's one input request (key ``""``), when it is one the answers
    interface takes (elicitation, sampling, roots)."""
    if parsed.method not in INPUT_REQUEST_METHODS:
        return {}
    request: JsonObject = {"method": parsed.method}
    if isinstance(params, dict):
        request["params"] = params
    return {"": request}


def classify_text(value: Any) -> str:
    """A log payload that is not a string, as compact JSON."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
