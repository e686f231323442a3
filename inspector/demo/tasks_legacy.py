"""The 2025-11-25 parts of the demo's tasks that an `Extension` cannot reach, as one `Server.middleware`.

Why a middleware: on a handshake connection the SDK validates every spec result against the 2025 schema of its
method, and for `tools/call` that is `CallToolResult` (mcp-types keeps `CreateTaskResult` out of its unions:
"types-only"), so the nested `{"task": {...}}` cannot come from the tool handler or its interceptor. A middleware
wraps the handler chain and its result is sent as it returns it. It also adds what the SDK never declares:

- `initialize`: `capabilities.tasks` (list, cancel, `requests.tools.call`);
- `tools/list`: `execution.taskSupport` on the task tools (`optional` / `required`);
- `tools/call` with `params.task`: runs the tool with a `TaskRequest` (its questions before the task are asked on
  the call's stream first), answers the task it started as `CreateTaskResult`, and notifies each status change of
  that task with `notifications/tasks/status` on the connection's standalone channel (stdio: the pipe; HTTP: the
  GET stream). `params.task` on a tool that is not a task tool is -32601 (SHOULD).
"""

from __future__ import annotations

from typing import Any, cast

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.session import ServerSession
from mcp_types import ServerNotification, TaskStatusNotification, TaskStatusNotificationParams
from pydantic import BaseModel

from inspector.demo.task_model import DemoTask, Notify
from inspector.demo.task_runner import TaskRequest, call_asking_for_a_task
from inspector.demo.task_wire import LEGACY_TASKS_CAPABILITY, legacy_created, legacy_task, not_a_task_tool
from inspector.demo.tasks_ext import LEGACY_TASKS_VERSION, DemoTasks
from inspector.protocol.json_values import json_int


def _as_dict(result: HandlerResult) -> dict[str, Any]:
    if isinstance(result, BaseModel):
        return result.model_dump(by_alias=True, mode="json", exclude_none=True)
    return dict(result) if result is not None else {}


def status_notifier(session: ServerSession) -> Notify:
    """Send the task's state as `notifications/tasks/status` on the session's standalone channel (best effort:
    the SDK drops it when the client is gone, and the task goes on)."""

    async def notify(task: DemoTask) -> None:
        params = TaskStatusNotificationParams.model_validate(legacy_task(task))
        # TaskStatusNotification is outside the SDK's ServerNotification union (types-only); it is sent as is.
        await session.send_notification(cast(ServerNotification, TaskStatusNotification(params=params)))

    return notify


class LegacyTaskMiddleware:
    """`Server.middleware` for 2025-11-25 tasks (see the module docstring)."""

    def __init__(self, tasks: DemoTasks) -> None:
        self.tasks = tasks

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "initialize":
            return self._initialized(await call_next(ctx))
        if ctx.request_id is None or ctx.protocol_version != LEGACY_TASKS_VERSION:
            return await call_next(ctx)
        if ctx.method == "tools/list":
            return self._listed(await call_next(ctx))
        params = ctx.params or {}
        if ctx.method == "tools/call" and params.get("task") is not None:
            return await self._task_call(ctx, params, call_next)
        return await call_next(ctx)

    def _initialized(self, result: HandlerResult) -> HandlerResult:
        wire = _as_dict(result)
        capabilities = wire.get("capabilities")
        if wire.get("protocolVersion") != LEGACY_TASKS_VERSION or not isinstance(capabilities, dict):
            return result  # older revisions have no tasks
        wire["capabilities"] = {**capabilities, "tasks": LEGACY_TASKS_CAPABILITY}
        return wire

    def _listed(self, result: HandlerResult) -> HandlerResult:
        wire = _as_dict(result)
        tools = wire.get("tools")
        if not isinstance(tools, list):
            return result
        support = self.tasks.task_tools
        wire["tools"] = [
            {**tool, "execution": {"taskSupport": support[tool["name"]]}}
            if isinstance(tool, dict) and tool.get("name") in support
            else tool
            for tool in tools
        ]
        return wire

    async def _task_call(self, ctx: ServerRequestContext[Any, Any], params: Any, call_next: CallNext) -> HandlerResult:
        name = params.get("name")
        if name not in self.tasks.task_tools:
            raise not_a_task_tool(str(name))
        asked = params.get("task")
        ttl = asked.get("ttl") if isinstance(asked, dict) else None
        request = TaskRequest(
            ttl_ms=json_int(ttl),
            notify=status_notifier(ctx.session),
        )
        result = await call_asking_for_a_task(request, ctx, call_next)
        # No task when the tool ended before starting one (a question declined): its plain result goes out.
        return legacy_created(request.created) if request.created is not None else result
