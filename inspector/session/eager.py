"""Starting a coroutine now: everything it does before it first waits runs before ``start_now`` returns.

A cancel must leave when the person asks for it. Scheduled as a task, it would run only after whatever the event
loop has ready first (in the TUI, a repaint or a burst of timeline messages: measured at 100-150 ms behind the
key); started now, the message is handed to the transport before the caller goes on, and only the wait for the
server's reply runs as a task. Python 3.12's ``eager_start`` does this; on 3.11 the coroutine's first step is run
here and the rest handed to a task that resumes it where it stopped.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Coroutine, Generator
from typing import Any, TypeVar

Result = TypeVar("Result")


def start_now(coro: Coroutine[Any, Any, Result]) -> asyncio.Future[Result]:
    """Run ``coro`` up to its first wait now; the rest runs as a task (its future is returned)."""
    loop = asyncio.get_running_loop()
    if sys.version_info >= (3, 12):  # pragma: no cover - the 3.11 path below is the one CI runs
        return asyncio.Task(coro, loop=loop, eager_start=True)
    try:
        first = coro.send(None)
    except StopIteration as done:
        future: asyncio.Future[Result] = loop.create_future()
        future.set_result(done.value)
        return future
    except BaseException as failed:  # (what it raised before waiting is the future's, as a task's would be)
        future = loop.create_future()
        future.set_exception(failed)
        return future
    return asyncio.ensure_future(_resumed(coro, first))


async def _resumed(coro: Coroutine[Any, Any, Result], first: Any) -> Result:
    result: Result = await _Resume(coro, first)
    return result


class _Resume:
    """Awaitable that carries on a coroutine that already ran its first step: the value it yielded (the future it
    waits on) is yielded to the task first, then every value sent or exception thrown in goes on to the coroutine."""

    def __init__(self, coro: Coroutine[Any, Any, Any], first: Any) -> None:
        self.coro = coro
        self.first = first

    def __await__(self) -> Generator[Any, Any, Any]:
        yielded = self.first
        while True:
            try:
                sent = yield yielded
            except BaseException as thrown:  # (a cancel of the task goes to the coroutine, as it would have)
                try:
                    yielded = self.coro.throw(thrown)
                except StopIteration as done:
                    return done.value
                continue
            try:
                yielded = self.coro.send(sent)
            except StopIteration as done:
                return done.value
