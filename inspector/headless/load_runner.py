"""Load: call one tool over and over for a while, from C concurrent workers, and report rate and latency."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from inspector.protocol.jsonrpc import JsonObject
from inspector.session.outcome import Outcome
from inspector.session.timeline import Finding

CallFn = Callable[[], Awaitable[Outcome]]
LET_GO_EVERY = 256
"""Calls between two ``let_go``: the session drops the calls that ended (a heap that stays flat however long the
run), in batches, so the per-call cost of looking for them stays out of the calling loop."""


@dataclass(frozen=True, slots=True)
class LoadReport:
    """Throughput and latency percentiles of a load run."""

    calls: int
    errors: int
    seconds: float
    latencies_ms: list[float]
    findings: list[Finding] = field(default_factory=list)
    """What the run's calls raised (``unknown-response-id``, a result off its schema, a timeout ...)."""

    @property
    def rate(self) -> float:
        """Completed calls per second."""
        return self.calls / self.seconds if self.seconds > 0 else 0.0

    def percentile(self, p: float) -> float:
        """Latency percentile by nearest rank (the smallest value with at least p% of the calls at or below it),
        0 when nothing ran."""
        if not self.latencies_ms:
            return 0.0
        ordered = sorted(self.latencies_ms)
        rank = min(len(ordered), max(1, math.ceil(p / 100 * len(ordered))))
        return ordered[rank - 1]

    def to_json(self) -> JsonObject:
        """The --json document."""
        lat = self.latencies_ms
        return {
            "calls": self.calls,
            "errors": self.errors,
            "durationSeconds": round(self.seconds, 3),
            "callsPerSecond": round(self.rate, 1),
            "latencyMs": {
                "min": round(min(lat), 3) if lat else 0,
                "p50": round(self.percentile(50), 3),
                "p90": round(self.percentile(90), 3),
                "p99": round(self.percentile(99), 3),
                "max": round(max(lat), 3) if lat else 0,
                "mean": round(sum(lat) / len(lat), 3) if lat else 0,
            },
            "findings": [
                {"code": code, "severity": first.severity, "count": count, "first": first.message,
                 "firstCall": first.call_index}
                for code, (count, first) in self.findings_by_code().items()
            ],
        }  # fmt: skip

    def findings_by_code(self) -> dict[str, tuple[int, Finding]]:
        """Each finding code the run raised: how many times, and the first one."""
        tally: dict[str, tuple[int, Finding]] = {}
        for found in self.findings:
            count, first = tally.get(found.code, (0, found))
            tally[found.code] = (count + 1, first)
        return tally


async def run_load(
    call: CallFn,
    *,
    duration: float,
    concurrency: int,
    clock: Callable[[], float] = time.perf_counter,
    let_go: Callable[[], object] | None = None,
) -> LoadReport:
    """Run ``concurrency`` workers calling ``call`` until ``duration`` seconds have passed; ``let_go`` (every
    ``LET_GO_EVERY`` calls): the session drops what it kept of the calls that ended."""
    latencies: list[float] = []
    errors = 0
    start = clock()
    deadline = start + duration

    async def worker() -> None:
        nonlocal errors
        while clock() < deadline:
            began = clock()
            outcome = await call()
            latencies.append((clock() - began) * 1000.0)
            if not outcome.ok:
                errors += 1
            if let_go is not None and len(latencies) % LET_GO_EVERY == 0:
                let_go()

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return LoadReport(len(latencies), errors, clock() - start, latencies)
