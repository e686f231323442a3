"""The headless core against misbehaving servers: every bad case ends in a clear message, a finding, the right exit
code, a complete recording, and a replay that builds the same timeline as the live run.

Each test runs ``tests/fixtures/bad_server.py`` in one mode through a real ``InspectorSession`` over stdio.
"""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path

import pytest
from session_support import Live, bad_wire, finding_codes, live_session

from inspector.timeline.model import RoundStarted
from inspector.timeline.outcome import Outcome

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

NAME_ANSWER = {"action": "accept", "content": {"name": "octocat"}}
BOUND_S = 20.0
"""Upper bound on any one call in these tests: a hang fails the test instead of the suite timing out."""


async def call_echo(live: Live) -> Outcome:
    """``tools/call echo {"x": 1}``, bounded."""
    async with asyncio.timeout(BOUND_S):
        return await live.session.call_tool("echo", {"x": 1})


# ------------------------------------------------------------------------------------------------ baselines
async def test_well_behaved_call_completes_with_exit_0(tmp_path: Path) -> None:
    async with live_session(tmp_path, "ok") as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("complete", 0)
    assert outcome.result is not None and outcome.result["content"][0]["text"] == '{"x": 1}'
    assert finding_codes(live.timeline) == []
    assert live.timeline.era is not None and (live.timeline.era.era, live.timeline.era.version) == (
        "modern",
        "2026-07-28",
    )
    live.verify()


async def test_mrtr_round_trip_echoes_an_awkward_request_state(tmp_path: Path) -> None:
    async with live_session(tmp_path, "ok", answers={"github_login": NAME_ANSWER}) as live:
        async with asyncio.timeout(BOUND_S):
            outcome = await live.session.call_tool("login", {})
    assert (outcome.status, outcome.exit_code) == ("complete", 0), outcome.detail
    first, second = live.session.call(outcome.call_index).rounds
    assert first.result_type == "input_required" and list(first.input_requests) == ["github_login"]
    assert first.request_state is not None and first.request_state.value == bad_wire.LOGIN_STATE
    assert first.request_state.echoed is True
    assert second.request_id != first.request_id
    assert finding_codes(live.timeline) == []
    retry = live.sent_requests("tools/call")[-1]
    assert retry["params"]["requestState"] == bad_wire.LOGIN_STATE
    assert retry["params"]["inputResponses"] == {"github_login": NAME_ANSWER}
    live.verify()


async def test_tool_result_with_is_error_is_exit_1(tmp_path: Path) -> None:
    async with live_session(tmp_path, "is-error") as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("tool-error", 1)
    assert outcome.result is not None and outcome.result["isError"] is True
    live.verify()


async def test_unknown_tool_is_a_json_rpc_error_with_exit_4(tmp_path: Path) -> None:
    async with live_session(tmp_path, "ok") as live, asyncio.timeout(BOUND_S):
        outcome = await live.session.call_tool("no_such_tool", {})
    assert (outcome.status, outcome.exit_code) == ("error", 4)
    assert outcome.error == {"code": -32602, "message": "Unknown tool: no_such_tool"}
    assert "-32602" in outcome.detail and "no_such_tool" in outcome.detail
    live.verify()


async def test_input_needed_without_an_answer_is_exit_5(tmp_path: Path) -> None:
    async with live_session(tmp_path, "ok", on_missing="fail") as live, asyncio.timeout(BOUND_S):
        outcome = await live.session.call_tool("login", {})
    assert (outcome.status, outcome.exit_code) == ("no-answer", 5)
    assert "github_login" in outcome.detail
    assert finding_codes(live.timeline) == ["no-answer"]
    assert len(live.sent_requests("tools/call")) == 1, "nothing may be retried without an answer"
    live.verify()


# ------------------------------------------------------------------------------------------------ bad input
async def test_garbage_lines_become_findings_and_are_recorded_exactly(tmp_path: Path) -> None:
    async with live_session(tmp_path, "garbage") as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("complete", 0)
    assert finding_codes(live.timeline) == ["invalid-message"] * 3
    messages = [f.message for f in live.timeline.findings if f.code == "invalid-message"]
    assert messages[0].startswith("not JSON")
    assert "batch" in messages[1]
    assert '"jsonrpc"' in messages[2]
    assert [w.raw for w in live.timeline.unmatched] == bad_wire.GARBAGE
    body = live.verify()
    recorded = [r["raw"] for r in body if r["dir"] == "s2c"]
    for line in bad_wire.GARBAGE:
        assert line in recorded, f"garbage line not recorded exactly: {line!r}"


