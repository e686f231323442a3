"""``inspector replay FILE --against SPEC``: re-run a recorded demo session and diff each call's result."""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from replay_support import CHANGED, DEMO, http_server, invoke

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

DEMO_SPEC = shlex.join(DEMO)
CHANGED_SPEC = shlex.join(CHANGED)
RERUN = 14
"""Every demo flow: twelve tools (two of them tasks), a prompt and a resource (the handshake and the three lists are
not re-run)."""


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One headless demo session (every flow), recorded once for the module."""
    path = tmp_path_factory.mktemp("recorded") / "demo.jsonl"
    result = invoke("demo", "--headless", "--record", str(path))
    assert result.exit_code == 0, result.stderr
    assert f"recorded to {path}" in result.stderr
    return path


def test_rerun_against_the_same_server_all_match(recording: Path) -> None:
    result = invoke("replay", str(recording), "--against", DEMO_SPEC, "--no-record")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"all match: {RERUN} calls re-run" in result.stdout
    assert "not re-run: server/discover, tools/list, prompts/list, resources/list" in result.stdout
    assert "different" not in result.stdout
    print(result.stdout)


def test_rerun_against_a_changed_server_names_the_call_and_the_path(recording: Path) -> None:
    result = invoke("replay", str(recording), "--against", CHANGED_SPEC, "--no-record")
    assert result.exit_code == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert "✗ #5 tools/call add  different  (live #3)" in lines
    assert '      content[0].text: "5" → "6"' in lines
    assert "      structuredContent.result: 5 → 6" in lines
    assert f"1 of {RERUN} calls differ (exit 1)" in lines
    assert sum(line.startswith("✓ ") for line in lines) == RERUN - 1
    print(result.stdout)


def test_rerun_json_report_and_ignore_paths(recording: Path) -> None:
    result = invoke("replay", str(recording), "--against", CHANGED_SPEC, "--json", "--no-record")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["match"] is False and doc["exitCode"] == 1
    assert doc["summary"] == {"rerun": RERUN, "match": RERUN - 1, "different": 1, "skipped": 4, "notComparable": 0}
    [different] = [c for c in doc["calls"] if not c["match"]]
    assert (different["call"], different["method"], different["name"]) == (5, "tools/call", "add")
    assert different["differences"] == [
        {"path": "content[0].text", "kind": "changed", "recorded": "5", "live": "6"},
        {"path": "structuredContent.result", "kind": "changed", "recorded": 5, "live": 6},
    ]
    ignored = invoke(
        "replay",
        str(recording),
        "--against",
        CHANGED_SPEC,
        "--ignore",
        "content[*].text",
        "--ignore",
        "structuredContent",
        "--no-record",
    )
    assert ignored.exit_code == 0, ignored.stdout
    assert "ignoring content[*].text, structuredContent" in ignored.stdout


def test_rerun_with_lists_compares_the_catalog(recording: Path) -> None:
    result = invoke("replay", str(recording), "--against", DEMO_SPEC, "--lists", "--json", "--no-record")
    assert result.exit_code == 0, result.stdout
    doc = json.loads(result.stdout)
    assert [c["method"] for c in doc["calls"][:3]] == ["tools/list", "prompts/list", "resources/list"]
    assert doc["summary"]["skipped"] == 1


def test_a_question_the_recording_has_no_answer_for_is_answered_by_the_fallback_and_noted(
    recording: Path, tmp_path: Path
) -> None:
    lines = recording.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [
        line
        for line in lines
        if not ('"event":"answer"' in line and '"key":"github_login","response"' in line and '"call":6' in line)
    ]
    assert len(kept) == len(lines) - 1
    edited = tmp_path / "edited.jsonl"
    edited.write_text("".join(kept), encoding="utf-8")
    result = invoke("replay", str(edited), "--against", DEMO_SPEC, "--json", "--no-record")
    doc = json.loads(result.stdout)
    weather = next(c for c in doc["calls"] if c["call"] == 6)
    assert (
        "'github_login' (elicitation/create), which the recording has no answer for; answered by policy: decline"
        in weather["notes"][0]
    )
    assert weather["match"] is False and result.exit_code == 1


def test_a_live_json_rpc_error_exits_4_and_a_server_that_does_not_start_exits_3(
    recording: Path, tmp_path: Path
) -> None:
    text = recording.read_text(encoding="utf-8")
    edited = tmp_path / "renamed.jsonl"
    edited.write_text(
        text.replace('"params":{"uri":"demo://report"}', '"params":{"uri":"demo://nope"}'), encoding="utf-8"
    )
    result = invoke("replay", str(edited), "--against", DEMO_SPEC, "--no-record")
    assert result.exit_code == 4, result.stdout
    assert "✗ #16 resources/read demo://nope  different  (live #14)" in result.stdout
    assert '      (status): "complete" → "error"' in result.stdout
    assert '      error: added {"code": ' in result.stdout
    gone = invoke("replay", str(recording), "--against", shlex.join([sys.executable, "-c", "pass"]), "--no-record")
    assert gone.exit_code == 3
    assert "error:" in gone.stderr


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    """The demo over HTTP, for both eras' cases (each session of its own: the server keeps nothing between them)."""
    with http_server(DEMO) as url:
        yield url


@pytest.fixture(scope="module")
def changed_url() -> Iterator[str]:
    with http_server(CHANGED) as url:
        yield url


@pytest.mark.parametrize("era", ["auto", "legacy"])
def test_rerun_over_http_in_both_eras(tmp_path: Path, era: str, demo_url: str, changed_url: str) -> None:
    path = tmp_path / "http.jsonl"
    args = ("--args", '{"location": "Paris"}', "--era", era, "--answers", "inspector/demo/answers.json")
    recorded = invoke("call", "get_weather", *args, "--server", demo_url, "--record", str(path))
    assert recorded.exit_code == 0, recorded.stderr
    same = invoke("replay", str(path), "--against", demo_url, "--no-record")
    assert same.exit_code == 0, same.stdout
    assert "all match: 1 call re-run" in same.stdout
    changed = invoke("replay", str(path), "--against", changed_url, "--no-record")
    assert changed.exit_code == 0, changed.stdout  # get_weather did not change; only add did


def test_a_legacy_recording_re_runs_in_the_modern_era(tmp_path: Path) -> None:
    path = tmp_path / "legacy.jsonl"
    answers = str(Path(__file__).parents[2] / "inspector" / "demo" / "answers.json")
    args = ("--args", '{"workItemId": 7, "fields": {}}', "--demo", "--era", "legacy", "--answers", answers)
    recorded = invoke("call", "update_work_item", *args, "--record", str(path))
    assert recorded.exit_code == 0, recorded.stderr
    result = invoke("replay", str(path), "--against", DEMO_SPEC, "--era", "auto", "--json", "--no-record")
    doc = json.loads(result.stdout)
    assert (doc["recordedEra"], doc["liveEra"]) == ("legacy 2025-11-25", "modern 2026-07-28")
    [call] = doc["calls"]
    assert call["match"] is True, call  # the key-less legacy answers answered the keyed modern questions, in order
    assert len(call["notes"]) == 1 and call["notes"][0].startswith("1 round(s) recorded, ")
    assert result.exit_code == 0
