"""Tasks derived from the wire: a call's ``TaskSpan`` and the call's status, from the rounds that created, polled,
updated, cancelled and finished its task, and from task notifications matched by ``taskId``. Functions over the
builder's ``BuildState``, called by ``wire_records``; live and replayed timelines agree because only the wire is read.
"""

from __future__ import annotations

from typing import Any, Final

from inspector.protocol.envelope import META_CLIENT_CAPABILITIES, TASKS_EXTENSION
from inspector.protocol.json_values import json_int
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.sanitize import one_line
from inspector.protocol.task_polling import out_of_bounds, poll_hint_ms
from inspector.timeline import findings as lint
from inspector.timeline.build.state import RELATED_TASK, BuildState
from inspector.timeline.model import Call, CallStatus, Round
from inspector.timeline.task_span import TASK_STATUSES, TERMINAL_TASK_STATUSES, TaskShape, TaskSpan, TaskState, Via

TASK_METHODS: Final = frozenset(
    {"tasks/get", "tasks/update", "tasks/cancel", "tasks/result", "tasks/list", "tasks/input_response"}
)
TASK_NOTIFICATIONS: Final = frozenset({"notifications/tasks/status", "notifications/tasks"})
_CREATE_FIELDS: Final = ("taskId", "status", "createdAt", "lastUpdatedAt")


def declared_tasks(round_: Round) -> bool:
    """Did this round's request declare the tasks extension in its ``_meta`` (2026-07-28)?"""
    params = _params(round_)
    meta = params.get("_meta")
    caps = meta.get(META_CLIENT_CAPABILITIES) if isinstance(meta, dict) else None
    extensions = caps.get("extensions") if isinstance(caps, dict) else None
    return isinstance(extensions, dict) and TASKS_EXTENSION in extensions


def created(state: BuildState, call: Call, round_: Round, result: JsonObject, *, modern: bool, at: float) -> bool:
    """A result that creates a task (a 2026 ``resultType: "task"``, or a 2025 ``{"task": {...}}`` to a
    ``params.task`` request): start the call's span; False when the result creates none."""
    if modern:
        if result.get("resultType") != "task":
            return False
        if round_.method != "tools/call":
            state.on_round("task-forbidden", f"{round_.method} answered resultType task", call, round_)
        if not declared_tasks(round_):
            state.on_round("task-not-declared", "the request did not declare the tasks extension", call, round_)
        task, shape = result, "ext-2026"
        missing = [name for name in (*_CREATE_FIELDS, "ttlMs") if name not in task]
    else:
        nested = result.get("task")
        if not isinstance(nested, dict) or "content" in result:
            return False
        if _params(round_).get("task") is None:
            state.on_round("task-unrequested", "a task came back to a call without params.task", call, round_)
        task, shape = nested, "legacy-2025"
        missing = [name for name in _CREATE_FIELDS if name not in task]
    if missing:
        state.on_round("malformed-task", f"the task has no {', '.join(missing)}", call, round_)
    task_id = task.get("taskId")
    span = TaskSpan(
        task_id=task_id if isinstance(task_id, str) else "",
        shape=shape,  # type: ignore[arg-type]
        created_round=round_.index,
        created_at=task.get("createdAt") if isinstance(task.get("createdAt"), str) else None,
    )
    call.task = span
    if span.task_id:
        state.tasks[span.task_id] = call
    _observe(state, call, round_, task, "create", at)
    return True


def watched(state: BuildState, call: Call, task_id: str, shape: TaskShape) -> None:
    """A call that follows a task made earlier (``inspector task get ID``): its span has no creating round."""
    call.task = TaskSpan(task_id=task_id, shape=shape, created_round=None)
    state.tasks[task_id] = call


def task_round(state: BuildState, call: Call, round_: Round, result: JsonObject | None, at: float) -> None:
    """What one ``tasks/*`` round of the call says about its task (``result`` is None for an error)."""
    span = call.task
    method = round_.method
    if span is None:
        task_id = _params(round_).get("taskId")
        if not isinstance(task_id, str):
            return
        watched(state, call, task_id, "ext-2026" if result is not None and "resultType" in result else "legacy-2025")
        span = call.task
        assert span is not None
    if result is None:
        return
    if span.shape == "ext-2026" and result.get("resultType") not in (None, "complete"):
        state.on_round(
            "task-get-result-type", f"{method} answered resultType {result.get('resultType')!r}", call, round_
        )
    if method == "tasks/get" or (method == "tasks/cancel" and "status" in result):
        _observe(state, call, round_, result, "poll" if method == "tasks/get" else "cancel", at)
    elif method == "tasks/result":
        _task_result(state, call, round_, result)
    elif method == "tasks/list":
        tasks = result.get("tasks")
        for entry in tasks if isinstance(tasks, list) else []:
            if isinstance(entry, dict) and entry.get("taskId") == span.task_id:
                _observe(state, call, round_, entry, "list", at)


def task_error(state: BuildState, call: Call, round_: Round, error: JsonObject | None) -> None:
    """A ``tasks/*`` request answered with an error: a 2025 ``tasks/result`` error is the task's outcome."""
    span = call.task
    if span is not None and round_.method == "tasks/result" and error is not None:
        span.error = error


def cancel_sent(call: Call, round_: Round) -> None:
    """The call asked the server to cancel its task (the rows say "cancelling" until it has ended)."""
    if call.task is not None and round_.method == "tasks/cancel":
        call.task.cancel_round = round_.index


