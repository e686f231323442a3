"""Load: call one tool over and over for a while, from C concurrent workers, and report rate and latency."""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from inspector.protocol.jsonrpc import JsonObject, RequestId

if TYPE_CHECKING:  # (`inspector --help` reads DRAIN_S: the timeline is imported by the load that runs)
    from inspector.timeline.build.state import LetGo
    from inspector.timeline.kept_findings import KeptFindings
    from inspector.timeline.model import Finding
    from inspector.timeline.outcome import Outcome

CallFn = Callable[[], Awaitable["Outcome"]]
DRAIN_S = 10.0
"""Seconds the calls still in flight when the duration is over may take to end before they are cancelled: a call
that takes longer than this in a load run is one the server has most likely dropped, and waiting for its request
timeout (60 s by default) would stretch a 5 s run to a minute."""
LET_GO_EVERY = 256
"""Calls between two ``let_go``: the session drops the calls that ended and its history (a heap that stays flat
however long the run), in batches, so the per-call cost of looking for them stays out of the calling loop."""


@dataclass(frozen=True, slots=True)
class Unanswered:
    """A request still waiting for its response when the drain was over: what to look for in the server's log."""

    request_id: RequestId
    call: int
    """The call it belongs to (its ``#`` in the session)."""
    method: str

    def to_json(self) -> JsonObject:
        """Its entry in the --json document's ``unanswered``."""
        return {"requestId": self.request_id, "call": self.call, "method": self.method}

    def __str__(self) -> str:
        return f"request id {self.request_id!r} ({self.method}, call #{self.call})"


@dataclass(slots=True)
class FindingTally:
    """The findings of a run by code: how many, and the first of each. A count, not a list: a server with a finding
    on every reply raises millions in a long run, and keeping each would grow the heap by every one."""

    by_code: dict[str, tuple[int, Finding]] = field(default_factory=dict)
    """Each code raised -> how many times, and the first finding of that code."""
    total: int = 0

    def add(self, findings: KeptFindings[Finding]) -> None:
        """Count these findings (what the timeline let go of: every one counted by code, the first of each kept)."""
        by_code = self.by_code
        for code, raised, found in findings.tally():
            count, first = by_code.get(code, (0, found))
            by_code[code] = (count + raised, first)
            self.total += raised


@dataclass(slots=True)
class Latencies:
    """Call latencies counted by the whole microsecond, the precision the report gives: nearest-rank percentiles,
    min, max and mean exact to it, in memory bounded by how many distinct microseconds the calls took, not by how
    many calls there were (a list of floats grows by 32 bytes a call: 230 MB in ten minutes at 12,000 calls/s)."""

    by_us: dict[int, int] = field(default_factory=dict)
    """Latency in whole microseconds -> how many calls took it."""
    count: int = 0
    total_ms: float = 0.0

    @classmethod
    def of(cls, values_ms: Iterable[float]) -> Latencies:
        """The latencies of these calls (milliseconds)."""
        latencies = cls()
        for ms in values_ms:
            latencies.add(ms)
        return latencies

    def add(self, ms: float) -> None:
        """One call's latency, in milliseconds."""
        us = round(ms * 1000.0)
        self.by_us[us] = self.by_us.get(us, 0) + 1
        self.count += 1
        self.total_ms += ms

    def percentile(self, p: float) -> float:
        """Latency percentile by nearest rank (the smallest value with at least p% of the calls at or below it),
        in milliseconds; 0 when nothing ran."""
        if not self.count:
            return 0.0
        rank = min(self.count, max(1, math.ceil(p / 100 * self.count)))
        seen = 0
        for us in sorted(self.by_us):
            seen += self.by_us[us]
            if seen >= rank:
                return us / 1000.0
        raise AssertionError("unreachable: the counts add up to count")  # pragma: no cover

    def summary(self) -> JsonObject:
        """min, p50, p90, p99, max and mean, in milliseconds (0 each when nothing ran)."""
        if not self.count:
            return dict.fromkeys(("min", "p50", "p90", "p99", "max", "mean"), 0)
        return {
            "min": min(self.by_us) / 1000.0,
            "p50": self.percentile(50),
            "p90": self.percentile(90),
            "p99": self.percentile(99),
            "max": max(self.by_us) / 1000.0,
            "mean": round(self.total_ms / self.count, 3),
        }