async def test_crash_mid_call_fails_with_exit_3_and_keeps_stderr(tmp_path: Path) -> None:
    async with live_session(tmp_path, "crash") as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("failed", 3)
    assert "exit code 7" in outcome.detail and "stderr" in outcome.detail
    assert finding_codes(live.timeline) == ["disconnected"]
    assert bad_wire.CRASH_LINE in [line.text for line in live.timeline.console if line.source == "stderr"]
    body = live.verify()
    assert [r["raw"] for r in body if r["dir"] == "stderr"][-1] == bad_wire.CRASH_LINE
    (closed,) = [r for r in body if r["dir"] == "event" and r["event"] == "closed"]
    assert closed["returncode"] == 7


async def test_a_later_call_after_a_crash_fails_at_once(tmp_path: Path) -> None:
    async with live_session(tmp_path, "crash") as live:
        await call_echo(live)
        again = await call_echo(live)
    assert (again.status, again.exit_code) == ("failed", 3)
    assert "closed" in again.detail
    live.verify()


async def test_never_answering_times_out_and_sends_cancelled(tmp_path: Path) -> None:
    async with live_session(tmp_path, "silent", timeout=0.5) as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("failed", 3)
    (call,) = live.sent_requests("tools/call")
    assert f"no response to tools/call (id {call['id']}) within 0.5 s" in outcome.detail
    assert finding_codes(live.timeline) == ["timeout"]
    (cancelled,) = live.sent_requests("notifications/cancelled")
    assert cancelled["params"]["requestId"] == call["id"]
    assert "id" not in cancelled
    assert f"cancelled {call['id']}" in [line.text for line in live.timeline.console]
    live.verify()


async def test_unknown_and_duplicate_response_ids_are_findings(tmp_path: Path) -> None:
    async with live_session(tmp_path, "stray-ids") as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("complete", 0)
    assert outcome.result is not None and outcome.result["content"][0]["text"] == '{"x": 1}', (
        "the first real reply wins"
    )
    assert finding_codes(live.timeline) == ["unknown-response-id", "duplicate-response-id"]
    unknown, duplicate = live.timeline.findings[-2:]
    assert str(bad_wire.STRAY_ID) in unknown.message
    (call,) = live.sent_requests("tools/call")
    assert repr(call["id"]) in duplicate.message
    assert live.timeline.unmatched.count == 2
    live.verify()


@pytest.mark.parametrize(
    ("mode", "problem"),
    [
        ("ir-empty", "neither inputRequests nor requestState is present"),
        ("ir-requests-list", "inputRequests is not an object"),
        ("ir-state-number", "requestState is a JSON int, not a string"),
    ],
)
async def test_malformed_input_required_fails_at_once_with_exit_3(tmp_path: Path, mode: str, problem: str) -> None:
    async with live_session(tmp_path, mode, on_missing="decline") as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("failed", 3)
    assert "malformed InputRequiredResult" in outcome.detail and problem in outcome.detail
    assert "malformed-input-required" in finding_codes(live.timeline)
    assert problem in [f.message for f in live.timeline.findings]
    assert len(live.sent_requests("tools/call")) == 1, "a malformed InputRequiredResult must not be retried"
    live.verify()


async def test_input_required_forever_hits_the_round_cap_with_exit_6(tmp_path: Path) -> None:
    async with live_session(tmp_path, "ir-forever", on_missing="decline", max_rounds=4) as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("round-cap", 6)
    assert "4 rounds" in outcome.detail and "--max-rounds" in outcome.detail
    assert finding_codes(live.timeline) == ["round-cap"]
    rounds = live.session.call(outcome.call_index).rounds
    assert [r.result_type for r in rounds] == ["input_required"] * 4
    assert [r.request_state.echoed if r.request_state else None for r in rounds] == [True, True, True, None]
    assert [r.answers[0].response for r in rounds[:3]] == [{"action": "decline"}] * 3
    assert len(live.sent_requests("tools/call")) == 4
    live.verify()


async def test_missing_result_type_is_complete_with_a_finding(tmp_path: Path) -> None:
    async with live_session(tmp_path, "no-result-type") as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("complete", 0)
    assert finding_codes(live.timeline) == ["missing-result-type"]
    assert live.session.call(outcome.call_index).rounds[-1].result_type == "complete"
    live.verify()


async def test_unknown_result_type_is_an_invalid_response(tmp_path: Path) -> None:
    async with live_session(tmp_path, "weird-result-type") as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("failed", 3)
    assert "banana" in outcome.detail
    assert finding_codes(live.timeline) == ["unknown-result-type"]
    live.verify()


