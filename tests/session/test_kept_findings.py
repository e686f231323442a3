"""A flood of findings keeps a fixed amount on the timeline: every one counted by code, the first ``KEPT_PER_CODE``
of each kept on its round, call and session, the same when the records are applied again (a replay), and the faces
say how many came (the printed timeline, ``--json``, the load run's counts)."""

from __future__ import annotations

import dataclasses
import json
from io import StringIO

from rich.console import Console

from inspector.headless.json_document import call_json, findings_json
from inspector.headless.load_runner import FindingTally
from inspector.headless.printed_timeline import call_block, print_timeline
from inspector.timeline import records
from inspector.timeline.build.builder import TimelineBuilder, build_timeline
from inspector.timeline.build.state import BuildState
from inspector.timeline.kept_findings import CODES_COUNTED, KEPT_PER_CODE, OTHER_CODES, KeptFindings
from inspector.timeline.model import Finding
from inspector.timeline.records import Record

FLOOD = 50 * KEPT_PER_CODE + 3
REQUEST = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}'
RESULT = '{"jsonrpc":"2.0","id":1,"result":{"content":[],"resultType":"complete"}}'


def finding(code: str, n: int = 0) -> Finding:
    return Finding(code, "error", f"{code} number {n}")


def kept(*found: Finding) -> KeptFindings[Finding]:
    out: KeptFindings[Finding] = KeptFindings()
    out.extend(found)
    return out


def garbage_flood() -> list[Record]:
    """A tools/call during which the server wrote ``FLOOD`` lines that are not JSON and ``FLOOD`` responses to ids
    never sent, each a finding of the session; and one undecodable result on the call's round."""
    out = [records.call_started(0.0, 1, "tools/call", {"name": "x"}), records.wire(0.01, "c2s", REQUEST, call=1)]
    for n in range(FLOOD):
        out.append(records.wire(0.02 + n / 1e5, "s2c", f"garbage line {n}"))
        out.append(
            records.wire(0.02 + n / 1e5, "s2c", json.dumps({"jsonrpc": "2.0", "id": f"stray-{n}", "result": {}}))
        )
    out.append(records.wire(1.0, "s2c", RESULT))
    return out


def test_the_first_of_each_code_are_kept_and_every_one_is_counted() -> None:
    found = kept()
    for n in range(FLOOD):
        found.append(finding("invalid-message", n))
        if n < 3:
            found.append(finding("era", n))
    assert len(found) == KEPT_PER_CODE + 3 and found.raised == FLOOD + 3
    assert found.left_out == FLOOD - KEPT_PER_CODE
    first = [f.message for f in found if f.code == "invalid-message"]
    assert first == [f"invalid-message number {n}" for n in range(KEPT_PER_CODE)], "the first, in order"
    assert found.by_code == {"invalid-message": FLOOD, "era": 3}
    assert found.folded() == {"invalid-message": FLOOD}, "only the code some of whose were let go"
    assert found.said("invalid-message") == f"invalid-message ×{FLOOD:,} (first {KEPT_PER_CODE} shown)"
    assert found.said("era", " in this session") == "era ×3 in this session"
    assert [(code, count, first.message) for code, count, first in found.tally()] == [
        ("invalid-message", FLOOD, "invalid-message number 0"),
        ("era", 3, "era number 0"),
    ]


def test_it_reads_as_the_list_of_the_kept_and_compares_by_what_is_kept_and_counted() -> None:
    found = kept(*(finding("x", n) for n in range(KEPT_PER_CODE + 5)))
    found.extend(finding("x", n) for n in range(5))
    assert len(found) == KEPT_PER_CODE and found.raised == KEPT_PER_CODE + 10 and found.left_out == 10
    assert found == [finding("x", n) for n in range(KEPT_PER_CODE)], "a list compares with the kept ones"
    assert found[0] == finding("x", 0) and found[-2:] == [
        finding("x", KEPT_PER_CODE - 2),
        finding("x", KEPT_PER_CODE - 1),
    ]
    assert found != kept(*(finding("x", n) for n in range(KEPT_PER_CODE + 1))), "different counts: not equal"
    assert dataclasses.asdict(found)["by_code"] == {"x": KEPT_PER_CODE + 10}, "a timeline as plain data has them"
    found.clear()
    assert not found and found.raised == 0 and found.by_code == {}


