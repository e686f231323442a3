"""Request timeouts: every request in flight with a deadline, watched by one loop timer set for the earliest, and
counted again from each progress notification of the request (never past its maximum)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from inspector.protocol.jsonrpc import RequestId, WireParse

_TIMER_SLACK_S = 0.002
"""How early the loop may run a timer (uvloop counts whole milliseconds): a deadline this close is due."""


class Expired(Exception):
    """The request's timeout passed before its response arrived."""


@dataclass(slots=True)
class Pending:
    """A request in flight: the future its response resolves, its call and method, and its deadline."""

    future: asyncio.Future[WireParse]
    call: int
    method: str
    deadline: float | None = None
    """Loop time after which the request has timed out (None: no timeout)."""
    timeout: float | None = None
    """The per-request timeout, counted again from each progress notification of the request."""
    max_deadline: float | None = None
    """Loop time after which progress no longer extends the deadline (``--max-timeout``)."""
    progress_token: Any = None
    progressed: bool = False
    waiting_since: float | None = None
    """Loop time a login of this request began waiting on a person (its deadline is held meanwhile)."""


class Deadlines:
    """Times out the requests of ``pending`` (the connection's table, which it keeps: a request that finished is
    dropped from it, so a stream of quick requests costs one dict entry each instead of a loop timer armed and
    cancelled per request)."""

    def __init__(self, pending: dict[RequestId, Pending]) -> None:
        self._pending = pending
        self.by_token: dict[Any, RequestId] = {}
        """Progress tokens of requests in flight (with a timeout) -> their ids."""
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0

    def watch(
        self,
        loop: asyncio.AbstractEventLoop,
        request_id: RequestId,
        pending: Pending,
        timeout: float,
        max_timeout: float | None,
        progress_token: int | str | None,
    ) -> None:
        """Give a request that just left its deadline: ``timeout`` from now, as a per-request timer would."""
        now = loop.time()
        pending.deadline = deadline = now + timeout
        pending.timeout = timeout
        if max_timeout is not None:
            pending.max_deadline = now + max(max_timeout, timeout)
        if progress_token is not None:
            pending.progress_token = progress_token
            self.by_token[progress_token] = request_id
        if self._timer is None or deadline < self._timer_at:
            self._arm(loop, deadline)

    def forget(self, progress_token: int | str) -> None:
        """The request of ``progress_token`` is no longer in flight."""
        self.by_token.pop(progress_token, None)

    def progressed(self, params: Any) -> None:
        """A request's progress notification: its timeout counts again from now (never past its maximum)."""
        token = params.get("progressToken") if isinstance(params, dict) else None
        request_id = self.by_token.get(token) if isinstance(token, int | str) else None
        pending = self._pending.get(request_id) if request_id is not None else None
        if pending is None or pending.timeout is None or pending.future.done():
            return
        later = asyncio.get_running_loop().time() + pending.timeout
        if pending.max_deadline is not None:
            later = min(later, pending.max_deadline)
        if pending.deadline is not None and later > pending.deadline:
            # (the timer fires for the old deadline, finds this one not due and sets itself for it)
            pending.deadline = later
            pending.progressed = True

    def hold(self, loop: asyncio.AbstractEventLoop, pending: Pending) -> None:
        """The request waits on a person (a login in a browser): no deadline until ``resume``."""
        if pending.waiting_since is None:
            pending.waiting_since = loop.time()
            pending.deadline = None

    def resume(self, loop: asyncio.AbstractEventLoop, pending: Pending) -> float:
        """A step of the request's login happened: its timeout counts again from now (a person's wait ends, if it
        was one); returns the seconds spent waiting on the person."""
        waited = 0.0
        if pending.waiting_since is not None:
            waited = loop.time() - pending.waiting_since
            pending.waiting_since = None
        if pending.timeout is not None and not pending.future.done():
            pending.deadline = deadline = loop.time() + pending.timeout
            if self._timer is None or deadline < self._timer_at:
                self._arm(loop, deadline)
        return waited

    def stop(self) -> None:
        """No more timeouts (the connection is closing)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _arm(self, loop: asyncio.AbstractEventLoop, when: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer_at = when
        self._timer = loop.call_at(when, self._fire, loop)

    def _fire(self, loop: asyncio.AbstractEventLoop) -> None:
        """Time out every request whose deadline has passed; set the timer again for the earliest one left."""
        self._timer = None
        due = loop.time() + _TIMER_SLACK_S
        earliest: float | None = None
        for pending in list(self._pending.values()):
            deadline = pending.deadline
            if deadline is None or pending.future.done():
                continue
            if deadline <= due:
                pending.future.set_exception(Expired())
            elif earliest is None or deadline < earliest:
                earliest = deadline
        if earliest is not None:
            self._arm(loop, earliest)
