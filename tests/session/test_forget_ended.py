"""Letting go of the calls that ended (``SessionLog.forget_ended``): what a face that reads only outcomes (the load
runner) asks, so that a long run keeps a flat heap. The calls still going stay; numbering goes on; the recording
stays complete."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TypeVar

import pytest
from session_support import Live, comparable, live_session, read_jsonl

from inspector.headless.load_runner import LET_GO_EVERY, run_load
from inspector.replay.loader import timeline_from_recording
from inspector.timeline.kept_findings import KeptFindings
from inspector.timeline.model import Call, RoundStarted, Timeline
from inspector.timeline.outcome import Outcome
from inspector.timeline.recent_events import Recent
from inspector.timeline.records import raw_text

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

BOUND_S = 20.0
"""Upper bound on any one wait in these tests: a hang fails the test instead of the suite timing out."""


async def call_echo(live: Live) -> Outcome:
    """``tools/call echo {"x": 1}``, bounded."""
    async with asyncio.timeout(BOUND_S):
        return await live.session.call_tool("echo", {"x": 1})


def assert_recording_complete(live: Live) -> None:
    """Every line that crossed the pipe is in the recording, in order (the calls let go are not lost there)."""
    body = live.records()[1:]
    transcript = read_jsonl(live.transcript)
    for direction in ("c2s", "s2c"):
        assert [raw_text(r) for r in body if r["dir"] == direction] == [
            t["raw"] for t in transcript if t["dir"] == direction
        ]


Item = TypeVar("Item")


def replayed_from(live: Live, first: int) -> Timeline:
    """The recording's timeline, with the calls before ``first`` left out as the live one let them go, and its
    history (findings, console lines, messages of no call) from where the live one's starts again."""
    replayed, problems = timeline_from_recording(live.recording)
    assert problems == []
    replayed.calls = [call for call in replayed.calls if call.index >= first]
    replayed.let_go_through = first - 1
    kept, every = live.timeline.findings, replayed.findings
    replayed.findings = KeptFindings()
    replayed.findings.extend(every[len(every) - len(kept) :])
    assert replayed.findings == kept, "what the live timeline kept of its findings is their end"
    replayed.console = history_end(replayed.console, live.timeline.console)
    replayed.unmatched = history_end(replayed.unmatched, live.timeline.unmatched)
    return replayed


def history_end(every: Recent[Item], kept: Recent[Item]) -> Recent[Item]:
    """The end of ``every`` that ``kept`` holds (a live timeline's history counts again from its let-go), checked
    to be what ``kept`` holds, as a history of its own."""
    end: Recent[Item] = Recent(every.limit)
    for item in list(every)[len(every.kept) - kept.count :]:
        end.append(item)
    assert list(end) == list(kept), "what the live timeline kept of its history is its end"
    return end


async def test_the_calls_that_ended_are_let_go_and_the_next_call_is_numbered_on(tmp_path: Path) -> None:
    async with live_session(tmp_path, "ok") as live:
        for _ in range(5):
            assert (await call_echo(live)).ok
        started = len(live.timeline.calls)
        ids = {r.request_id for call in live.timeline.calls for r in call.rounds}
        assert live.session.log.forget_ended().calls == started
        assert not live.session.log.builder.state.answered & ids, "nor what the builder kept of them"
        assert live.timeline.calls == [] and live.timeline.next_index == started + 1
        assert live.timeline.call(1) is None and live.timeline.call(started) is None
        outcome = await call_echo(live)
        assert outcome.call_index == started + 1, "numbering goes on after the calls let go"
        assert live.session.call(outcome.call_index).status == "complete"
        assert [call.index for call in live.timeline.calls] == [started + 1]
    assert_recording_complete(live)
    assert comparable(replayed_from(live, started + 1)) == comparable(live.timeline), (
        "what is kept is what the replay builds"
    )


