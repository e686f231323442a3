"""The Tasks extension of the demo server on the official SDK: `io.modelcontextprotocol/tasks` (2026-07-28), and
the 2025-11-25 task methods the same table serves.

An `mcp.server.extension.Extension`: the SDK advertises it in `server/discover` `capabilities.extensions`, routes
the methods bound here (`MethodBinding`, each gated to the versions that define it; any other version gets -32601),
and wraps every `tools/call` in `intercept_tool_call`. mcp 2.3.0 has no tasks runtime of its own ("tasks/*
deliberately absent" from its dispatch), so the table, the shapes and the blocking `tasks/result` are ours.

| method         | 2026-07-28 (the extension)                      | 2025-11-25                                       |
|----------------|-------------------------------------------------|--------------------------------------------------|
| `tasks/get`    | flat task, inline inputRequests/result/error    | the Task                                         |
| `tasks/update` | delivers inputResponses, empty ack              | -32601 (not a 2025 method)                       |
| `tasks/cancel` | empty ack (cooperative; ends cancelled here)    | the cancelled Task; -32602 when already ended    |
| `tasks/result` | -32601 (removed)                                | blocks until the end, asking the task's question |
| `tasks/list`   | -32601 (removed: ids are bearer-like)           | every live task                                  |

A 2026 request that does not declare the extension in its `_meta` gets -32021 on every task method (MUST).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Literal

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    CallToolRequestParams,
    CancelTaskRequestParams,
    ElicitResult,
    GetTaskPayloadRequestParams,
    GetTaskRequestParams,
    InputResponses,
    PaginatedRequestParams,
    RequestParams,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from inspector.demo.task_model import DemoTask
from inspector.demo.task_result import blocking_result
from inspector.demo.task_runner import TaskRequest, call_asking_for_a_task
from inspector.demo.task_table import TaskTable
from inspector.demo.task_wire import (
    TASKS_EXTENSION,
    extension_missing,
    legacy_task,
    modern_created,
    modern_detailed,
)

LEGACY_TASKS_VERSION: Final = "2025-11-25"
"""The one handshake revision that has tasks."""
MODERN: Final = frozenset(MODERN_PROTOCOL_VERSIONS)
LEGACY: Final = frozenset({LEGACY_TASKS_VERSION})

TaskSupport = Literal["optional", "required"]


class UpdateTaskRequestParams(RequestParams):
    """`tasks/update` params (2026): answers to the task's outstanding input requests."""

    task_id: str
    input_responses: InputResponses


def declares_extension(ctx: ServerRequestContext[Any, Any]) -> bool:
    """Did this request's `_meta` declare the extension? (2026: capabilities are per request.)"""
    capabilities = ctx.session.client_capabilities
    extensions = capabilities.extensions if capabilities is not None else None
    return bool(extensions) and TASKS_EXTENSION in (extensions or {})


class DemoTasks(Extension):
    """Tasks for the demo's task tools, in both eras, over one in-memory `TaskTable`."""

    identifier = TASKS_EXTENSION

    def __init__(self, table: TaskTable) -> None:
        self.table = table
        self.task_tools: dict[str, TaskSupport] = {}
        """Tool name -> its 2025 `execution.taskSupport` (the flows register themselves)."""

    def methods(self) -> Sequence[MethodBinding]:
        return (
            MethodBinding("tasks/get", GetTaskRequestParams, self._get, protocol_versions=MODERN | LEGACY),
            MethodBinding("tasks/update", UpdateTaskRequestParams, self._update, protocol_versions=MODERN),
            MethodBinding("tasks/cancel", CancelTaskRequestParams, self._cancel, protocol_versions=MODERN | LEGACY),
            MethodBinding("tasks/result", GetTaskPayloadRequestParams, self._result, protocol_versions=LEGACY),
            MethodBinding("tasks/list", PaginatedRequestParams, self._list, protocol_versions=LEGACY),
        )

    async def intercept_tool_call(
        self, params: CallToolRequestParams, ctx: ServerRequestContext[Any, Any], call_next: CallNext
    ) -> HandlerResult:
        """2026-07-28: a call that declared the extension may be answered with a task; the tool decides (its MRTR
        rounds come first, on this very call), and a task it started goes out as the CreateTaskResult."""
        if ctx.protocol_version not in MODERN or not declares_extension(ctx):
            return await call_next(ctx)
        request = TaskRequest()
        result = await call_asking_for_a_task(request, ctx, call_next)
        return modern_created(request.created) if request.created is not None else result

    # -- the methods ---------------------------------------------------------------------------------------------

    async def _find(self, ctx: ServerRequestContext[Any, Any], method: str, task_id: str) -> DemoTask:
        if ctx.protocol_version in MODERN and not declares_extension(ctx):
            raise extension_missing(method)
        return await self.table.find(task_id)

    async def _get(self, ctx: ServerRequestContext[Any, Any], params: GetTaskRequestParams) -> dict[str, Any]:
        task = await self._find(ctx, "tasks/get", params.task_id)
        return modern_detailed(task) if ctx.protocol_version in MODERN else legacy_task(task)

    async def _update(self, ctx: ServerRequestContext[Any, Any], params: UpdateTaskRequestParams) -> dict[str, Any]:
        task = await self._find(ctx, "tasks/update", params.task_id)
        elicited = {key: value for key, value in params.input_responses.items() if isinstance(value, ElicitResult)}
        self.table.deliver(task, elicited)  # keys not outstanding are ignored, as the extension says a server SHOULD
        return {"resultType": "complete"}

    async def _cancel(self, ctx: ServerRequestContext[Any, Any], params: CancelTaskRequestParams) -> dict[str, Any]:
        task = await self._find(ctx, "tasks/cancel", params.task_id)
        if ctx.protocol_version in MODERN:
            await task.cancel()  # cooperative: an ended task stays as it ended, and the ack is the same
            return {"resultType": "complete"}
        if task.terminal:
            raise MCPError(code=INVALID_PARAMS, message=f"Cannot cancel task in terminal status: {task.status}")
        ended = await task.cancel()  # 2025: cancelled before the response, MUST
        if ended != "cancelled":  # (the instance running it ended it first)
            raise MCPError(code=INVALID_PARAMS, message=f"Cannot cancel task in terminal status: {ended}")
        return legacy_task(task)

    async def _list(self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams) -> dict[str, Any]:
        if params.cursor is not None:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown cursor {params.cursor!r}: tasks/list has one page")
        return {"tasks": [legacy_task(task) for task in self.table.all()]}

    async def _result(self, ctx: ServerRequestContext[Any, Any], params: GetTaskPayloadRequestParams) -> dict[str, Any]:
        """2025-11-25 `tasks/result`: blocks until the task ends, asking its questions on this request's stream."""
        return await blocking_result(ctx, await self._find(ctx, "tasks/result", params.task_id))
