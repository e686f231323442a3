"""The load runner: C concurrent callers until the duration is over; rate, errors and latency percentiles."""

from __future__ import annotations

import asyncio

import pytest

from inspector.headless.load_runner import Latencies, LoadReport, Unanswered, run_load
from inspector.timeline.outcome import Outcome


async def test_every_worker_calls_until_the_deadline_and_failures_are_counted() -> None:
    now = [0.0]
    made = 0
    in_flight = 0
    most = 0

    async def call() -> Outcome:
        nonlocal made, in_flight, most
        made += 1
        in_flight += 1
        most = max(most, in_flight)
        await asyncio.sleep(0)
        now[0] += 0.001  # a deterministic clock: every call takes 1 ms of it
        in_flight -= 1
        return Outcome(made, "complete" if made % 4 else "tool-error")

    def waiting() -> list[Unanswered]:
        raise AssertionError("asked only when a call is still waiting at the end")

    report = await run_load(call, duration=0.1, concurrency=3, clock=lambda: now[0], waiting=waiting)
    assert report.calls == made and report.calls >= 100
    assert report.unanswered == ()
    assert most == 3, "three callers were in flight together"
    assert report.errors == made // 4, "a tool error counts as an error"
    assert report.to_json()["callsPerSecond"] > 0


async def test_a_call_still_waiting_after_the_drain_is_cancelled_and_counted_unfinished_not_completed() -> None:
    now = [0.0]
    made = 0
    cancelled = asyncio.Event()
    reasons: list[object] = []

    async def call() -> Outcome:
        nonlocal made
        made += 1
        if made == 2:  # a request the server never answers
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError as exc:
                reasons.extend(exc.args)
                cancelled.set()
                raise
        await asyncio.sleep(0)
        now[0] += 0.01  # a clock of our own: every call takes 10 ms of it
        return Outcome(made, "complete")

    asked: list[bool] = []

    def waiting() -> list[Unanswered]:
        asked.append(cancelled.is_set())
        return [Unanswered(7, 2, "tools/call")]

    report = await run_load(call, duration=0.1, concurrency=2, clock=lambda: now[0], drain=1.0, waiting=waiting)
    assert cancelled.is_set(), "the waiting call was cancelled, so the session ends it and tells the server"
    assert asked == [False], "the requests still waiting were named before the cancel ended them"
    assert reasons == ["still waiting 1 s after the load run's end"], "the call's end and the server's notice say why"
    assert report.unanswered == (Unanswered(7, 2, "tools/call"),)
    assert report.to_json()["unanswered"] == [{"requestId": 7, "call": 2, "method": "tools/call"}]
    assert report.unfinished == 1 and report.errors == 0
    assert report.calls == made - 1, "every call but the unfinished one completed and counts"
    assert report.seconds == pytest.approx(now[0]), "the window ends with the last call that ended, not the drain"
    assert report.to_json()["unfinished"] == 1


def test_percentiles_are_nearest_rank() -> None:
    latencies = Latencies.of([float(n) for n in range(10, 0, -1)])
    assert (latencies.percentile(50), latencies.percentile(90), latencies.percentile(99)) == (5.0, 9.0, 10.0)
    doc = LoadReport(errors=0, seconds=1.0, latencies=latencies).to_json()
    assert doc["latencyMs"]["min"] == 1.0 and doc["latencyMs"]["max"] == 10.0 and doc["callsPerSecond"] == 10.0
    assert doc["latencyMs"]["mean"] == 5.5
    assert LoadReport(0, 0.0).to_json()["latencyMs"]["p50"] == 0


def test_latencies_are_kept_to_the_microsecond_in_room_that_does_not_grow_with_the_calls() -> None:
    latencies = Latencies.of([0.0014, 0.0016, 1.2344, 1.2346] + [2.0] * 10_000)
    assert latencies.count == 10_004 and len(latencies.by_us) == 5, "one entry per microsecond, not per call"
    assert latencies.percentile(0.005) == 0.001 and latencies.percentile(0.025) == 1.234, "ranks 1 and 3"
    assert latencies.summary()["min"] == 0.001 and latencies.summary()["max"] == 2.0