def notified(state: BuildState, method: str, params: JsonObject, at: float) -> tuple[Call, Round] | None:
    """A task notification (2025 ``notifications/tasks/status``, 2026 ``notifications/tasks`` on a listen),
    matched by ``taskId`` to the call that owns the task; its state is observed there."""
    task_id = params.get("taskId")
    call = state.tasks.get(task_id) if isinstance(task_id, str) else None
    if call is None or not call.rounds:
        return None
    _observe(state, call, None, params, "notification", at)
    return call, call.rounds[-1]


def call_status(call: Call) -> CallStatus | None:
    """The call's status from its task (None: the task says nothing yet)."""
    span = call.task
    if span is None or not span.history:
        return None
    status = span.status
    if status == "completed":
        result = span.result or {}
        return "tool-error" if result.get("isError") is True else "complete"
    if status == "failed":
        return "error" if span.error is not None or span.result is None else "tool-error"
    if status == "cancelled":
        return "cancelled"
    if span.cancel_round is not None:
        return "cancelling"
    return "input-required" if status == "input_required" else "working"


# ------------------------------------------------------------------------------------------------ one observation
def _observe(state: BuildState, call: Call, round_: Round | None, task: JsonObject, via: Via, at: float) -> None:
    span = call.task
    assert span is not None
    status = task.get("status")
    shown = status if isinstance(status, str) else repr(status)
    where = (call, round_) if round_ is not None else None
    if shown not in TASK_STATUSES:
        _finding(
            state, "unknown-task-status", f"task {_short(span.task_id)} status {one_line(shown, 40)!r}", call, where
        )
    previous = span.status if span.history else None
    if previous in TERMINAL_TASK_STATUSES and shown != previous:
        _finding(state, "task-terminal-changed", f"task {_short(span.task_id)} went {previous} → {shown}", call, where)
    message = task.get("statusMessage")
    keys: tuple[str, ...] = ()
    requests = task.get("inputRequests")
    if isinstance(requests, dict):
        keys = tuple(str(k) for k in requests)
        if round_ is not None:
            round_.input_requests = {str(k): v for k, v in requests.items() if isinstance(v, dict)}
        for key, request in requests.items():
            if not isinstance(request, dict):
                continue
            known = span.asked.get(str(key))
            if known is None:
                span.asked[str(key)] = request
            elif known != request:
                _finding(
                    state, "task-input-key-reused", f"key {one_line(str(key), 60)!r} asks something else", call, where
                )
    elif shown == "input_required" and span.shape == "ext-2026" and via != "notification":
        _finding(state, "task-input-missing", "input_required without inputRequests", call, where)
    hint = poll_hint_ms(task)
    if hint is not None and hint != span.poll_interval_ms:  # (a finding once a hint, not on every poll repeating it)
        instead = out_of_bounds(hint)
        if instead is not None:
            _finding(state, "task-poll-interval", f"task {_short(span.task_id)}: {instead}", call, where)
        span.poll_interval_ms = hint
    ttl = json_int(task.get("ttlMs", task.get("ttl")))
    if ttl is not None:
        span.ttl_ms = ttl
    index = round_.index if round_ is not None else None
    span.history.append(TaskState(at, shown, message if isinstance(message, str) else None, via, index, keys))
    if span.shape == "ext-2026" and via != "create":
        if shown == "completed":
            inline = task.get("result")
            if isinstance(inline, dict):
                span.result = inline
            else:
                _finding(state, "task-result-missing", "completed without an inline result", call, where)
        elif shown == "failed":
            error = task.get("error")
            if isinstance(error, dict) and isinstance(error.get("code"), int):
                span.error = error
            elif isinstance(error, dict):
                span.error = error
                _finding(state, "task-failed-not-rpc", "failed with an error that is not a JSON-RPC error", call, where)
            else:
                _finding(state, "task-error-missing", "failed without an inline error", call, where)


def _task_result(state: BuildState, call: Call, round_: Round, result: JsonObject) -> None:
    span = call.task
    assert span is not None
    if result.get("resultType") == "input_required":
        # The persistent workflow of SEP-2322's text: tasks/result asks, tasks/input_response answers.
        span.shape = "seed-2322"
        requests = result.get("inputRequests")
        if isinstance(requests, dict):
            round_.input_requests = {str(k): v for k, v in requests.items() if isinstance(v, dict)}
            for key, request in round_.input_requests.items():
                span.asked.setdefault(key, request)
        return
    meta = result.get("_meta")
    if not (isinstance(meta, dict) and isinstance(meta.get(RELATED_TASK), dict)):
        state.on_round("task-related-meta-missing", "tasks/result carries no related-task _meta", call, round_)
    span.result = result


def _finding(state: BuildState, code: str, message: str, call: Call, where: tuple[Call, Round] | None) -> None:
    if where is not None:
        state.on_round(code, message, *where)
    else:
        state.finding(lint.make(code, message, call=call.index), call)


def _short(task_id: str) -> str:
    return one_line(task_id if len(task_id) <= 12 else task_id[:10] + "…", 16)


def _params(round_: Round) -> JsonObject:
    message: Any = round_.request.message or {}
    params = message.get("params") if isinstance(message, dict) else None
    return params if isinstance(params, dict) else {}
