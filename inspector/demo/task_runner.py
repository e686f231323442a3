"""Running a task tool's plan: as a task when the call asked for one, inline on the call otherwise.

Whether the call asked is decided above the tool, where the wire is known: the extension's `tools/call`
interceptor (2026-07-28: the request's `_meta` declares `io.modelcontextprotocol/tasks`) or the legacy middleware
(2025-11-25: `params.task`). Either one puts a `TaskRequest` in `TASK_REQUEST` for the length of the call; the tool
function runs as usual (so its own MRTR rounds, asked before any task exists, stay on the `tools/call`: the
hand-over), and `run_plan` either starts the task, which the one above then answers as a CreateTaskResult in its
era's shape, or runs the same plan inline:

- 2026-07-28 inline is MRTR: a question ends the call with `input_required`, the work done so far and the answers
  carried in `requestState`, and the retry resumes after it;
- legacy inline asks each question as an `elicitation/create` on the call's own stream.

Inline work reports progress (`notifications/progress` with the step's message) when the call gave a token.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp_types import ElicitResult, InputRequiredResult

from inspector.demo.era_vocabulary import (
    DemoContext,
    decode_state,
    elicit_answer,
    input_required,
    is_modern,
    legacy_elicit,
)
from inspector.demo.task_model import DemoTask, Notify, Plan, Work
from inspector.demo.task_table import TaskTable
from inspector.demo.task_wire import extension_missing, task_required


@dataclass
class TaskRequest:
    """The `tools/call` in flight asked to run as a task: with this TTL (2025 `params.task.ttl`), notifying status
    changes through `notify` (2025); `created` is set once the tool started its task."""

    ttl_ms: int | None = None
    notify: Notify | None = None
    created: DemoTask | None = None


TASK_REQUEST: ContextVar[TaskRequest | None] = ContextVar("inspector_demo_task_request", default=None)
"""Set by the interceptor / middleware around one `tools/call`; a context variable because the SDK calls the tool
function below them in the same task, with no other way to hand it something."""


async def call_asking_for_a_task(
    request: TaskRequest, ctx: ServerRequestContext[Any, Any], call_next: CallNext
) -> HandlerResult:
    """Run the rest of the handler chain (the tool) with `request` in `TASK_REQUEST`; `request.created` then says
    whether the tool started a task, which the caller answers with in its era's shape."""
    token = TASK_REQUEST.set(request)
    try:
        return await call_next(ctx)
    finally:
        TASK_REQUEST.reset(token)


async def run_plan(
    ctx: DemoContext,
    table: TaskTable,
    plan: Plan,
    *,
    tool: str,
    required: bool = False,
    carry: dict[str, Any] | None = None,
) -> str | InputRequiredResult:
    """Start `plan` as a task when the call asked for one; else run it inline, or refuse when the tool runs only
    as a task (2026: -32021 naming the extension; 2025: -32601, as `taskSupport: "required"` says).

    `carry` is what the tool learnt before the plan (its earlier MRTR answers): inline 2026 rounds keep it in
    `requestState`, since a retry only repeats the original arguments and the latest answers."""
    request = TASK_REQUEST.get()
    if request is not None:
        request.created = table.start(plan, ttl_ms=request.ttl_ms, notify=request.notify)
        # Never reaches the wire: the interceptor or the middleware answers with the CreateTaskResult instead.
        return f"task {request.created.task_id} started"
    if required:
        raise extension_missing(f"Tool {tool!r}") if is_modern(ctx) else task_required(tool)
    if is_modern(ctx):
        return await _inline_modern(ctx, table.scale, plan, carry or {})
    return await _inline_legacy(ctx, table.scale, plan)


async def _work(ctx: DemoContext, scale: float, step: Work, index: int, total: int) -> None:
    await ctx.report_progress(index + 1, total, step.message)
    await anyio.sleep(step.seconds * scale)


async def _inline_modern(
    ctx: DemoContext, scale: float, plan: Plan, carry: dict[str, Any]
) -> str | InputRequiredResult:
    state = decode_state(ctx)
    start = state.get("done", 0)
    start = start if isinstance(start, int) and 0 <= start <= len(plan.steps) else 0
    saved = state.get("answers")
    answers = {
        str(key): ElicitResult.model_validate(value)
        for key, value in (saved.items() if isinstance(saved, dict) else ())
        if isinstance(value, dict)
    }
    for index in range(start, len(plan.steps)):
        step = plan.steps[index]
        if isinstance(step, Work):
            await _work(ctx, scale, step, index, len(plan.steps))
            continue
        answer = elicit_answer(ctx, step.key)
        if answer is None:
            # End the round here; the retry resumes at this very question with everything done so far.
            kept = {
                key: given.model_dump(by_alias=True, mode="json", exclude_none=True) for key, given in answers.items()
            }
            return input_required({step.key: step.request}, state={**carry, "done": index, "answers": kept})
        answers[step.key] = answer
    return plan.finish(answers)


async def _inline_legacy(ctx: DemoContext, scale: float, plan: Plan) -> str:
    answers: dict[str, ElicitResult] = {}
    for index, step in enumerate(plan.steps):
        if isinstance(step, Work):
            await _work(ctx, scale, step, index, len(plan.steps))
        else:
            answers[step.key] = await legacy_elicit(ctx, step.request)
    return plan.finish(answers)