async def test_a_call_still_going_keeps_itself_and_the_calls_that_ended_around_it_go(tmp_path: Path) -> None:
    async with live_session(tmp_path, "silent", timeout=60.0) as live:
        sent = asyncio.Event()
        live.timeline.subscribe(lambda e: sent.set() if isinstance(e, RoundStarted) else None)
        silent = asyncio.ensure_future(live.session.call_tool("echo", {"x": 1}))  # never answered in this mode
        async with asyncio.timeout(BOUND_S):
            await sent.wait()
        (going,) = [c for c in live.timeline.calls if c.method == "tools/call"]
        after = await live.session.call_tool("whoami")  # answered in every mode
        assert after.ok
        assert live.session.log.forget_ended().calls == going.index, "the ended calls before it and after it"
        assert [c.index for c in live.timeline.calls] == [going.index]
        assert live.session.call(going.index) is going and going.in_flight
        assert live.timeline.call(after.call_index) is None and live.timeline.call(going.index - 1) is None
        assert live.timeline.next_index == after.call_index + 1, "numbered after the calls let go, not after it"
        later = await live.session.call_tool("whoami")
        assert later.call_index == after.call_index + 1
        assert live.timeline.call(later.call_index) is not None and live.timeline.call(going.index) is going
        assert [c.index for c in live.timeline.calls] == [going.index, later.call_index], "in order, with a gap"
        silent.cancel()
        await asyncio.gather(silent, return_exceptions=True)
        assert live.session.log.forget_ended().calls == 2, "once it ended, it goes too"
        assert live.timeline.calls == [] and live.timeline.next_index == later.call_index + 1
    assert_recording_complete(live)


async def test_a_load_run_keeps_only_the_calls_since_it_last_let_go(tmp_path: Path) -> None:
    now = [0.0]

    async def one_call(live: Live) -> Outcome:
        outcome = await call_echo(live)
        now[0] += 0.001  # a clock of our own: every call takes 1 ms of it, however fast the machine is
        return outcome

    async with live_session(tmp_path, "ok") as live:
        report = await run_load(
            lambda: one_call(live),
            duration=3 * LET_GO_EVERY / 1000,
            concurrency=4,
            clock=lambda: now[0],
            let_go=live.session.log.forget_ended,
        )
        assert report.errors == 0 and report.calls >= 3 * LET_GO_EVERY
        assert len(live.timeline.calls) <= LET_GO_EVERY + 4, "at most a batch and the calls in flight are kept"
        assert live.timeline.next_index == 1 + len([r for r in live.records()[1:] if r.get("event") == "call"])
        assert set(report.findings.by_code) <= {"era"}, "the handshake's era note, and nothing from the calls"
    assert_recording_complete(live)


async def test_a_server_with_a_finding_on_every_reply_grows_neither_the_findings_nor_the_unmatched(
    tmp_path: Path,
) -> None:
    async with live_session(tmp_path, "stray-ids") as live:
        live.session.log.forget_ended()  # (the handshake's)
        for _ in range(5):
            assert (await call_echo(live)).ok
        let_go = live.session.log.forget_ended()
        codes = [found.code for found in let_go.findings]
        assert codes.count("unknown-response-id") >= 5, "a stray reply before every call's own, handed back"
        assert live.timeline.findings == [] and not live.timeline.unmatched, "and no longer kept"
        assert (await call_echo(live)).ok
        # (through forget_ended again, which applies what is queued first: the call may return before its
        # records are applied, see session_log)
        again = [found.code for found in live.session.log.forget_ended().findings]
        assert again.count("unknown-response-id") >= 1, "the next call's findings are raised, and handed back"
    assert_recording_complete(live)
    replayed, _ = timeline_from_recording(live.recording)
    assert replayed.findings.by_code["unknown-response-id"] >= 6, "the recording has them all"


def test_a_call_is_found_by_its_index_across_the_gaps_the_calls_let_go_leave() -> None:
    timeline = Timeline()
    kept = [2, 4, 5, 9]
    timeline.calls = [Call(index, "tools/call", {}, 0.0) for index in kept]
    timeline.let_go_through = 8
    for index in range(0, 12):
        found = timeline.call(index)
        assert (found.index if found is not None else None) == (index if index in kept else None), index
    assert timeline.next_index == 10
    timeline.calls = timeline.calls[:1]
    assert timeline.next_index == 9, "after the calls let go, though the last one kept is call 2"
