"""Real wire traffic from peers nobody here wrote, parsed into timelines without a single unexplained finding.

Each capture's findings must be exactly the ones listed here, each with the reason it is right to raise it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from inspector.timeline.build.builder import build_timeline
from inspector.timeline.capture_import import records_from_capture

CAPTURES = Path(__file__).resolve().parents[3] / "shared" / "captures"
if not CAPTURES.is_dir():  # CI lays shared/ beside the clone; a developer checkout has it one level up
    CAPTURES = Path(__file__).resolve().parents[2].parent / "shared" / "captures"

# capture -> {finding code: count}, with why each is expected. Every other capture must raise no finding.
EXPLAINED: dict[str, dict[str, int]] = {
    # The conformance reference server omits resultType on its tools/call results in the 2026 era
    # (peers/README names this trap): a real finding for that server, and the call still reads as complete.
    "conformance-ref-server-http-auto.jsonl": {"missing-result-type": 3},
}


def capture_files() -> list[Path]:
    return sorted(CAPTURES.glob("*.jsonl")) if CAPTURES.is_dir() else []


@pytest.mark.skipif(not capture_files(), reason="shared/captures is not beside this checkout")
@pytest.mark.parametrize("capture", capture_files(), ids=lambda p: p.name)
def test_capture_builds_a_timeline(capture: Path) -> None:
    timeline = build_timeline(records_from_capture(capture.read_text(encoding="utf-8").splitlines()))
    assert timeline.calls, "every capture holds at least one call"
    counts = Counter(f.code for f in timeline.findings)
    assert dict(counts) == EXPLAINED.get(capture.name, {}), [(f.code, f.message) for f in timeline.findings]
    assert all(call.rounds for call in timeline.calls)
    for call in timeline.calls:
        last = call.rounds[-1]
        cancelled = any(n.message and n.message.get("method") == "notifications/cancelled" for n in last.notifications)
        capture_ended = call is timeline.calls[-1]
        # every call got its response, or the captured client gave up on it and said so, or the capture ended first
        assert last.response is not None or cancelled or capture_ended, (call.index, call.method)


def test_missing_result_type_still_reads_as_complete() -> None:
    capture = CAPTURES / "conformance-ref-server-http-auto.jsonl"
    if not capture.is_file():
        pytest.skip("shared/captures is not beside this checkout")
    timeline = build_timeline(records_from_capture(capture.read_text(encoding="utf-8").splitlines()))
    flagged = [
        call for call in timeline.calls for r in call.rounds if any(f.code == "missing-result-type" for f in r.findings)
    ]
    assert flagged and all(
        r.result_type == "complete" for call in flagged for r in call.rounds if r.response is not None
    )


def test_mrtr_capture_shows_state_echoed_byte_for_byte() -> None:
    capture = CAPTURES / "py-sdk-stdio-raw-mrtr.jsonl"
    if not capture.is_file():
        pytest.skip("shared/captures is not beside this checkout")
    timeline = build_timeline(records_from_capture(capture.read_text(encoding="utf-8").splitlines()))
    states = [r.request_state for call in timeline.calls for r in call.rounds if r.request_state is not None]
    assert states and all(state.echoed is True for state in states)
    assert any(len(call.rounds) >= 2 for call in timeline.calls)
