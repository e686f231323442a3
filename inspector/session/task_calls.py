"""Following a call's task to its end: the session's collaborator that turns the task driver's closures into
``tasks/*`` requests of the same call, and its end into the call's outcome.

Every request the driver makes is a round of the call that created the task, so the timeline shows the MRTR rounds,
the creation, the polls, the updates (with who answered) and the end in one place, and a recording replays it.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable

from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.task_polling import TASK_TIMEOUT_S
from inspector.session.calls import CallServices
from inspector.session.eager import start_now
from inspector.session.task_driver import AFTER_CANCEL_S, TaskEnd, drive_task, task_of
from inspector.session.task_store import TaskStore
from inspector.timeline import findings as lint
from inspector.timeline.build.state import RELATED_TASK
from inspector.timeline.model import CallStatus
from inspector.timeline.outcome import Outcome
from inspector.timeline.task_span import TaskShape


def _retrieved(future: asyncio.Future[JsonObject]) -> None:
    """A cancel's outcome nobody waits for any more (it is on the timeline, from the wire)."""
    if not future.cancelled():
        future.exception()


def with_task_request(
    params: JsonObject, *, declared: bool, server_capabilities: JsonObject | None, tool: JsonObject | None
) -> JsonObject:
    """2025-11-25: ``params.task`` on a ``tools/call`` the server may run as a task (the tool's
    ``execution.taskSupport`` is optional or required, the server offers ``tasks.requests.tools.call``), when
    tasks are on (``declared``)."""
    if "task" in params or not declared:
        return params
    offered = (server_capabilities or {}).get("tasks")
    requests = offered.get("requests") if isinstance(offered, dict) else None
    tools = requests.get("tools") if isinstance(requests, dict) else None
    if not (isinstance(tools, dict) and "call" in tools):
        return params
    execution = tool.get("execution") if tool is not None else None
    support = execution.get("taskSupport") if isinstance(execution, dict) else None
    return {**params, "task": {}} if support in ("optional", "required") else params


def asked_shape(method: str, sent: JsonObject, *, legacy: bool, declared: bool) -> TaskShape | None:
    """The task a request may be answered with, known before its reply (None: no task can come): a 2025-11-25
    ``tools/call`` that carries ``params.task`` (a task-augmented request), or a 2026 one that declared the Tasks
    extension (the server decides)."""
    if method != "tools/call":
        return None
    if legacy:
        return "legacy-2025" if "task" in sent else None
    return "ext-2026" if declared else None


def created_shape(method: str, sent: JsonObject, result: JsonObject, *, declared: bool) -> TaskShape | None:
    """Which task the result of a request created, when it is one the call may follow (None: not a task, or one
    the client did not ask for)."""
    if method != "tools/call":
        return None
    if result.get("resultType") == "task":
        return "ext-2026" if declared else None
    if "task" in sent and isinstance(result.get("task"), dict) and "content" not in result:
        return "legacy-2025"
    return None


