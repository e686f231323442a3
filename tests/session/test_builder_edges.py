"""Builder edge cases that came from real bad input."""

from __future__ import annotations

import json

from inspector.session import records
from inspector.session.builder import build_timeline


def test_a_progress_notification_with_an_unhashable_token_is_kept_not_fatal() -> None:
    request = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"p1"}}}'
    timeline = build_timeline(
        [
            records.call_started(0.0, 1, "tools/call", {"name": "x"}),
            records.wire(0.1, "c2s", request, call=1),
            records.wire(
                0.2,
                "s2c",
                '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":[1],"progress":1}}',
            ),
            records.wire(0.3, "s2c", '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}'),
        ]
    )
    call = timeline.calls[0]
    assert call.rounds[0].response is not None
    assert len(call.rounds[0].notifications) == 1  # kept on the round in flight, shown, not lost


def test_a_nested_requested_schema_is_a_finding_on_its_round() -> None:
    nested = {
        "type": "object",
        "properties": {"address": {"type": "object", "properties": {"city": {"type": "string"}}}},
    }
    ask = {"method": "elicitation/create", "params": {"message": "where?", "requestedSchema": nested}}
    result = {"resultType": "input_required", "inputRequests": {"where": ask}}
    request = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{}}}'
    timeline = build_timeline(
        [
            records.call_started(0.0, 1, "tools/call", {"name": "x"}),
            records.wire(0.1, "c2s", request, call=1),
            records.wire(0.2, "s2c", json.dumps({"jsonrpc": "2.0", "id": 1, "result": result})),
        ]
    )
    (finding,) = timeline.calls[0].rounds[0].findings
    assert finding.code == "unsupported-schema" and "'where'" in finding.message and "address" in finding.message