def test_a_flood_that_makes_up_a_code_per_finding_does_not_grow_the_counts() -> None:
    found = kept(*(finding(f"made-up-{n}") for n in range(CODES_COUNTED + 500)))
    assert len(found.by_code) == CODES_COUNTED + 1 and found.by_code[OTHER_CODES] == 500
    assert len(found) == CODES_COUNTED + KEPT_PER_CODE and found.raised == CODES_COUNTED + 500
    (other,) = [(count, first.code) for code, count, first in found.tally() if code == OTHER_CODES]
    assert other == (500, f"made-up-{CODES_COUNTED}"), "the first of the codes counted together"


def test_a_garbage_flood_is_folded_on_the_session_and_its_replay_builds_the_same() -> None:
    flood = garbage_flood()
    timeline = build_timeline(flood)
    session = timeline.findings
    assert session.by_code == {"invalid-message": FLOOD, "unknown-response-id": FLOOD}
    assert len(session) == 2 * KEPT_PER_CODE
    assert session[0].message.endswith("'garbage line 0'") and session[1].message.startswith(
        "a response for id 'stray-0'"
    )
    assert build_timeline(flood) == timeline, "the records applied again build the same counts and the same kept"
    printed = StringIO()
    print_timeline(Console(file=printed, width=200, color_system=None), timeline)
    lines = printed.getvalue().splitlines()
    assert f"✗ invalid-message ×{FLOOD:,} in this session (first {KEPT_PER_CODE} shown): the recording has what " in (
        printed.getvalue()
    )
    assert sum("unknown-response-id:" in line for line in lines) == KEPT_PER_CODE, "the kept ones, and only they"
    doc = findings_json(session, session.by_code)
    assert doc["findingCount"] == 2 * FLOOD and len(doc["findings"]) == 2 * KEPT_PER_CODE
    assert doc["findingsByCode"] == {"invalid-message": FLOOD, "unknown-response-id": FLOOD}
    few = kept(finding("era"))
    assert findings_json(few, few.by_code) == {
        "findings": [{"code": "era", "severity": "error", "message": "era number 0"}]
    }


def test_a_round_flooded_with_findings_is_folded_in_its_call_block_and_json() -> None:
    builder = TimelineBuilder()
    for record in [
        records.call_started(0.0, 1, "tools/call", {"name": "x"}),
        records.wire(0.01, "c2s", REQUEST, call=1),
    ]:
        builder.apply(record)
    call = builder.timeline.calls[0]
    state: BuildState = builder.state
    for n in range(FLOOD):
        state.on_round("invalid-utf8", f"bad bytes {n}", call, call.rounds[0])
    assert len(call.rounds[0].findings) == KEPT_PER_CODE and call.rounds[0].findings.raised == FLOOD
    printed = StringIO()
    Console(file=printed, width=200, color_system=None).print(call_block(call))
    assert f"invalid-utf8 ×{FLOOD:,} (first {KEPT_PER_CODE} shown)" in printed.getvalue()
    doc = call_json(call)
    assert doc["findingCount"] == FLOOD and doc["findingsByCode"] == {"invalid-utf8": FLOOD}
    assert len(doc["findings"]) == KEPT_PER_CODE


def test_the_load_run_counts_every_finding_the_timeline_let_go() -> None:
    """The load runner counts findings from what ``forget_ended`` hands back: the counts, not the kept ones."""
    builder = TimelineBuilder()
    tally = FindingTally()
    for window in range(3):
        for record in garbage_flood()[2:-1]:  # (the strays alone: no call, so every one is the session's)
            builder.apply(record)
        tally.add(builder.state.forget_ended().findings)
        assert tally.total == 2 * FLOOD * (window + 1)
    count, first = tally.by_code["unknown-response-id"]
    assert count == 3 * FLOOD and first.message.startswith("a response for id 'stray-0'")
