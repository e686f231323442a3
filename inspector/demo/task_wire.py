"""How a `DemoTask` reads on the wire, per era, and the errors the task methods answer.

- 2026-07-28, the Tasks extension (`io.modelcontextprotocol/tasks`, ext-tasks `specification/draft/tasks.md`): a
  flat task (`ttlMs`, `pollIntervalMs`); `CreateTaskResult` is that task with `resultType: "task"`; `tasks/get`
  inlines `inputRequests` (every outstanding one), `result` or `error`, with `resultType: "complete"`.
- 2025-11-25 (`basic/utilities/tasks.mdx`): the `Task` object (`ttl`, `pollInterval`), nested under `task` in
  `CreateTaskResult`, flat in `tasks/get`, `tasks/cancel`, `tasks/list` and `notifications/tasks/status`; the
  payload comes from `tasks/result` with `_meta["io.modelcontextprotocol/related-task"]`.

Dicts are built by hand: `mcp_types` has the 2025 models only, and their `Result` base always dumps `resultType`,
which a 2025 peer has never heard of.
"""

from __future__ import annotations

from typing import Any, Final

from mcp.shared.exceptions import MCPError
from mcp_types import (
    INTERNAL_ERROR,
    METHOD_NOT_FOUND,
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ClientCapabilities,
    MissingRequiredClientCapabilityErrorData,
)

from inspector.demo.task_model import DemoTask

TASKS_EXTENSION: Final = "io.modelcontextprotocol/tasks"
RELATED_TASK: Final = "io.modelcontextprotocol/related-task"
LEGACY_TASKS_CAPABILITY: Final[dict[str, Any]] = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
"""2025-11-25 `capabilities.tasks` at `initialize`: tools/call may be task-augmented, tasks listed and cancelled."""


def _common(task: DemoTask) -> dict[str, Any]:
    wire: dict[str, Any] = {"taskId": task.task_id, "status": task.status}
    if task.message is not None:
        wire["statusMessage"] = task.message
    wire["createdAt"] = task.created_at
    wire["lastUpdatedAt"] = task.updated_at
    return wire


def _text_result(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": False}


# -- 2026-07-28 ----------------------------------------------------------------------------------------------------


def modern_task(task: DemoTask) -> dict[str, Any]:
    """The flat `Task` of the extension."""
    return {**_common(task), "ttlMs": task.ttl_ms, "pollIntervalMs": task.poll_ms}


def modern_created(task: DemoTask) -> dict[str, Any]:
    """`CreateTaskResult`: the task itself, discriminated by `resultType: "task"`."""
    return {**modern_task(task), "resultType": "task"}


def modern_detailed(task: DemoTask) -> dict[str, Any]:
    """`GetTaskResult`: the task with what its status carries inline."""
    wire = modern_task(task)
    if task.status == "input_required":
        wire["inputRequests"] = {
            key: request.model_dump(by_alias=True, mode="json", exclude_none=True)
            for key, request in task.outstanding.items()
        }
    elif task.status == "completed" and task.result_text is not None:
        wire["result"] = {**_text_result(task.result_text), "resultType": "complete"}
    elif task.status == "failed" and task.error is not None:
        wire["error"] = task.error.model_dump(by_alias=True, mode="json", exclude_none=True)
    return {**wire, "resultType": "complete"}


def extension_missing(what: str) -> MCPError:
    """-32021 naming the extension in `data.requiredCapabilities`, for a request that did not declare it."""
    data = MissingRequiredClientCapabilityErrorData(
        required_capabilities=ClientCapabilities(extensions={TASKS_EXTENSION: {}})
    )
    return MCPError(
        code=MISSING_REQUIRED_CLIENT_CAPABILITY,
        message=f"{what} requires the tasks extension ({TASKS_EXTENSION}); this request did not declare it",
        data=data.model_dump(by_alias=True, mode="json", exclude_none=True),
    )


# -- 2025-11-25 ----------------------------------------------------------------------------------------------------


def legacy_task(task: DemoTask) -> dict[str, Any]:
    """The 2025-11-25 `Task`."""
    return {**_common(task), "ttl": task.ttl_ms, "pollInterval": task.poll_ms}


def legacy_created(task: DemoTask) -> dict[str, Any]:
    """2025-11-25 `CreateTaskResult`: the task nested under `task`."""
    return {"task": legacy_task(task)}


def related(task: DemoTask) -> dict[str, Any]:
    """The `_meta` that ties a message to its task (2025-11-25 MUST on `tasks/result` and the task's requests)."""
    return {RELATED_TASK: {"taskId": task.task_id}}


def legacy_payload(task: DemoTask) -> dict[str, Any]:
    """What `tasks/result` answers for an ended task: what the `tools/call` would have answered, or its error."""
    if task.status == "completed" and task.result_text is not None:
        return {**_text_result(task.result_text), "_meta": related(task)}
    if task.status == "failed" and task.error is not None:
        raise MCPError.from_error_data(task.error)
    # A cancelled request has no result; nothing says which error, so the one server-everything answers.
    raise MCPError(code=INTERNAL_ERROR, message=f"Task {task.task_id} was cancelled: it has no result")


def not_a_task_tool(name: str) -> MCPError:
    """2025-11-25: `params.task` on a tool whose `taskSupport` is forbidden (SHOULD -32601)."""
    return MCPError(code=METHOD_NOT_FOUND, message=f"Tool {name!r} does not support task-augmented execution")


def task_required(name: str) -> MCPError:
    """2025-11-25: a `taskSupport: "required"` tool called without `params.task` (MUST -32601)."""
    return MCPError(
        code=METHOD_NOT_FOUND,
        message=f"Tool {name!r} requires task augmentation (taskSupport: 'required'): send params.task",
    )
