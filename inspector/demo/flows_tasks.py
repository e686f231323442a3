"""Tools that run as tasks (work that must outlive the request), in both protocol eras.

Each tool reads top to bottom like the other flows: what it needs before it can start is asked on the call itself
(2026-07-28 MRTR, or a legacy server request), then its `Plan` runs through `run_plan`, which makes it a task when
the call asked for one (the 2026 extension declared in the request's `_meta`; 2025-11-25 `params.task`) and runs it
inline otherwise. "The MRTR phase ends when the server returns any non-input_required resultType": the task takes
over from there, and every later question goes through the Tasks API.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from mcp.server.mcpserver import MCPServer
from mcp_types import ElicitResult, InputRequiredResult

from inspector.demo.era_vocabulary import (
    DemoContext,
    decode_state,
    elicit,
    form_request,
    require_elicitation,
)
from inspector.demo.schemas import APPROVE_RELEASE_SCHEMA, ENVIRONMENT_SCHEMA, ENVIRONMENTS
from inspector.demo.task_model import Ask, Plan, Work
from inspector.demo.task_runner import run_plan
from inspector.demo.tasks_ext import DemoTasks

ENVIRONMENT_MESSAGE: Final = "Which environment should the release go to?"
NIGHTLY_TESTS: Final = 1284
REFUSED: Final = {"accept": "answered without one", "decline": "declined", "cancel": "cancelled"}


def _accepted(answer: ElicitResult | None, name: str) -> Any:
    """One field of an accepted form answer (None when absent or not accepted)."""
    if answer is None or answer.action != "accept" or answer.content is None:
        return None
    return answer.content.get(name)


def release_plan(version: str, environment: str) -> Plan:
    """Build and test (~2 s), ask for approval, release (~1 s)."""
    approve = form_request(f"Release v{version} to {environment}? It is built and tested.", APPROVE_RELEASE_SCHEMA)

    def finish(answers: Mapping[str, ElicitResult]) -> str:
        verdict = "approved" if _accepted(answers.get("approve_release"), "approved") is True else "declined"
        if verdict == "declined":
            return f"Release v{version} to {environment} stopped before going out (declined): nothing was released."
        return f"Released v{version} to {environment} (approved)."

    return Plan(
        (Work("building", 1.0), Work("testing", 1.0), Ask("approve_release", approve), Work("releasing", 1.0)),
        finish,
    )


def nightly_plan() -> Plan:
    """Compile, run the suite, package (~2.5 s): no questions."""
    return Plan(
        (Work("compiling", 1.0), Work("running the test suite", 1.0), Work("packaging", 0.5)),
        lambda _: f"Nightly build passed: {NIGHTLY_TESTS} tests, artifacts in dist/nightly.",
    )


class TaskFlows:
    """The task tools, bound to the server's tasks (the SDK registers bound methods like functions)."""

    def __init__(self, tasks: DemoTasks) -> None:
        self.tasks = tasks

    async def deploy_release(
        self, version: str, ctx: DemoContext, environment: str | None = None
    ) -> str | InputRequiredResult:
        """Deploy a release (a task if the client can): asks the environment first, builds, tests, asks approval."""
        require_elicitation(ctx)
        if environment is None:
            environment = decode_state(ctx).get("environment")  # a later inline round carries it
        if environment is None:
            answer = await elicit(ctx, "environment", form_request(ENVIRONMENT_MESSAGE, ENVIRONMENT_SCHEMA))
            if isinstance(answer, InputRequiredResult):
                return answer  # MRTR before any task exists: this round sits on the tools/call, ahead of the task
            environment = _accepted(answer, "environment")
            if environment is None:
                return f"Nothing was released: the environment question was {REFUSED[answer.action]}."
        if environment not in ENVIRONMENTS:
            return f"Nothing was released: unknown environment {environment!r} (use {' or '.join(ENVIRONMENTS)})."
        return await run_plan(
            ctx,
            self.tasks.table,
            release_plan(version, str(environment)),
            tool="deploy_release",
            carry={"environment": environment},
        )

    async def nightly_build(self, ctx: DemoContext) -> str | InputRequiredResult:
        """Run the nightly build, only ever as a task: a client without tasks support is refused."""
        return await run_plan(ctx, self.tasks.table, nightly_plan(), tool="nightly_build", required=True)


def register(server: MCPServer[Any], tasks: DemoTasks) -> None:
    """Add the task tools to `server`, and tell `tasks` how each may run (2025 `execution.taskSupport`)."""
    flows = TaskFlows(tasks)
    server.add_tool(flows.deploy_release)
    server.add_tool(flows.nightly_build)
    tasks.task_tools.update({"deploy_release": "optional", "nightly_build": "required"})