@dataclass(frozen=True, slots=True)
class LoadReport:
    """Throughput and latency percentiles of a load run."""

    errors: int
    seconds: float
    """The calling window: from the first call's start to the end of the duration, or to the last call that ended
    after it (the calls cancelled at the end do not stretch it)."""
    latencies: Latencies = field(default_factory=Latencies)
    findings: FindingTally = field(default_factory=FindingTally)
    """What the run's calls raised (``unknown-response-id``, a result off its schema, a timeout ...)."""
    unfinished: int = 0
    """Calls still waiting for the server when the drain was over, cancelled then (not in ``calls``)."""
    drain: float = DRAIN_S
    """The seconds the unfinished calls were given after the duration (``--drain``)."""
    unanswered: tuple[Unanswered, ...] = ()
    """The requests the unfinished calls were waiting on when they were cancelled (a call in the middle of its MRTR
    rounds or of following a task waits on one of its requests), oldest first."""

    @property
    def calls(self) -> int:
        """Completed calls (each one latency)."""
        return self.latencies.count

    @property
    def rate(self) -> float:
        """Completed calls per second."""
        return self.calls / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> JsonObject:
        """The --json document."""
        return {
            "calls": self.calls,
            "errors": self.errors,
            "unfinished": self.unfinished,
            "unanswered": [request.to_json() for request in self.unanswered],
            "durationSeconds": round(self.seconds, 3),
            "callsPerSecond": round(self.rate, 1),
            "latencyMs": self.latencies.summary(),
            "findings": [
                {"code": code, "severity": first.severity, "count": count, "first": first.message,
                 "firstCall": first.call_index}
                for code, (count, first) in self.findings.by_code.items()
            ],
        }  # fmt: skip


async def run_load(
    call: CallFn,
    *,
    duration: float,
    concurrency: int,
    clock: Callable[[], float] = time.perf_counter,
    let_go: Callable[[], LetGo] | None = None,
    drain: float = DRAIN_S,
    waiting: Callable[[], Sequence[Unanswered]] | None = None,
) -> LoadReport:
    """Run ``concurrency`` workers calling ``call`` until ``duration`` seconds have passed; ``let_go`` (every
    ``LET_GO_EVERY`` calls, and once at the end): the session drops what it kept of the calls that ended and hands
    back the findings raised since, which the report counts. What the run keeps grows with neither.

    The calls in flight when the duration is over get ``drain`` more seconds (of the event loop's time) to end;
    those still waiting then are cancelled (the session ends them ``cancelled`` and tells the server) and counted
    as unfinished, so a server that never answers one request cannot hold the run until that request's timeout.
    ``waiting`` names the requests still unanswered then (asked before the cancel, which ends them)."""
    import asyncio  # (here: `inspector --help` imports this module for DRAIN_S, and needs no event loop)

    latencies = Latencies()
    findings = FindingTally()
    errors = 0
    start = clock()
    deadline = start + duration
    last_end = start

    async def worker() -> None:
        nonlocal errors, last_end
        while clock() < deadline:
            began = clock()
            outcome = await call()
            last_end = clock()
            latencies.add((last_end - began) * 1000.0)
            if not outcome.ok:
                errors += 1
            if let_go is not None and latencies.count % LET_GO_EVERY == 0:
                findings.add(let_go().findings)

    workers = [asyncio.ensure_future(worker()) for _ in range(concurrency)]
    unanswered: tuple[Unanswered, ...] = ()
    late: set[asyncio.Task[None]] = set()
    try:
        _, late = await asyncio.wait(workers, timeout=duration + drain)
        if late and waiting is not None:
            unanswered = tuple(waiting())
        for task in late:  # (the reason goes to the call's end and to the server's notifications/cancelled)
            task.cancel(f"still waiting {drain:g} s after the load run's end")
    finally:  # (the drain was over, or the run itself was cancelled: Ctrl-C)
        for task in workers:
            if task not in late:  # (a second cancel would drop the reason the first one gave)
                task.cancel()
        ended = await asyncio.gather(*workers, return_exceptions=True)
    failed = [e for e in ended if isinstance(e, BaseException) and not isinstance(e, asyncio.CancelledError)]
    if failed:
        raise failed[0]
    seconds = max(last_end, min(clock(), deadline)) - start
    if let_go is not None:
        findings.add(let_go().findings)
    return LoadReport(errors, seconds, latencies, findings, unfinished=len(late), drain=drain, unanswered=unanswered)
