"""The demo's task pieces in one process, no server: the scale, the table, a task's life, its wire shapes."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from mcp_types import ElicitResult

from inspector.demo.flows_tasks import nightly_plan, release_plan
from inspector.demo.task_model import SCALE_ENV, DemoTask, Plan, Work, poll_interval_ms, task_scale
from inspector.demo.task_table import TaskTable
from inspector.demo.task_wire import legacy_created, legacy_payload, modern_created, modern_detailed

if TYPE_CHECKING:
    from collections.abc import Callable

BOUND_S = 10.0


@pytest.mark.parametrize(
    ("raw", "scale"), [("", 1.0), ("0.5", 0.5), ("2", 2.0), ("abc", 1.0), ("0", 1.0), ("-1", 1.0), ("nan", 1.0)]
)
def test_scale_from_the_environment(raw: str, scale: float, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SCALE_ENV, raw)
    assert task_scale() == scale


@pytest.mark.parametrize(("scale", "poll"), [(1.0, 250), (0.5, 125), (0.1, 50), (0.01, 50), (2.0, 500), (9.0, 500)])
def test_poll_hint_follows_the_scale_within_50_to_500_ms(scale: float, poll: int) -> None:
    assert poll_interval_ms(scale) == poll


async def until(task: DemoTask, done: Callable[[DemoTask], bool]) -> None:
    """Wait for the task's changes until `done` holds (bounded)."""
    with anyio.fail_after(BOUND_S):
        while not done(task):
            await task.changed.wait()


async def test_a_task_asks_takes_only_outstanding_answers_and_completes() -> None:
    table = TaskTable(scale=0.01)
    async with table.running():
        task = table.start(release_plan("1.0", "staging"))
        assert modern_created(task)["statusMessage"] == "building"  # born on its first step
        await until(task, lambda t: t.status == "input_required")
        asking = modern_detailed(task)
        assert list(asking["inputRequests"]) == ["approve_release"]
        assert asking["inputRequests"]["approve_release"]["method"] == "elicitation/create"

        approve = ElicitResult(action="accept", content={"approved": True})
        assert table.deliver(task, {"unknown": approve, "approve_release": approve}) == ["approve_release"]
        assert table.deliver(task, {"approve_release": approve}) == []  # answered already: ignored
        await until(task, lambda t: t.terminal)
    done = modern_detailed(task)
    assert done["status"] == "completed" and done["resultType"] == "complete"
    assert done["result"]["content"][0]["text"] == "Released v1.0 to staging (approved)."
    assert "inputRequests" not in done
    assert legacy_payload(task)["_meta"] == {"io.modelcontextprotocol/related-task": {"taskId": task.task_id}}
    assert set(legacy_created(task)["task"]) >= {"taskId", "status", "ttl", "pollInterval", "createdAt"}


async def test_a_plan_that_raises_fails_the_task_with_a_json_rpc_error() -> None:
    def broken(_: object) -> str:
        raise RuntimeError("the build farm is on fire")

    table = TaskTable(scale=0.01)
    async with table.running():
        task = table.start(Plan((Work("compiling", 0.1),), broken))
        await until(task, lambda t: t.terminal)
    failed = modern_detailed(task)
    assert failed["status"] == "failed"
    assert failed["error"] == {"code": -32603, "message": "the task failed: the build farm is on fire"}
    with pytest.raises(MCPError) as raised:
        legacy_payload(task)
    assert raised.value.error.code == -32603


async def test_cancel_stops_the_work_once_and_ended_tasks_stay_ended() -> None:
    table = TaskTable(scale=1.0)
    async with table.running():
        task = table.start(nightly_plan())
        assert await task.cancel() == "cancelled"
        ended_at = task.updated_at
        assert await task.cancel() == "cancelled" and task.updated_at == ended_at, "how it ended; nothing changes"
        assert task.status == "cancelled"
        assert table.deliver(task, {"anything": ElicitResult(action="decline")}) == []
        assert await table.find(task.task_id) is task


async def test_unknown_and_expired_tasks_are_32602() -> None:
    table = TaskTable(scale=1.0)
    async with table.running():
        task = table.start(nightly_plan(), ttl_ms=60000)
        assert task.ttl_ms == 60000 and [t.task_id for t in table.all()] == [task.task_id]
        task.expires_at = time.monotonic() - 1  # its TTL passed
        for task_id in (task.task_id, "no-such-task"):
            with pytest.raises(MCPError) as raised:
                await table.find(task_id)
            assert raised.value.error.code == -32602
        assert table.all() == []


def test_no_tasks_outside_the_lifespan() -> None:
    with pytest.raises(MCPError) as raised:
        TaskTable().start(nightly_plan())
    assert raised.value.error.code == -32603
