"""``start_now``: a coroutine's first step runs before it returns (a cancel is on the wire before the key's action
returns); the rest runs as a task, with its result, its exception and its cancellation as a task's would be."""

from __future__ import annotations

import asyncio

import pytest

from inspector.session.eager import start_now


async def test_the_first_step_runs_before_start_now_returns() -> None:
    seen: list[str] = []
    go = asyncio.Event()

    async def work() -> int:
        seen.append("sent")  # what the cancel does before it waits: hand its message to the transport
        await go.wait()
        seen.append("answered")
        return 7

    running = start_now(work())
    assert seen == ["sent"]  # nothing was awaited in between
    await asyncio.sleep(0)
    assert seen == ["sent"] and not running.done()
    go.set()
    assert await running == 7 and seen == ["sent", "answered"]


async def test_a_coroutine_that_never_waits_is_done_at_once() -> None:
    async def work() -> str:
        return "done"

    running = start_now(work())
    assert running.done() and running.result() == "done"


async def test_what_it_raises_before_or_after_waiting_is_its_future_s() -> None:
    async def early() -> None:
        raise ValueError("before")

    async def late() -> None:
        await asyncio.sleep(0)
        raise KeyError("after")

    with pytest.raises(ValueError, match="before"):
        await start_now(early())
    with pytest.raises(KeyError, match="after"):
        await start_now(late())


async def test_cancelling_it_cancels_the_coroutine_where_it_waits() -> None:
    stopped = asyncio.Event()

    async def work() -> None:
        try:
            await asyncio.Future()
        finally:
            stopped.set()

    running = start_now(work())
    await asyncio.sleep(0)
    running.cancel()
    with pytest.raises(asyncio.CancelledError):
        await running
    assert stopped.is_set()


async def test_bare_yields_and_several_waits_go_on_as_in_a_task() -> None:
    async def work() -> int:
        total = 0
        for step in range(5):
            await asyncio.sleep(0)
            total += step
        return total

    assert await start_now(work()) == 10