async def test_a_response_whose_result_is_not_an_object_fails_without_waiting_for_the_timeout(tmp_path: Path) -> None:
    async with live_session(tmp_path, "result-not-object", timeout=60.0) as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("failed", 3)
    assert "not an object" in outcome.detail
    assert finding_codes(live.timeline) == ["invalid-message"]
    assert live.sent_requests("notifications/cancelled") == []
    live.verify()


async def test_input_required_on_tools_list_is_a_finding_not_a_crash(tmp_path: Path) -> None:
    async with live_session(tmp_path, "ir-on-list") as live:
        async with asyncio.timeout(BOUND_S):
            listed = await live.session.list_all("tools")
        after = await call_echo(live)
    assert (listed.status, listed.exit_code) == ("failed", 3)
    assert "tools/list answered input_required" in listed.detail
    assert "input-required-forbidden" in finding_codes(live.timeline)
    assert live.session.call(listed.call_index).rounds[0].result_type == "input_required"
    assert (after.status, after.exit_code) == ("complete", 0), "the session goes on"
    live.verify()


async def test_unsupported_version_on_discover_settles_on_the_mutual_version(tmp_path: Path) -> None:
    async with live_session(tmp_path, "version-retry") as live:
        outcome = await call_echo(live)
    era = live.timeline.era
    assert era is not None and (era.era, era.version) == ("modern", "2026-07-28")
    assert "-32022" in era.why
    assert (outcome.status, outcome.exit_code) == ("complete", 0)
    discover = live.timeline.calls[0]
    assert (discover.method, discover.status) == ("server/discover", "error")
    assert [c.method for c in live.timeline.calls].count("initialize") == 0, "a modern error never falls back"
    live.verify()


async def test_legacy_server_requests_with_colliding_ids_are_answered(tmp_path: Path) -> None:
    answers = {"elicitation/create": NAME_ANSWER}
    async with live_session(tmp_path, "legacy", answers=answers) as live:
        outcome = await call_echo(live)
    era = live.timeline.era
    assert era is not None and (era.era, era.version) == ("legacy", bad_wire.LEGACY)
    assert (outcome.status, outcome.exit_code) == ("complete", 0), outcome.detail
    assert outcome.result is not None
    assert outcome.result["content"][0]["text"] == 'elicited {"name": "octocat"} for {"x": 1}'
    kinds = [(r.kind, r.method) for r in live.session.call(outcome.call_index).rounds]
    assert kinds == [("request", "tools/call"), ("server-request", "elicitation/create"), ("server-request", "ping")]
    ours, elicit, ping = live.session.call(outcome.call_index).rounds
    assert elicit.request_id == ours.request_id, "the fixture reuses the id of our call"
    assert ping.request_id == bad_wire.COLLIDING_PING_ID
    assert [a.response for a in elicit.answers] == [NAME_ANSWER]
    assert elicit.result_type == "complete" and ping.result_type == "complete"
    assert ours.result_type == "complete" and ours.response is not None
    replies = [json.loads(raw) for raw in live.wire("c2s")]
    assert {"jsonrpc": "2.0", "id": ours.request_id, "result": NAME_ANSWER} in replies
    assert {"jsonrpc": "2.0", "id": bad_wire.COLLIDING_PING_ID, "result": {}} in replies
    assert "unknown-response-id" not in finding_codes(live.timeline)
    assert "duplicate-response-id" not in finding_codes(live.timeline)
    live.verify()


async def test_a_20_mb_result_line_completes(tmp_path: Path) -> None:
    size = 20 * 1024 * 1024
    async with live_session(tmp_path, "big", env={"BAD_SERVER_BIG_BYTES": str(size)}) as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("complete", 0)
    assert outcome.result is not None and len(outcome.result["content"][0]["text"]) == size
    assert finding_codes(live.timeline) == []
    body = live.verify()
    assert max(len(r["raw"]) for r in body if r["dir"] == "s2c") > size


async def test_legacy_server_request_without_an_answer_ends_no_answer_with_exit_5(tmp_path: Path) -> None:
    async with live_session(tmp_path, "legacy", on_missing="fail") as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("no-answer", 5)
    assert "elicitation/create" in outcome.detail
    assert "no-answer" in finding_codes(live.timeline)
    replies = [json.loads(raw) for raw in live.wire("c2s")]
    refused = [m for m in replies if "error" in m]
    assert len(refused) == 1 and refused[0]["error"]["code"] == -1, "the server is told there is no answer"
    live.verify()


