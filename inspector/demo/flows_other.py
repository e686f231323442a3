"""Tools for the non-elicitation flows: sampling, roots, state-only MRTR, progress, and a plain tool."""

from typing import Annotated, Any, Final

import anyio
from mcp.server.mcpserver import MCPServer
from mcp_types import CreateMessageRequest, InputRequiredResult, ModelHint, ModelPreferences, TextContent
from pydantic import Field

from inspector.demo.era_vocabulary import (
    DemoContext,
    decode_state,
    input_required,
    is_modern,
    legacy_list_roots,
    legacy_sample,
    require_roots,
    require_sampling,
    roots_answer,
    roots_request,
    sampling_answer,
    sampling_request,
)

CAPITAL_QUESTION: Final = "What is the capital of France?"
SLOW_COUNT_MAX: Final = 200
SLOW_COUNT_STEP_SECONDS: Final = 0.01
"""Pause between progress notifications: enough to see them arrive one by one, never a long sleep."""


def capital_request() -> CreateMessageRequest:
    """SEP-2322's sampling example, as the SEP writes it: the question, the model hints and priorities, the system
    prompt and maxTokens 100."""
    request = sampling_request(CAPITAL_QUESTION, max_tokens=100)
    preferences = ModelPreferences(
        hints=[ModelHint(name="claude-3-sonnet")], intelligence_priority=0.8, speed_priority=0.5
    )
    params = request.params.model_copy(
        update={"model_preferences": preferences, "system_prompt": "You are a helpful assistant."}
    )
    return request.model_copy(update={"params": params})


async def ask_capital(ctx: DemoContext) -> str | InputRequiredResult:
    """Ask the client's model (sampling) what the capital of France is."""
    require_sampling(ctx)
    request = capital_request()
    if is_modern(ctx):
        answer = sampling_answer(ctx, "capital_of_france")
        if answer is None:
            return input_required({"capital_of_france": request})
        blocks = answer.content if isinstance(answer.content, list) else [answer.content]
        model = answer.model
    else:
        legacy = await legacy_sample(ctx, request)
        blocks, model = [legacy.content], legacy.model
    text = " ".join(block.text for block in blocks if isinstance(block, TextContent))
    return f"The model ({model}) says: {text or '(no text)'}"


async def show_roots(ctx: DemoContext) -> str | InputRequiredResult:
    """List the client's roots (roots/list)."""
    require_roots(ctx)
    if is_modern(ctx):
        answer = roots_answer(ctx, "roots")
        if answer is None:
            return input_required({"roots": roots_request()})
    else:
        answer = await legacy_list_roots(ctx)
    if not answer.roots:
        return "The client shared no roots."
    lines = [f"- {root.name or '(unnamed)'}: {root.uri}" for root in answer.roots]
    return f"The client shared {len(lines)} root(s):\n" + "\n".join(lines)


async def heavy_report(ctx: DemoContext) -> str | InputRequiredResult:
    """Build a report; under load the server first answers state-only input_required ("load shedding")."""
    if not is_modern(ctx):
        return "Heavy report ready: 3 sections, 42 charts (built at once: legacy clients cannot be asked to retry)."
    state = decode_state(ctx)
    if state.get("ticket") is None:
        # No inputRequests at all: the client just retries, echoing the state, when the server has capacity.
        return input_required(state={"ticket": "heavy-report-1", "queued": True})
    return f"Heavy report ready: 3 sections, 42 charts (resumed from ticket {state['ticket']})."


async def slow_count(
    n: Annotated[int, Field(ge=0, le=SLOW_COUNT_MAX, description="How far to count (one progress step each)")],
    ctx: DemoContext,
) -> str:
    """Count to n, sending one progress notification per step."""
    # The limit is in the input schema (minimum/maximum): a client's form can say it before sending, and the SDK
    # refuses an n out of range (isError) before this function runs.
    for step in range(1, n + 1):
        await ctx.report_progress(step, n, f"counted {step} of {n}")
        if step < n:
            await anyio.sleep(SLOW_COUNT_STEP_SECONDS)
    return f"Counted to {n}."


def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def register(server: MCPServer[Any]) -> None:
    """Add the sampling, roots, load-shedding, progress and plain tools to `server`."""
    for tool in (ask_capital, show_roots, heavy_report, slow_count, add):
        server.add_tool(tool)
