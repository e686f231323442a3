"""The ``--json`` document of a call: the fields a script or a CI job reads, from a real capture's timeline."""

from __future__ import annotations

import json

from headless_support import capture_timeline

from inspector.headless.json_document import call_json, outcome_document
from inspector.timeline.outcome import Outcome


def test_a_call_document_lists_each_round_with_its_state_facts_and_answers() -> None:
    timeline = capture_timeline("py-sdk-stdio-raw-mrtr.jsonl")
    multi = next(call for call in timeline.calls if len(call.rounds) > 1)
    doc = call_json(multi)
    json.dumps(doc)  # a script can read it: plain JSON all the way down
    first, *_, last = doc["rounds"]
    assert first["resultType"] == "input_required" and first["inputRequests"]
    assert last["resultType"] == "complete"
    with_state = [r for r in doc["rounds"] if "requestState" in r]
    for entry in with_state:
        assert set(entry["requestState"]) == {"length", "sha256", "echoed"}
        assert len(entry["requestState"]["sha256"]) == 64


def test_the_outcome_document_carries_status_exit_code_era_and_rounds() -> None:
    timeline = capture_timeline("py-sdk-stdio-raw-mrtr.jsonl")
    call = timeline.calls[-1]
    doc = outcome_document(Outcome(call.index, call.status, call.result), timeline)
    assert doc["status"] == call.status and doc["exitCode"] == (0 if call.status == "complete" else doc["exitCode"])
    assert doc["era"] == "modern" and doc["protocolVersion"] == "2026-07-28"
    assert len(doc["rounds"]) == len(call.rounds)
    assert isinstance(doc["findings"], list)
