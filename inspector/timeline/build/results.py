"""What a response's result says, applied to its round: the result type (checked), the input requests and the
requestState of an ``input_required``, a task created or polled, the server's identity from the handshake, the
schema check; and the call status the wire alone implies. Functions over the builder's ``BuildState``."""

from __future__ import annotations

from typing import Any

from inspector.protocol.elicitation_schema import unsupported_reason
from inspector.protocol.envelope import META_SERVER_INFO, is_modern
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import LISTEN, RESULT_TYPES, allows_input_required
from inspector.protocol.sanitize import has_hidden, one_line
from inspector.timeline import findings as lint
from inspector.timeline.build import cache_checks as build_caching
from inspector.timeline.build import listen as build_listen
from inspector.timeline.build import task_spans as build_tasks
from inspector.timeline.build import tool_stories
from inspector.timeline.build.state import BuildState
from inspector.timeline.model import Call, CallFinished, CallStatus, RequestState, Round, SessionChanged


def derive_status(state: BuildState, call: Call, round_: Round, at: float) -> None:
    """What the wire alone says about the call: input-required, or finished (complete, tool-error, error).

    The session writes an ``end`` event only when it ends a call some other way (no answer, round cap, a
    failure, a cancel), so most recordings need no end record at all; a later round sets it pending again.
    """
    if call.listen is not None and round_.response is not None and round_.method == LISTEN:
        # (only the listen's own response ends it gracefully: a 2025 resources/subscribe is answered at once)
        build_listen.answered(call)
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


def apply_result(state: BuildState, call: Call, round_: Round, result: Any, version: str | None) -> None:
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
    build_caching.check_result(state, call, round_, result, modern=modern)
    if round_.method == "tools/call" and result_type == "complete":
        tool_stories.check(state, call, round_, result)
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
