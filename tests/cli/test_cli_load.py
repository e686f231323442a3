"""``inspector load``: rate, latency and errors, and the findings its calls raised, by code, over a real server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import bad_server_spec, run_cli

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

STRAY = "a response for id 424242, which is not in flight"
"""The finding of the stray reply ``bad_server.py stray-ids`` sends before every real one."""


def load(mode: str, *extra: str, duration: float = 0.3) -> tuple[int, str]:
    spec = bad_server_spec(mode)
    done = run_cli("load", "echo", "--args", '{"x": 1}', "--server", spec, "--duration", f"{duration:g}", *extra)
    assert done.stderr == "" or done.returncode == 0, done.stderr
    return done.returncode, done.stdout


def test_a_load_run_over_a_well_behaved_server_raises_no_finding() -> None:
    code, out = load("ok", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["calls"] >= 1 and doc["errors"] == 0
    assert doc["findings"] == []


def test_a_load_run_counts_the_findings_of_its_calls_by_code_with_the_first_of_each() -> None:
    code, out = load("stray-ids", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["errors"] == 0, "the real replies answered every call"
    by_code = {found["code"]: found for found in doc["findings"]}
    unknown = by_code["unknown-response-id"]
    assert unknown["first"] == STRAY and unknown["count"] >= doc["calls"], "one stray reply before every call's own"
    # Each reply also came twice: a duplicate, or unknown once its call was let go (all but the last one are read
    # before the next call can end).
    twice = by_code.get("duplicate-response-id", {"count": 0})["count"] + unknown["count"] - doc["calls"]
    assert twice >= doc["calls"] - 1


def test_the_text_report_says_how_many_findings_and_shows_the_first_of_each_code() -> None:
    code, out = load("stray-ids")
    head, *lines = out.splitlines()
    assert code == 0 and "· 0 errors ·" in head and head.endswith(" findings")
    (stray,) = [line for line in lines if "unknown-response-id" in line]
    assert f"unknown-response-id: {STRAY}" in stray and " in all)" in stray


def test_a_call_the_server_never_answers_is_cancelled_after_the_drain_and_reported_not_waited_on() -> None:
    # (a duration of 1 s so that the third call surely starts however loaded the machine; the drain bounds the rest)
    code, out = load("drop-third", "--json", "--drain", "1", duration=1)
    doc = json.loads(out)
    assert code == 1, "a call left unanswered fails the run"
    assert doc["unfinished"] == 1 and doc["errors"] == 0, "the dropped call is unfinished, the others answered"
    assert doc["calls"] >= 2, "the calls before it (and beside it) were counted"
    assert doc["findings"] == [], "cancelled at the end, not timed out (the default timeout is 60 s)"
    code, out = load("drop-third", "--drain", "1", duration=1)
    head, said, *_ = out.splitlines()
    assert code == 1 and head.endswith("· 1 unfinished")
    assert "1 call was still waiting for the server 1 s after the run's end, and cancelled" in said
    assert "raise --drain" in said


def test_the_report_names_the_request_the_server_dropped_and_the_server_is_told_it_was_cancelled(
    tmp_path: Path,
) -> None:
    transcript = tmp_path / "transcript.jsonl"
    code, out = load("drop-third", "--json", "--drain", "1", f"--env=BAD_SERVER_TRANSCRIPT={transcript}", duration=1)
    seen = [json.loads(json.loads(line)["raw"]) for line in transcript.read_text().splitlines()]
    echoes = [m for m in seen if m.get("method") == "tools/call"]
    dropped = echoes[2]["id"]
    (unanswered,) = json.loads(out)["unanswered"]
    assert code == 1 and unanswered["requestId"] == dropped and unanswered["method"] == "tools/call"
    assert isinstance(unanswered["call"], int)
    cancels = [m["params"] for m in seen if m.get("method") == "notifications/cancelled"]
    why = "still waiting 1 s after the load run's end"
    assert cancels == [{"requestId": dropped, "reason": why}], "the cancel at the end reached the server, for it alone"
    code, out = load("drop-third", "--drain", "1", duration=1)
    said = [line.strip() for line in out.splitlines() if "unanswered:" in line]
    assert said == [f"unanswered: request id {dropped} (tools/call, call #{unanswered['call']})"]


def test_a_recorded_load_run_replays_with_every_call_and_the_dropped_one_cancelled(tmp_path: Path) -> None:
    recording = tmp_path / "load.jsonl"
    spec = bad_server_spec("drop-third")
    done = run_cli("load", "echo", "--server", spec, "--duration", "1", "--drain", "1", "--record", str(recording))
    assert done.returncode == 1 and f"recorded to {recording}" in done.stderr
    head = done.stdout.splitlines()[0]
    replayed = run_cli("replay", str(recording), "--json")
    calls = json.loads(replayed.stdout)["calls"]
    echoes = [call for call in calls if call["method"] == "tools/call"]
    assert head.startswith(f"{len(echoes) - 1} calls in "), "every counted call, and the dropped one"
    assert [call["status"] for call in echoes] == ["complete", "complete", "cancelled"], "(one caller: it waited)"
    assert echoes[-1]["detail"] == "still waiting 1 s after the load run's end"
    assert "unanswered: request id" in done.stdout and f"call #{echoes[-1]['call']})" in done.stdout
    assert not run_cli("load", "echo", "--server", bad_server_spec("ok"), "--duration", "0.2").stderr, "no file unasked"


def test_load_takes_the_request_timeout_and_a_timed_out_call_is_an_error_with_its_finding() -> None:
    code, out = load("drop-third", "--json", "--timeout", "0.2", duration=1)
    doc = json.loads(out)
    assert code == 1 and doc["errors"] == 1 and doc["unfinished"] == 0
    (timeout,) = doc["findings"]
    assert timeout["code"] == "timeout" and "within 0.2 s" in timeout["first"]
