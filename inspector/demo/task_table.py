"""The demo server's tasks, kept in memory per server process by taskId, and the work that runs them.

A task outlives the request that created it (seed 004: "close the client: work that must go on is a Task"), so
its work runs in a task group the server's lifespan owns, not in the request's. Any later request, on any
connection of this process, finds it by id until its TTL has passed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager

import anyio
import anyio.abc
from mcp.shared.exceptions import MCPError
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, ElicitResult, ErrorData

from inspector.demo.task_model import (
    MAX_TTL_MS,
    TTL_MS,
    Ask,
    DemoTask,
    Notify,
    Plan,
    Work,
    poll_interval_ms,
    task_scale,
)

logger = logging.getLogger(__name__)


class TaskTable:
    """Every task of this process, by taskId; `start` creates one and runs its plan in the background."""

    def __init__(self, scale: float | None = None) -> None:
        self.scale = task_scale() if scale is None else scale
        self.poll_ms = poll_interval_ms(self.scale)
        self._tasks: dict[str, DemoTask] = {}
        self._group: anyio.abc.TaskGroup | None = None

    @asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """The span in which tasks can run (the server's lifespan); the work still running at its end stops."""
        async with anyio.create_task_group() as group:
            self._group = group
            try:
                yield
            finally:
                self._group = None
                group.cancel_scope.cancel()

    def start(self, plan: Plan, *, ttl_ms: int | None = None, notify: Notify | None = None) -> DemoTask:
        """Create a task and start its work. It is in the table before this returns, so a `tasks/get` right
        after the CreateTaskResult finds it (the 2026 extension's "durably created")."""
        if self._group is None:
            raise MCPError(code=INTERNAL_ERROR, message="the demo server is not running tasks (no lifespan)")
        ttl = TTL_MS if ttl_ms is None else max(1, min(ttl_ms, MAX_TTL_MS))
        first = plan.steps[0] if plan.steps else None
        message = first.message if isinstance(first, Work) else None
        task = DemoTask(ttl_ms=ttl, poll_ms=self.poll_ms, message=message, notify=notify)
        self._prune()
        self._tasks[task.task_id] = task
        self._group.start_soon(self._run, task, plan)
        return task

    def find(self, task_id: str) -> DemoTask:
        """The task with this id; -32602 when it is unknown or expired (both eras say so)."""
        self._prune()
        task = self._tasks.get(task_id)
        if task is None:
            raise MCPError(code=INVALID_PARAMS, message=f"Task not found: {task_id} (unknown, or its TTL passed)")
        return task

    def all(self) -> list[DemoTask]:
        """Every live task, oldest first (2025-11-25 `tasks/list`)."""
        self._prune()
        return list(self._tasks.values())

    def _prune(self) -> None:
        now = time.monotonic()
        for task_id, task in list(self._tasks.items()):
            if now >= task.expires_at:
                if task.scope is not None:
                    task.scope.cancel()
                del self._tasks[task_id]

    async def _run(self, task: DemoTask, plan: Plan) -> None:
        answers: dict[str, ElicitResult] = {}
        with anyio.CancelScope() as scope:
            task.scope = scope
            try:
                for step in plan.steps:
                    if isinstance(step, Work):
                        await task.working(step.message)
                        await anyio.sleep(step.seconds * self.scale)
                    elif isinstance(step, Ask):
                        answers[step.key] = await task.ask(step.key, step.request)
                text = plan.finish(answers)
            except Exception as exc:
                # A bug in a flow: the task fails with a JSON-RPC error (2026: `failed` is only for those).
                logger.exception("task %s failed", task.task_id)
                await task.fail(ErrorData(code=INTERNAL_ERROR, message=f"the task failed: {exc}"))
                return
            await task.complete(text)  # a no-op when a tasks/cancel ended it first


def answers_of(task: DemoTask, responses: Mapping[str, ElicitResult]) -> list[str]:
    """Deliver `responses` to the task; the keys it took (outstanding ones only, the rest is ignored)."""
    return [key for key, response in responses.items() if task.answer(key, response)]