async def test_cancelling_a_call_in_flight_sends_cancelled_and_ends_it(tmp_path: Path) -> None:
    async with live_session(tmp_path, "silent", timeout=60.0) as live:
        in_flight = asyncio.Event()
        live.timeline.subscribe(lambda event: in_flight.set() if isinstance(event, RoundStarted) else None)
        task = asyncio.create_task(live.session.call_tool("echo", {}))
        async with asyncio.timeout(BOUND_S):
            await in_flight.wait()
            call_index = live.timeline.calls[-1].index
            assert await live.session.cancel(call_index) is True
            outcome = await task
    assert (outcome.status, outcome.exit_code) == ("cancelled", 3)
    (call,) = live.sent_requests("tools/call")
    (cancelled,) = live.sent_requests("notifications/cancelled")
    assert cancelled["params"] == {"requestId": call["id"], "reason": "cancelled by the user"}
    live.verify()


async def test_text_that_trips_naive_line_splitting_round_trips(tmp_path: Path) -> None:
    async with live_session(tmp_path, "odd-text") as live:
        outcome = await call_echo(live)
    assert (outcome.status, outcome.exit_code) == ("complete", 0)
    assert outcome.result is not None and outcome.result["content"][0]["text"] == bad_wire.ODD_TEXT
    assert "\u2028" in live.wire("s2c")[-1], "the wire carried U+2028 unescaped"
    body = live.verify()
    assert (
        json.loads([r["raw"] for r in body if r["dir"] == "s2c"][-1])["result"]["content"][0]["text"]
        == bad_wire.ODD_TEXT
    )


async def test_a_call_whose_task_is_cancelled_still_ends_on_the_timeline(tmp_path: Path) -> None:
    """Ctrl-C, or a UI worker replaced by a newer one: the call ends "cancelled", never stays pending forever."""
    async with live_session(tmp_path, "silent", timeout=60.0) as live:
        in_flight = asyncio.Event()
        live.timeline.subscribe(lambda event: in_flight.set() if isinstance(event, RoundStarted) else None)
        task = asyncio.create_task(live.session.call_tool("echo", {}))
        async with asyncio.timeout(BOUND_S):
            await in_flight.wait()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        call = live.timeline.calls[-1]
        assert (call.method, call.status) == ("tools/call", "cancelled")
        (cancelled,) = live.sent_requests("notifications/cancelled")
        assert cancelled["params"]["requestId"] == call.rounds[0].request_id
    live.verify()


async def test_bytes_that_are_not_utf8_are_a_finding_and_kept_exactly_in_the_recording(tmp_path: Path) -> None:
    async with live_session(tmp_path, "bad-utf8") as live, asyncio.timeout(BOUND_S):
        outcome = await live.session.call_tool("echo", {})
        await live.session.close()
    assert outcome.status == "complete"
    assert outcome.result is not None and "\ufffd" in outcome.result["content"][0]["text"]
    body = live.verify()
    kept = [base64.b64decode(r["bytes"]) for r in body if "bytes" in r]
    stderr_bytes, line_bytes = sorted(kept, key=len)
    assert bad_wire.BAD_BYTES in stderr_bytes and bad_wire.BAD_BYTES in line_bytes, "the exact bytes, as they came"
    codes = finding_codes(live.timeline)
    assert codes.count("invalid-utf8") == 2, codes
    (on_round,) = [f for f in live.session.call(outcome.call_index).rounds[-1].findings if f.code == "invalid-utf8"]
    assert "ff fe" in on_round.message, "the finding says which bytes were replaced"


async def test_a_response_after_the_call_gave_up_is_shown_late_on_its_round(tmp_path: Path) -> None:
    """The call timed out; its round says so at once (never "pending"); the answer that comes later lands on that
    round, marked late, and the call's end stands."""
    async with live_session(tmp_path, "late", timeout=0.5) as live, asyncio.timeout(BOUND_S):
        outcome = await live.session.call_tool("echo", {})
        call = live.session.call(outcome.call_index)
        (round_,) = call.rounds
        assert outcome.status == "failed" and round_.abandoned == "failed" and round_.response is None
        arrived = asyncio.Event()
        live.timeline.subscribe(lambda event: arrived.set() if round_.response is not None else None)
        await arrived.wait()
        assert round_.late and round_.result_type == "complete"
        assert call.status == "failed", "the late answer does not reopen the call"
        assert "late-response" in [f.code for f in round_.findings]
        await live.session.close()
    live.verify()
