"""The ``--json`` document, ``inspector list``, and ``inspector demo --headless``, from real runs."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from cli_support import DEMO_ANSWERS, DEMO_TOOLS, bad_server_spec, invoke
from printed_text import says


def recorded_states(path: Path) -> list[str]:
    """Every requestState the server sent, from the recording's exact wire text."""
    states = []
    for line in path.read_text(encoding="utf-8").split("\n")[1:-1]:
        record = json.loads(line)
        if record["dir"] == "s2c":
            result = json.loads(record["raw"]).get("result", {})
            if isinstance(result.get("requestState"), str):
                states.append(result["requestState"])
    return states


def test_call_json_document_has_every_field_a_script_needs(tmp_path: Path) -> None:
    recording = tmp_path / "work.jsonl"
    args = '{"workItemId": 1, "fields": {}}'
    result = invoke(
        "call", "update_work_item", "--args", args, "--demo", "--answers", str(DEMO_ANSWERS), "--json",
        "--record", str(recording),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    assert doc["status"] == "complete" and doc["exitCode"] == 0
    assert doc["era"] == "modern" and doc["protocolVersion"] == "2026-07-28"
    assert "Duplicate" in doc["result"]["content"][0]["text"]
    assert doc["error"] is None
    assert isinstance(doc["findings"], list)

    rounds = doc["rounds"]
    assert [r["resultType"] for r in rounds] == ["input_required", "input_required", "complete"]
    assert [r["inputRequests"] for r in rounds] == [["resolution"], ["duplicate_of"], []]
    ids = [r["id"] for r in rounds]
    assert len(set(ids)) == 3 and all(isinstance(i, int) for i in ids), "every retry has a new id"
    assert all(isinstance(r["ms"], int | float) and r["ms"] >= 0 for r in rounds)

    states = recorded_states(recording)
    with_state = [r for r in rounds if "requestState" in r]
    assert len(with_state) == len(states) >= 1
    for round_, state in zip(with_state, states, strict=True):
        facts = round_["requestState"]
        assert facts["length"] == len(state)
        assert facts["sha256"] == hashlib.sha256(state.encode("utf-8")).hexdigest()
        assert facts["echoed"] is True


def test_json_findings_name_the_garbage() -> None:
    result = invoke("call", "echo", "--server", bad_server_spec("garbage"), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    codes = [f["code"] for f in doc["findings"]]
    assert codes.count("invalid-message") == 3
    assert all(f["severity"] == "error" and f["message"] and f["hint"] for f in doc["findings"] if f["code"] != "era")


def test_list_tools_json_on_the_demo() -> None:
    result = invoke("list", "tools", "--demo", "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["status"] == "complete" and doc["era"] == "modern"
    names = {tool["name"] for tool in doc["result"]["tools"]}
    assert set(DEMO_TOOLS) <= names
    assert doc["rounds"][0]["resultType"] == "complete"


def test_list_with_a_bad_kind_is_a_usage_error() -> None:
    result = invoke("list", "widgets", "--demo")
    assert result.exit_code == 2
    assert says(result.stderr, "tools, prompts, resources, templates or skills"), result.stderr


def test_list_tools_answered_with_input_required_fails_with_exit_3() -> None:
    result = invoke("list", "tools", "--server", bad_server_spec("ir-on-list"), "--json")
    assert result.exit_code == 3
    doc = json.loads(result.stdout)
    assert "tools/list answered input_required" in doc["detail"]
    assert "input-required-forbidden" in [f["code"] for f in doc["findings"]]


def test_demo_headless_runs_every_flow() -> None:
    result = invoke("demo", "--headless")
    assert result.exit_code == 0, result.output
    for name in (*DEMO_TOOLS, "code_review", "demo://report"):
        assert name in result.stdout, f"{name} missing from the demo timeline"
    assert "no-answer" not in result.stdout and "round-cap" not in result.stdout


def test_log_level_is_asked_on_every_modern_request(tmp_path: Path) -> None:
    path = tmp_path / "levels.jsonl"
    result = invoke(
        "call", "add", "--args", '{"a": 1, "b": 2}', "--demo", "--log-level", "warning", "--record", str(path)
    )
    assert result.exit_code == 0, result.stderr
    from inspector.replay import timeline_from_recording

    timeline, _ = timeline_from_recording(path)
    metas = [r.request.message["params"]["_meta"] for c in timeline.calls for r in c.rounds if r.request.message]
    assert metas and all(m.get("io.modelcontextprotocol/logLevel") == "warning" for m in metas)
    bad = invoke("call", "add", "--demo", "--log-level", "loud")
    assert bad.exit_code == 2 and "--log-level must be one of debug" in " ".join(bad.stderr.split())