class TaskFollower:
    """Drives the tasks of a session's calls, one driver per call, and lets a call's task be cancelled."""

    def __init__(
        self, calls: CallServices, store: TaskStore | None = None, timeout_s: float | None = TASK_TIMEOUT_S
    ) -> None:
        self._calls = calls
        self.store = store
        """Where the ids of the tasks followed are kept (``inspector task get ID`` finds them again)."""
        self.timeout_s = timeout_s
        """How long a task is followed before it is cancelled, with a ``task-timeout`` finding (None: no limit)."""
        self._cancels: dict[int, asyncio.Event] = {}
        self._send_cancel: dict[int, Callable[[], object]] = {}
        self._asked: dict[int, TaskShape] = {}
        """Calls whose request in flight may be answered with a task, and in which shape (``asked_shape``)."""
        self._cancel_early: set[int] = set()
        """Calls cancelled while such a request waited for its reply: the task it names, once it comes, is cancelled
        at once (``tasks/cancel`` before any poll), so a cancel pressed before the task id was known is never
        dropped, nor the task left running on the server."""

    def following(self, call: int) -> bool:
        """Is a task of ``call`` being followed now?"""
        return call in self._cancels

    def asking(self, call: int, shape: TaskShape | None) -> None:
        """``call`` sends a request that may be answered with a task of ``shape`` (None: it may not)."""
        if shape is not None:
            self._asked[call] = shape
        elif self._asked:
            self._asked.pop(call, None)

    def asked(self, call: int) -> TaskShape | None:
        """The task ``call``'s request may be answered with (None: none can come)."""
        return self._asked.get(call) if self._asked else None

    def cancel_when_created(self, call: int) -> None:
        """``call`` was cancelled before its task's id came: the task is cancelled as soon as it does."""
        self._cancel_early.add(call)

    def cancel_asked(self, call: int) -> bool:
        """Was ``call`` cancelled while its task was still to come (``cancel_when_created``)?"""
        return bool(self._cancel_early) and call in self._cancel_early

    def forget(self, call: int) -> None:
        """``call`` ended: nothing of it is remembered."""
        if self._asked or self._cancel_early:
            self._asked.pop(call, None)
            self._cancel_early.discard(call)

    def cancel(self, call: int) -> bool:
        """Ask for the task of ``call`` to be cancelled; False when the call has no task being followed.
        ``tasks/cancel`` is handed to the transport before this returns (``start_now``), even while a poll or an
        update of the call waits for its reply (a person pressing cancel must not wait on the server first); the
        driver collects its answer when it comes round to it."""
        event = self._cancels.get(call)
        if event is None:
            return False
        event.set()
        self._send_cancel[call]()
        return True

    async def follow(
        self,
        call: int,
        created: JsonObject,
        shape: TaskShape,
        capabilities: JsonObject | None,
        *,
        tool: str | None = None,
        cancel_first: bool = False,
    ) -> Outcome:
        """Follow the task ``created`` made (or that ``call`` looks at again) until it ends; the call's outcome.
        ``cancel_first``: ask for it to be cancelled at once (``inspector task cancel ID``)."""
        task = task_of(created, shape)
        task_id = str(task.get("taskId", ""))
        current: list[TaskShape] = [shape]
        self._remember(task_id, shape, tool, task)

        async def request(method: str, params: JsonObject, *, unbounded: bool = False) -> JsonObject:
            return await self._calls.send(call, method, params, capabilities, unbounded=unbounded)

        async def get() -> JsonObject:
            return await request("tasks/get", {"taskId": task_id})

        async def update(responses: JsonObject) -> JsonObject:
            if current[0] == "ext-2026":
                return await request("tasks/update", {"taskId": task_id, "inputResponses": responses})
            current[0] = "seed-2322"
            params: JsonObject = {"inputResponses": responses, "_meta": {RELATED_TASK: {"taskId": task_id}}}
            return await request("tasks/input_response", params)

        async def result() -> JsonObject:
            return await request("tasks/result", {"taskId": task_id}, unbounded=True)

        sending: list[asyncio.Future[JsonObject]] = []

        def send_cancel() -> asyncio.Future[JsonObject]:
            if not sending:  # (once: cancelling is asked of the server one time)
                sending.append(start_now(request("tasks/cancel", {"taskId": task_id})))
            return sending[0]

        async def cancel() -> JsonObject:
            return await send_cancel()

        async def answer(key: str, request_: JsonObject) -> JsonObject:
            return await self._calls.ledger.answer(call, key, request_)

        event = self._cancels[call] = asyncio.Event()
        self._send_cancel[call] = send_cancel
        if cancel_first or self.cancel_asked(call):
            event.set()
        try:
            end = await drive_task(
                created,
                shape=shape,
                get=get,
                update=update,
                result=result if shape != "ext-2026" else None,
                cancel=cancel,
                answer=answer,
                cancel_requested=event,
                timeout_s=self.timeout_s,
            )
        finally:
            self._cancels.pop(call, None)
            self._send_cancel.pop(call, None)
            for left in sending:  # a task that ended before its cancel was answered: the answer is the wire's
                left.add_done_callback(_retrieved)
        if sending and not end.cancel_sent:
            end = dataclasses.replace(end, cancel_sent=True)  # sent while a poll that ended the task was out
        if end.status != "detached":
            self._remember(task_id, shape, tool, {**task, "status": end.status})
        return self._outcome(call, task_id, end)

    async def watch(
        self, call: int, task_id: str, action: str, *, legacy: bool, capabilities: JsonObject | None
    ) -> Outcome:
        """Look at a task made earlier (``inspector task get|wait|cancel ID``): one ``tasks/get``; with ``wait``
        or ``cancel``, follow it to its end from there."""
        first = await self._calls.send(call, "tasks/get", {"taskId": task_id}, capabilities)
        if action == "get":
            return self._calls.ledger.end(call, "complete", result=first)
        shape: TaskShape = "legacy-2025" if legacy else "ext-2026"
        created = {"task": first} if legacy else first
        return await self.follow(call, created, shape, capabilities, cancel_first=action == "cancel")

    def _remember(self, task_id: str, shape: TaskShape, tool: str | None, task: JsonObject) -> None:
        if self.store is not None and task_id:
            self.store.remember(task_id, shape, tool, task)

    def _outcome(self, call: int, task_id: str, end: TaskEnd) -> Outcome:
        ledger = self._calls.ledger
        if end.timed_out:
            return self._timed_out(call, task_id, end)
        if end.status == "detached":
            return ledger.end(
                call,
                "detached",
                f"the task {task_id} still ran when this session stopped following it; "
                f"inspector task get {task_id} --server SPEC follows it again",
            )
        if end.status == "failed":
            error = end.error
            what = f"{error.get('code')} {error.get('message')}" if error is not None else "no error given"
            return ledger.end(call, "error", f"the task failed: {what}", error=error, result=end.result)
        if end.status == "cancelled":
            return ledger.end(call, "cancelled", "the task was cancelled", result=end.result)
        result = end.result or {}
        status: CallStatus = "tool-error" if result.get("isError") is True else "complete"
        detail = "cancel was asked, and the task completed anyway" if end.cancel_sent else ""
        return ledger.end(call, status, detail, result=end.result)

    def _timed_out(self, call: int, task_id: str, end: TaskEnd) -> Outcome:
        """The task ran past ``timeout_s`` and was cancelled: a ``task-timeout`` finding, and the call fails as a
        request that timed out does (exit 3), unless the task completed anyway (then its result stands)."""
        ledger = self._calls.ledger
        limit = f"--task-timeout {self.timeout_s:g} s"
        said = {
            "cancelled": "the server cancelled it",
            "detached": f"it still ran {AFTER_CANCEL_S:g} s later, when this session stopped following it",
        }.get(end.status, f"it ended {end.status} anyway")
        ledger.finding(
            lint.make(
                "task-timeout", f"the task {task_id} still ran after {limit}: tasks/cancel was sent, {said}", call=call
            )
        )
        if end.status in ("completed", "failed"):
            return self._outcome(call, task_id, dataclasses.replace(end, timed_out=False))
        again = f"; inspector task get {task_id} --wait follows it again" if end.status == "detached" else ""
        return ledger.end(
            call,
            "failed",
            f"the task {task_id} ran past {limit} and was cancelled: {said}",
            hint=f"raise --task-timeout (0: no limit) if the task is meant to run longer{again}",
        )
