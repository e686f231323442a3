"""The task driver: follow a task from its creation to its end, answering what it asks on the way.

A plain async function over injected closures, like the MRTR driver (``mrtr.py``), so every rule is tested with no
transport: ``get()`` polls (``tasks/get``), ``update(responses)`` answers (2026 ``tasks/update``; SEP-2322's
``tasks/input_response``), ``result()`` fetches the outcome (2025 ``tasks/result``, which blocks until the task
ended and carries the server's own requests on its way), ``cancel()`` asks the server to stop (``tasks/cancel``),
``answer(key, request)`` asks the answers source.

The rules (the Tasks extension, ext-tasks ``specification/draft/tasks.md``, and 2025-11-25 ``tasks.mdx``):

- poll at the server's ``pollIntervalMs`` (2025: ``pollInterval``), never faster, 1 s without a hint (what the
  official ext-tasks client does), between ``MIN_POLL_S`` and ``MAX_POLL_S`` whatever the server says (a hint
  outside them is a finding, ``task_polling.py``);
- a task's input requests repeat on every poll until answered: each key is answered once, and ``tasks/update``
  carries the keys not answered yet, only those;
- a question the person answers by cancelling the whole call (``CallCancelled``: the TUI's Escape) cancels the
  task: ``tasks/cancel`` at once, as for any cancel, never a call that ends on the screen while its task runs on;
- cancelling is cooperative: ``tasks/cancel`` is sent once (never ``notifications/cancelled`` for a task), then the
  task is followed until it ends, so the timeline shows what it really did (cancelled, or completed anyway); when it
  has not ended ``after_cancel_s`` later, the driver stops following it (``detached``);
- a task still running ``timeout_s`` after the driver began to follow it (``--task-timeout``,
  ``protocol.task_polling.TASK_TIMEOUT_S`` by default) is cancelled the same way, and its end says it timed out
  (``TaskEnd.timed_out``): a task the server never ends must not be polled for as long as the session lasts;
- 2025-11-25: on ``input_required`` the client calls ``tasks/result`` (the server's requests arrive on it and are
  answered like any legacy server request); at the end, ``tasks/result`` gives the payload. A ``tasks/result``
  that answers ``input_required`` itself is SEP-2322's persistent workflow: its keys are answered and sent back
  with ``update``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from inspector.answers.source import CallCancelled
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.task_polling import poll_hint_ms, poll_wait_s
from inspector.session.mrtr_driver import AnswerFn, SleepFn
from inspector.timeline.task_span import TERMINAL_TASK_STATUSES, TaskShape

GetFn = Callable[[], Awaitable[JsonObject]]
UpdateFn = Callable[[JsonObject], Awaitable[JsonObject]]
ResultFn = Callable[[], Awaitable[JsonObject]]
CancelFn = Callable[[], Awaitable[JsonObject]]

AFTER_CANCEL_S: Final = 30.0
"""How long a cancelled task is followed before the driver stops waiting for it to end."""


@dataclass(frozen=True, slots=True)
class TaskEnd:
    """How the task ended for the driver: its terminal status (or ``detached``: it still ran when the driver
    stopped following it), and its result or JSON-RPC error when it had one."""

    status: str
    result: JsonObject | None = None
    error: JsonObject | None = None
    cancel_sent: bool = False
    timed_out: bool = False
    """The driver cancelled the task because it ran past its ``timeout_s``."""


def task_of(created: JsonObject, shape: TaskShape) -> JsonObject:
    """The task object of a creation result: flat (2026), or nested under ``task`` (2025)."""
    if shape == "ext-2026":
        return created
    nested = created.get("task")
    return nested if isinstance(nested, dict) else {}


async def drive_task(
    created: JsonObject,
    *,
    shape: TaskShape,
    get: GetFn,
    update: UpdateFn,
    result: ResultFn | None,
    cancel: CancelFn,
    answer: AnswerFn,
    cancel_requested: asyncio.Event,
    sleep: SleepFn = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
    after_cancel_s: float = AFTER_CANCEL_S,
    timeout_s: float | None = None,
) -> TaskEnd:
    """Follow the task of ``created`` to its end (see the module docstring); raises what the closures raise
    (an ``RpcError`` from a poll: the task is unknown or expired). ``timeout_s``: cancel it when it still runs
    that long after now (None or 0: never)."""
    task = task_of(created, shape)
    answered: set[str] = set()
    cancel_sent = False
    timed_out = False
    give_up_at: float | None = None
    deadline = clock() + timeout_s if timeout_s else None
    outcome: JsonObject | None = None
    while True:
        status = task.get("status")
        if status in TERMINAL_TASK_STATUSES:
            end = await _ended(task, shape, result, outcome, cancel_sent)
            return dataclasses.replace(end, timed_out=timed_out) if timed_out else end
        if deadline is not None and not cancel_requested.is_set() and clock() >= deadline:
            timed_out = True
            cancel_requested.set()  # (cancelled as a person's cancel is: once, then followed to what it did)
        if cancel_requested.is_set() and not cancel_sent:
            await cancel()
            cancel_sent = True
            give_up_at = clock() + after_cancel_s
        elif status == "input_required" and not cancel_sent:
            try:
                if shape == "ext-2026":
                    await _answer_new(task.get("inputRequests"), answered, answer, update)
                elif result is not None:
                    left = deadline - clock() if deadline is not None else None
                    outcome = await _blocking_result(result, cancel_requested, left)
                    if outcome is None and not cancel_requested.is_set():  # the deadline came while it blocked
                        timed_out = True
                        cancel_requested.set()
                        continue
                    if outcome is not None and outcome.get("resultType") == "input_required":
                        shape = "seed-2322"
                        await _answer_new(outcome.get("inputRequests"), answered, answer, update)
                        outcome = None
            except CallCancelled:
                cancel_requested.set()  # the person cancelled the call at the task's question: cancel the task
                outcome = None
                continue
        if give_up_at is not None and clock() >= give_up_at:
            return TaskEnd("detached", cancel_sent=cancel_sent, timed_out=timed_out)
        wait = poll_wait_s(poll_hint_ms(task))
        if deadline is not None and not cancel_sent:
            wait = min(wait, max(deadline - clock(), 0.0))  # (a poll hint of minutes must not outlast the timeout)
        await _wait(wait, cancel_requested if not cancel_sent else None, sleep)
        if deadline is not None and not cancel_sent and clock() >= deadline:
            continue  # (due now: cancelled at the top, without one more poll first)
        task = await get()


async def _answer_new(requests: object, answered: set[str], answer: AnswerFn, update: UpdateFn) -> None:
    """Answer the keys not answered yet (a poll repeats them all), then send those answers in one update."""
    if not isinstance(requests, dict):
        return
    responses: JsonObject = {}
    for key, request in requests.items():
        if key in answered or not isinstance(request, dict):
            continue
        responses[key] = await answer(str(key), request)
        answered.add(str(key))
    if responses:
        await update(responses)


async def _blocking_result(
    result: ResultFn, cancel_requested: asyncio.Event, timeout_s: float | None = None
) -> JsonObject | None:
    """2025 ``tasks/result`` while the task waits for input: it returns when the task ended (or, SEP-2322, with the
    input requests). A cancel requested meanwhile, or ``timeout_s`` passing, leaves it running and returns None, so
    the cancel is sent."""
    fetching = asyncio.ensure_future(result())
    waiting = asyncio.ensure_future(cancel_requested.wait())
    try:
        timeout = max(timeout_s, 0.0) if timeout_s is not None else None
        await asyncio.wait({fetching, waiting}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()
    if fetching.done():
        return fetching.result()
    fetching.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await fetching
    return None


async def _ended(
    task: JsonObject, shape: TaskShape, result: ResultFn | None, outcome: JsonObject | None, cancel_sent: bool
) -> TaskEnd:
    status = str(task.get("status"))
    if shape == "ext-2026":
        inline = task.get("result")
        error = task.get("error")
        return TaskEnd(
            status,
            inline if isinstance(inline, dict) else None,
            error if isinstance(error, dict) else None,
            cancel_sent,
        )
    if status == "cancelled" or result is None:
        return TaskEnd(status, cancel_sent=cancel_sent)
    payload = outcome if outcome is not None else await result()
    return TaskEnd(status, payload, None, cancel_sent)


async def _wait(seconds: float, wake: asyncio.Event | None, sleep: SleepFn) -> None:
    """Sleep until the next poll is due; a cancel requested meanwhile wakes the driver at once."""
    if wake is None:
        await sleep(seconds)
        return
    sleeping = asyncio.ensure_future(sleep(seconds))
    woken = asyncio.ensure_future(wake.wait())
    try:
        await asyncio.wait({sleeping, woken}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        sleeping.cancel()
        woken.cancel()
