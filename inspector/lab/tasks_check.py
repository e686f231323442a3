"""Seed 004's group 3: a task made on A, the client dropped, ``tasks/get`` on B from a new client within the TTL.

The task is made on the main session, routed to A, and as soon as its id is on the timeline the lab stops following
it (the client is gone; the task runs on). A new session (a new connection; stdio: a new process of B's command)
asks B for it by the id alone. Working, input_required or a terminal status: B knows the task. An error (-32602,
"unknown task"): the task lives where only A finds it, a finding about that deployment.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from inspector.answers.source import AnswerSource
from inspector.lab.baseline import Baseline, Reference
from inspector.lab.evidence import SHARED_TASKS
from inspector.lab.lab_report import Row
from inspector.lab.lab_session import LabSession
from inspector.lab.plan import LabTargets
from inspector.protocol.sanitize import one_line
from inspector.timeline.model import CallStarted, RoundUpdated, TimelineEvent
from inspector.timeline.task_span import TASK_STATUSES

AddRow = Callable[[Row], None]


async def group_three(
    main: LabSession, baseline: Baseline, targets: LabTargets, source: AnswerSource, add: AddRow
) -> None:
    """Each call that made a task on A: made again, dropped, looked up on B."""
    tasks = [r for r in baseline.references if r.task]
    if not tasks:
        add(Row("stateless 3", "task tools", "", "skip", "no task tools seen: none of the calls made a task",
                "call a tool the server runs as a task (--call TOOL)"))  # fmt: skip
        return
    made: list[tuple[Reference, str, int | None, float, int]] = []
    for reference in tasks:
        created = await _make_and_drop(main, reference)
        if isinstance(created, str):
            add(Row("stateless 3", f"{reference.call.label}: a task on A", "A", "fail", created, SHARED_TASKS))
        elif created is None:
            add(Row("stateless 3", f"{reference.call.label}: a task on A", "A", "skip",
                    "this time the call did not make a task (it answered at once)"))  # fmt: skip
        else:
            made.append((reference, *created))
    if made:
        await _look_up_on_b(made, targets, source, add)


async def _make_and_drop(main: LabSession, reference: Reference) -> tuple[str, int | None, float, int] | str | None:
    """Make the call on A until its task id is on the timeline, then stop following it: (task id, ttlMs, when,
    call), None when no task came, or why it failed."""
    seen = asyncio.Event()
    timeline = main.session.timeline
    first_new = len(timeline.calls) + 1

    def watch(event: TimelineEvent) -> None:
        if isinstance(event, CallStarted | RoundUpdated) and event.call.index >= first_new and event.call.task:
            seen.set()

    unsubscribe = timeline.subscribe(watch)
    main.answers.same_as(reference.ran.call)
    main.routed.route_to("A")
    running = asyncio.ensure_future(main.session.request(reference.call.method, dict(reference.call.params)))
    waiting = asyncio.ensure_future(seen.wait())
    try:
        await asyncio.wait({running, waiting}, timeout=main.session.timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        unsubscribe()
        waiting.cancel()
    call = main.session.timeline.calls[first_new - 1] if len(main.session.timeline.calls) >= first_new else None
    span = call.task if call is not None else None
    if not running.done():
        running.cancel()  # the client drops: the task runs on, on A
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await running
    if span is None:
        if running.done() and not running.cancelled() and running.exception() is None:
            return None
        return f"no task id within --timeout {main.session.timeout:g} s"
    return span.task_id, span.ttl_ms, time.monotonic(), call.index if call is not None else 0


async def _look_up_on_b(
    made: list[tuple[Reference, str, int | None, float, int]], targets: LabTargets, source: AnswerSource, add: AddRow
) -> None:
    later = LabSession(targets, ("B",), source, era="auto", part="tasks")
    try:
        problem = await later.connect()
        for reference, task_id, ttl_ms, made_at, call_index in made:
            label = f"{reference.call.label}: task {one_line(task_id, 40)}"
            if problem is not None:
                add(Row("stateless 3", label, "A · B", "fail", f"a new client could not reach B: {problem[0]}",
                        problem[1], call=call_index))  # fmt: skip
                continue
            outcome = await later.session.look_at_task(task_id, "get")
            waited_ms = (time.monotonic() - made_at) * 1000
            result = outcome.result or {}
            status = result.get("status") if outcome.status == "complete" else None
            within = ttl_ms is None or waited_ms < ttl_ms
            ttl = f"ttlMs {ttl_ms}" if ttl_ms is not None else "no ttlMs"
            route = "A · B (a new client)"
            if isinstance(status, str) and status in TASK_STATUSES:
                why = f"B knows the task A made: {status} ({waited_ms:.0f} ms after it was made, {ttl})"
                add(Row("stateless 3", label, route, "pass", why, part="tasks", call=outcome.call_index))
            elif not within:
                why = f"the TTL had passed when B was asked ({waited_ms:.0f} ms, {ttl}): nothing can be said"
                add(Row("stateless 3", label, route, "skip", why, part="tasks", call=outcome.call_index))
            else:
                said = outcome.detail or (f"status {status!r}" if status is not None else outcome.status)
                why = (
                    f"B does not know the task A made ({one_line(said, 120)}) {waited_ms:.0f} ms after it was "
                    f"made, within its {ttl}: the task lives where only A finds it"
                )
                add(Row("stateless 3", label, route, "fail", why, SHARED_TASKS, part="tasks", call=outcome.call_index))
    finally:
        await later.close()
