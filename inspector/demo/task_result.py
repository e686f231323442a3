"""2025-11-25 `tasks/result`: block until the task ends, asking the client the task's questions meanwhile.

"When the requestor encounters the input_required status, it SHOULD preemptively call tasks/result"; the server
sends the task's requests on that stream, each carrying `_meta["io.modelcontextprotocol/related-task"]` (MUST).
Two rules keep one `tasks/result` from going wrong:

- a question being asked by one `tasks/result` is not asked by another at the same time (`task.delivering`);
- an ask in flight stops when the task ends meanwhile (cancelled, or expired): the SDK withdraws its request, and
  the response says how the task ended instead of waiting on an answer nobody needs.

A client that answers the question with an error (it could not, or would not, ask anyone) is not asked it again on
this `tasks/result`: the question stays outstanding for a later one, or until the task is cancelled.
"""

from __future__ import annotations

from typing import Any

import anyio
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp.shared.message import ServerMessageMetadata
from mcp_types import ElicitRequest, ElicitResult

from inspector.demo.task_model import DemoTask
from inspector.demo.task_wire import legacy_payload, related


async def blocking_result(ctx: ServerRequestContext[Any, Any], task: DemoTask) -> dict[str, Any]:
    """The task's payload once it has ended (or its error, raised); see the module docstring."""
    refused: set[str] = set()
    while not task.terminal:
        changed = task.changed
        question = next(
            ((k, r) for k, r in task.outstanding.items() if k not in task.delivering and k not in refused), None
        )
        if question is None:
            await changed.wait()
            continue
        key, request = question
        task.delivering.add(key)
        try:
            answer = await _ask_while_running(ctx, task, request)
        except MCPError:
            refused.add(key)
            continue
        finally:
            task.delivering.discard(key)
        if answer is not None:
            task.answer(key, answer)
    return legacy_payload(task)


async def _ask_while_running(
    ctx: ServerRequestContext[Any, Any], task: DemoTask, request: ElicitRequest
) -> ElicitResult | None:
    """The client's answer, or None when the task ended before it came; raises the client's error reply."""
    answer: ElicitResult | None = None
    refusal: MCPError | None = None
    with anyio.CancelScope() as scope:
        async with anyio.create_task_group() as group:
            group.start_soon(_cancel_when_ended, task, scope)
            tied = ElicitRequest(params=request.params.model_copy(update={"meta": related(task)}))
            metadata = ServerMessageMetadata(related_request_id=ctx.request_id)
            try:
                answer = await ctx.session.send_request(tied, ElicitResult, metadata=metadata)
            except MCPError as error:
                refusal = error  # raised outside the group, which would wrap it in an ExceptionGroup
            group.cancel_scope.cancel()
    if refusal is not None:
        raise refusal
    return answer


async def _cancel_when_ended(task: DemoTask, scope: anyio.CancelScope) -> None:
    while not task.terminal:
        await task.changed.wait()
    scope.cancel()
