"""Seed 004's stable order across the lab's instances: a demo whose tools/list comes in an order of each process's own
(``--flaw unstable-order``) fails the stateless check, and the session that listed on A then on B says why in a
``list-order-changed`` finding (the host's prompt cache), which its recording replays; the demo itself lists in one
order everywhere and raises none."""

from __future__ import annotations

from pathlib import Path

from lab_support import ADD, InProcessTargets, explain, rows, run_lab

from inspector.lab.stateless import OTHER_ORDER
from inspector.replay.loader import timeline_from_recording


def order_findings(targets: InProcessTargets) -> list[str]:
    found: list[str] = []
    for path in targets.made.values():
        timeline, problems = timeline_from_recording(Path(path))
        assert problems == []
        found += [f.message for f in timeline.findings if f.code == "list-order-changed"]
    return found


async def test_tools_in_another_order_on_b_fail_the_check_and_say_why(tmp_path: Path) -> None:
    targets = InProcessTargets("unstable-order", tmp_path)
    report = await run_lab(calls=[ADD], checks=("stateless",), targets=targets)
    (failed,) = rows(report, "stateless 1", "fail")
    assert failed.check == "tools/list on B" and failed.why == OTHER_ORDER, explain(report)
    (said,) = order_findings(targets)
    assert said.startswith("tools/list came in another order than #")


async def test_the_demo_lists_in_one_order_on_both_instances(tmp_path: Path) -> None:
    targets = InProcessTargets(None, tmp_path)
    report = await run_lab(calls=[ADD], checks=("stateless",), targets=targets)
    assert not report.failed, explain(report)
    assert any(r.check == "tools/list on B" and r.verdict == "pass" for r in report.rows)
    assert order_findings(targets) == []
