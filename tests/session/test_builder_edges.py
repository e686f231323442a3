"""Builder edge cases that came from real bad input."""

from __future__ import annotations

import json

from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline


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
    assert call.rounds[0].notifications.count == 1  # kept on the round in flight, shown, not lost


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


def _one_round(result: dict[str, object]) -> list[tuple[str, str]]:
    meta = '{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}'
    request = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":' + meta + "}}"
    timeline = build_timeline(
        [
            records.call_started(0.0, 1, "tools/call", {"name": "x"}),
            records.wire(0.1, "c2s", request, call=1),
            records.wire(0.2, "s2c", json.dumps({"jsonrpc": "2.0", "id": 1, "result": result})),
        ]
    )
    return [(f.code, f.message) for f in timeline.findings if f.code == "schema-invalid"]


def test_a_broken_tool_result_is_schema_invalid_even_though_it_would_pass_as_input_required() -> None:
    # mcp-types' union (CallToolResult | InputRequiredResult) accepts any object with a string resultType, because
    # InputRequiredResult's other fields are optional: the result is checked against the member it claims to be.
    found = _one_round({"resultType": "complete", "content": "not a list"})
    assert found == [("schema-invalid", "tools/call (2026-07-28): content: Input should be a valid list")]


def test_an_input_required_result_is_checked_as_one_and_only_as_one() -> None:
    found = _one_round({"resultType": "input_required", "inputRequests": 5})
    assert found == [("schema-invalid", "tools/call (2026-07-28): inputRequests: Input should be a valid dictionary")]
    assert _one_round({"resultType": "complete", "content": [{"type": "text", "text": "ok"}]}) == []


def test_a_url_elicitation_with_hidden_characters_is_a_finding() -> None:
    from tests_hostile import HOSTILE_URLS

    for url in HOSTILE_URLS:
        ask = {"method": "elicitation/create", "params": {"mode": "url", "message": "go", "url": url}}
        result = {"resultType": "input_required", "inputRequests": {"link": ask}}
        timeline = build_timeline(
            [
                records.call_started(0.0, 1, "tools/call", {"name": "x"}),
                records.wire(
                    0.1, "c2s", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}', call=1
                ),
                records.wire(0.2, "s2c", json.dumps({"jsonrpc": "2.0", "id": 1, "result": result})),
            ]
        )
        (found,) = [f for f in timeline.calls[0].rounds[0].findings if f.code == "unsafe-url"]
        assert "\x1b" not in found.message and "\u202e" not in found.message, "the finding itself is safe to show"
    clean = {"method": "elicitation/create", "params": {"mode": "url", "message": "go", "url": "https://example.com/x"}}
    timeline = build_timeline(
        [
            records.call_started(0.0, 1, "tools/call", {"name": "x"}),
            records.wire(0.1, "c2s", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}', call=1),
            records.wire(
                0.2,
                "s2c",
                json.dumps(
                    {
                        "jsonrpc": "2.0",
                        "id": 1,
                        "result": {"resultType": "input_required", "inputRequests": {"link": clean}},
                    }
                ),
            ),
        ]
    )
    assert not [f for f in timeline.calls[0].rounds[0].findings if f.code == "unsafe-url"]


def test_results_that_differ_only_where_a_compact_encoding_would_blur_them_get_their_own_verdict() -> None:
    # (verdicts are remembered by the result's value: a NaN, which msgspec's JSON encoder writes as null, an integer
    # and its float, true and 1, a 65-bit integer, must each be judged as what they are)
    ok = [{"type": "text", "text": "ok"}]
    assert _one_round({"resultType": "complete", "content": ok, "isError": None}) == []
    (nan,) = _one_round({"resultType": "complete", "content": ok, "isError": float("nan")})
    assert nan[1].startswith("tools/call (2026-07-28): isError:"), "NaN is judged, not served null's verdict"
    assert _one_round({"resultType": "complete", "content": ok, "structuredContent": {"n": 1}}) == []
    assert _one_round({"resultType": "complete", "content": ok, "structuredContent": {"n": 1.0}}) == []
    (huge,) = _one_round({"resultType": "complete", "content": 2**70})
    assert huge == ("schema-invalid", "tools/call (2026-07-28): content: Input should be a valid list")
