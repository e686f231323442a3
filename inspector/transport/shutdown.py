"""A transport's ``close``, run once however many callers ask for it.

Every transport's ``close`` is idempotent and bounded, and callers race to it (a face's quit and the session's own
teardown): the first caller starts the shutdown, every other caller, concurrent or later, waits on that same run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


class SharedShutdown:
    """One run of ``shutdown`` for all callers of ``run``. The run is shielded: a caller cancelled while it waits
    leaves the shutdown going for the others (a half-closed process or client would be worse than a late one)."""

    def __init__(self, shutdown: Callable[[], Awaitable[None]], opened: Callable[[], bool]) -> None:
        self._shutdown = shutdown
        self._opened = opened
        """Whether there is anything to shut down: closing a transport never started is a no-op."""
        self._task: asyncio.Task[None] | None = None

    @property
    def started(self) -> bool:
        """True once a caller asked to close (the transport sends nothing more from then on)."""
        return self._task is not None

    async def run(self) -> None:
        if self._task is None:
            if not self._opened():
                return
            self._task = asyncio.get_running_loop().create_task(self._run())
        await asyncio.shield(self._task)

    async def _run(self) -> None:
        await self._shutdown()
