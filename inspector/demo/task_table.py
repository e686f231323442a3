"""The demo server's tasks by taskId, and the work that runs them.

A task outlives the request that created it (seed 004: "close the client: work that must go on is a Task"), so
its work runs in a task group the server's lifespan owns, not in the request's. Any later request, on any
connection of this process, finds it by id until its TTL has passed; with a `SharedTasks` folder, so does any other
instance sharing it (a mirror of the task, `task_share.py`), and this one finds theirs.
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
from inspector.demo.task_share import SharedTasks

logger = logging.getLogger(__name__)


class TaskTable:
    """Every task of this process by taskId (and mirrors of the other instances' with `shared`); `start` creates
    one and runs its plan in the background."""

    def __init__(self, scale: float | None = None, shared: SharedTasks | None = None) -> None:
        self.scale = task_scale() if scale is None else scale
        self.poll_ms = poll_interval_ms(self.scale)
        self.shared = shared
        self._tasks: dict[str, DemoTask] = {}
        self._mirrors: dict[str, DemoTask] = {}
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
        shared = self.shared
        saving = notify if shared is None else self._saving(shared, notify)
        task = DemoTask(ttl_ms=ttl, poll_ms=self.poll_ms, message=message, notify=saving, ends=shared)
        self._prune()
        self._tasks[task.task_id] = task
        if shared is not None:
            shared.save(task)
            self._group.start_soon(self._pick_up_notes, shared, task)
        self._group.start_soon(self._run, task, plan)
        return task

    async def find(self, task_id: str) -> DemoTask:
        """The task with this id; -32602 when it is unknown or expired (both eras say so). A task this instance
        runs that another one was told to cancel ends now, before anyone is told it still works."""
        self._prune()
        task = self._tasks.get(task_id) or self._mirror(task_id)
        if task is None:
            raise MCPError(code=INVALID_PARAMS, message=f"Task not found: {task_id} (unknown, or its TTL passed)")
        shared = self.shared
        if task.relay is None and not task.terminal and shared is not None and shared.ended(task_id) == "cancelled":
            await task.cancel()
        return task

    def all(self) -> list[DemoTask]:
        """Every live task, oldest first (2025-11-25 `tasks/list`), the other instances' too when shared."""
        self._prune()
        theirs = [self._mirror(i) for i in self.shared.ids() if i not in self._tasks] if self.shared else []
        return [*self._tasks.values(), *(task for task in theirs if task is not None)]

    def deliver(self, task: DemoTask, responses: Mapping[str, ElicitResult]) -> list[str]:
        """Deliver `responses` to the task; the keys it took (outstanding ones only, the rest is ignored)."""
        taken = [key for key, response in responses.items() if task.answer(key, response)]
        if taken and self.shared is not None and task.relay is None:
            self.shared.save(task)  # the other instances see the questions answered
        return taken

    def _mirror(self, task_id: str) -> DemoTask | None:
        """Another instance's task, as this one last read it from the shared folder (followed from then on)."""
        if self.shared is None:
            return None
        mirror = self._mirrors.get(task_id)
        if mirror is not None:
            if self.shared.refresh(mirror):
                return mirror
            del self._mirrors[task_id]
            return None
        mirror = self.shared.mirror(task_id)
        if mirror is not None:
            self._mirrors[task_id] = mirror
            if self._group is not None:
                self._group.start_soon(self._follow, self.shared, mirror)
        return mirror

    def _prune(self) -> None:
        now = time.monotonic()
        for task_id, task in list(self._tasks.items()):
            if now >= task.expires_at:
                if task.scope is not None:
                    task.scope.cancel()
                del self._tasks[task_id]
                if self.shared is not None:
                    self.shared.forget(task_id)
        for task_id, mirror in list(self._mirrors.items()):
            if now >= mirror.expires_at:
                del self._mirrors[task_id]

    @staticmethod
    def _saving(shared: SharedTasks, notify: Notify | None) -> Notify:
        """Every change of a task this instance runs is written for the others before anyone is told."""

        async def save_then_notify(task: DemoTask) -> None:
            shared.save(task)
            if notify is not None:
                await notify(task)

        return save_then_notify

    async def _pick_up_notes(self, shared: SharedTasks, task: DemoTask) -> None:
        """The answers and the cancel other instances left for a task this one runs, every poll interval."""
        while not task.terminal and self._tasks.get(task.task_id) is task:
            await anyio.sleep(task.poll_ms / 1000)
            self.deliver(task, dict(shared.take_answers(task.task_id)))
            if shared.ended(task.task_id) == "cancelled":
                await task.cancel()

    async def _follow(self, shared: SharedTasks, mirror: DemoTask) -> None:
        """Keep a mirror current, so a 2025 `tasks/result` waiting on it sees its changes and questions."""
        while not mirror.terminal and self._mirrors.get(mirror.task_id) is mirror:
            await anyio.sleep(mirror.poll_ms / 1000)
            if not shared.refresh(mirror):
                self._mirrors.pop(mirror.task_id, None)

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
            await task.complete(text)  # cancelled instead when a tasks/cancel ended it first, here or elsewhere
