"""A server that dies or cannot be reached is a verdict, never a crash of the lab: B crashing mid-call fails the rows
that needed B and leaves A's checks running; A unreachable is the run's connection error (exit 3); a 2025-era
server's session on A is named as what B lacks."""

from __future__ import annotations

import pytest
from lab_support import ADD, WORK_ITEM, InProcessTargets, demo_answers, explain, rows, run_lab

from inspector.demo.flaw_names import STATE_KEY_ENV
from inspector.lab.lab_report import EXIT_FAIL
from inspector.lab.lab_run import Lab
from inspector.lab.plan import LabOptions
from inspector.timeline.outcome import EXIT_CONNECT
from inspector.transport.base import Transport
from inspector.transport.memory import MemoryTransport, PeerStreams

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)


async def _crash_on_first_request(streams: PeerStreams) -> int:
    await streams.stdin.readline()
    await streams.stderr.write("instance B: segmentation fault (simulated)\n")
    return 139


class CrashingB(InProcessTargets):
    """B dies on the first request it gets."""

    def transport(self, name: str) -> Transport:
        if name == "B":
            return MemoryTransport(_crash_on_first_request, name="crashing B")
        return super().transport(name)


class UnreachableA(InProcessTargets):
    """A's process cannot be started at all."""

    def transport(self, name: str) -> Transport:
        from inspector.transport.stdio import StdioTransport

        return StdioTransport(["/nonexistent/inspector-lab-test-server"])


@pytest.fixture(autouse=True)
def _shared_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STATE_KEY_ENV, "k" * 40)


async def test_b_crashing_is_a_failed_row_and_a_keeps_answering() -> None:
    report = await run_lab(calls=[ADD, WORK_ITEM], checks=("stateless", "tamper"), targets=CrashingB())
    assert report.exit_code == EXIT_FAIL
    on_b = rows(report, "stateless 1", "fail")
    assert on_b, explain(report)
    assert any("instance B" in r.why and ("went away" in r.why or "is gone" in r.why) for r in on_b), explain(report)
    assert rows(report, "tamper", "pass"), "the experiments on A still ran, and A refused them"
    assert rows(report, "baseline", "pass")


async def test_a_that_cannot_be_reached_is_the_connection_error() -> None:
    targets = UnreachableA()
    report = await Lab(targets, demo_answers(), LabOptions([ADD])).run()
    assert report.exit_code == EXIT_CONNECT
    assert report.connect_error is not None and "instance A" in report.connect_error
    assert report.rows == []


async def test_a_legacy_session_on_a_is_what_b_lacks() -> None:
    report = await Lab(InProcessTargets(), demo_answers(), LabOptions([WORK_ITEM], ("stateless",), era="legacy")).run()
    failed = rows(report, "stateless 1", "fail")
    assert failed, explain(report)
    assert all("2025-era protocol session" in r.why for r in failed), explain(report)
