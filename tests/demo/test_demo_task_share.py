"""Two demo task tables sharing one folder, as two instances of a deployment do (``demo/task_share.py``): a task
one instance runs is found, answered and cancelled through the other; ids from a client never name a file outside
the folder; a task gone past its TTL is gone for both."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from mcp_types import ElicitResult

from inspector.demo.flows_tasks import nightly_plan, release_plan
from inspector.demo.task_model import DemoTask
from inspector.demo.task_share import SharedTasks
from inspector.demo.task_table import TaskTable
from inspector.demo.task_wire import modern_detailed

BOUND_S = 10.0
APPROVE = ElicitResult(action="accept", content={"approved": True})


def names(folder: Path) -> list[str]:
    """The files in ``folder``, sorted."""
    return sorted(path.name for path in folder.iterdir())


async def until(task: DemoTask, done: Callable[[DemoTask], bool]) -> None:
    """Wait for the task's changes until `done` holds (bounded)."""
    with anyio.fail_after(BOUND_S):
        while not done(task):
            await task.changed.wait()


@asynccontextmanager
async def two_instances(folder: Path) -> AsyncIterator[tuple[TaskTable, TaskTable]]:
    a, b = TaskTable(scale=0.01, shared=SharedTasks(folder)), TaskTable(scale=0.01, shared=SharedTasks(folder))
    async with a.running(), b.running():
        yield a, b


async def test_b_follows_a_task_a_runs_and_its_answer_reaches_the_work(tmp_path: Path) -> None:
    async with two_instances(tmp_path) as (a, b):
        task = a.start(release_plan("1.0", "staging"))
        mirror = await b.find(task.task_id)
        assert mirror is not task and mirror.task_id == task.task_id and mirror.ttl_ms == task.ttl_ms
        assert mirror.created_at == task.created_at
        await until(mirror, lambda t: t.status == "input_required")
        assert list(modern_detailed(mirror)["inputRequests"]) == ["approve_release"]

        assert b.deliver(mirror, {"approve_release": APPROVE, "unknown": APPROVE}) == ["approve_release"]
        assert b.deliver(mirror, {"approve_release": APPROVE}) == [], "answered already, on this instance"
        await until(task, lambda t: t.terminal)  # A's own work took the answer B was given
        await until(mirror, lambda t: t.terminal)
        assert await b.find(task.task_id) is mirror and b.all() == [mirror]
    assert modern_detailed(mirror) == modern_detailed(task)
    assert modern_detailed(mirror)["result"]["content"][0]["text"] == "Released v1.0 to staging (approved)."


async def test_a_cancel_given_to_b_stops_the_work_on_a(tmp_path: Path) -> None:
    async with two_instances(tmp_path) as (a, b):
        task = a.start(release_plan("1.0", "staging"))
        mirror = await b.find(task.task_id)
        await until(mirror, lambda t: t.status == "input_required")  # A's work waits for the approval
        assert await mirror.cancel() == "cancelled"
        assert mirror.status == "cancelled", "cancelled before the answer goes out (2025: MUST)"
        await until(task, lambda t: t.terminal)
        assert task.status == "cancelled"
        assert (await a.find(task.task_id)).status == (await b.find(task.task_id)).status == "cancelled"


async def test_a_cancel_given_to_b_is_what_a_says_at_once_not_at_its_next_poll(tmp_path: Path) -> None:
    async with two_instances(tmp_path) as (a, b):
        task = a.start(nightly_plan())
        mirror = await b.find(task.task_id)
        assert await mirror.cancel() == "cancelled"
        assert (await a.find(task.task_id)).status == "cancelled", "a client routed to A next sees what B told it"
        assert task.status == "cancelled" and modern_detailed(task).get("result") is None


async def test_work_that_completes_after_b_was_given_a_cancel_ends_cancelled_as_b_said(tmp_path: Path) -> None:
    async with two_instances(tmp_path) as (a, b):
        task = a.start(nightly_plan())
        mirror = await b.find(task.task_id)
        assert await mirror.cancel() == "cancelled"
        await task.complete("built")  # A's work ends before its next poll picked up the cancel
        assert task.status == "cancelled" and task.result_text is None, "one task, ended one way"


async def test_a_cancel_given_to_b_after_a_ended_the_task_says_how_it_ended_and_changes_nothing(
    tmp_path: Path,
) -> None:
    async with two_instances(tmp_path) as (a, b):
        task = a.start(nightly_plan())
        mirror = await b.find(task.task_id)
        assert SharedTasks(tmp_path).claim_end(task.task_id, "completed") == "completed"  # (A, before it saves)
        assert await mirror.cancel() == "completed"
        assert mirror.status != "cancelled", "B never says cancelled for a task that completed"
        assert SharedTasks(tmp_path).claim_end(task.task_id, "cancelled") == "completed", "the first claim holds"


@pytest.mark.parametrize("task_id", ["../../etc/passwd", "no-such-task", "3f2c1a9e-0000-4000-8000-000000000000", ""])
async def test_ids_the_folder_has_no_task_for_are_32602(tmp_path: Path, task_id: str) -> None:
    async with two_instances(tmp_path / "tasks") as (_, b):
        with pytest.raises(MCPError) as raised:
            await b.find(task_id)
        assert raised.value.error.code == -32602
    assert names(tmp_path) == ["tasks"], "nothing written outside the folder"


async def test_a_task_past_its_ttl_is_gone_for_both(tmp_path: Path) -> None:
    async with two_instances(tmp_path) as (a, b):
        task = a.start(nightly_plan(), ttl_ms=60000)
        assert (await b.find(task.task_id)).status == "working"
        task.expires_at = time.monotonic() - 1  # its TTL passed
        with pytest.raises(MCPError):
            await a.find(task.task_id)
        assert names(tmp_path) == [], "the snapshot went with it"
        with pytest.raises(MCPError):
            await b.find(task.task_id)


async def test_a_snapshot_that_is_not_json_is_an_unknown_task(tmp_path: Path) -> None:
    async with two_instances(tmp_path) as (a, b):
        task = a.start(nightly_plan())
        (tmp_path / f"{task.task_id}.json").write_text("{not json", encoding="utf-8")
        with pytest.raises(MCPError) as raised:
            await b.find(task.task_id)
        assert raised.value.error.code == -32602
        assert await a.find(task.task_id) is task, "the instance running it still has it"


async def test_without_a_folder_each_table_keeps_its_tasks(tmp_path: Path) -> None:
    a, b = TaskTable(scale=0.01), TaskTable(scale=0.01)
    async with a.running(), b.running():
        task = a.start(nightly_plan())
        with pytest.raises(MCPError):
            await b.find(task.task_id)
