"""Every exit code of the headless CLI from a real run against the demo server or the bad fixture server:
0 complete, 1 isError, 2 usage, 3 connection or transport, 4 JSON-RPC error, 5 no answer, 6 round cap."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from cli_support import DEMO_ANSWERS, bad_server_spec, invoke, run_cli
from printed_text import says

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)


def test_0_when_the_call_completes() -> None:
    result = invoke("call", "add", "--args", '{"a": 2, "b": 3}', "--demo")
    assert result.exit_code == 0, result.output
    assert "complete" in result.stdout and "⇒ 5" in result.stdout
    assert "error" not in result.stderr


def test_1_when_the_tool_result_is_an_error() -> None:
    result = invoke("call", "echo", "--args", '{"x": 1}', "--server", bad_server_spec("is-error"))
    assert result.exit_code == 1, result.output
    assert "tool-error" in result.stdout


def test_1_when_the_demo_rejects_the_arguments() -> None:
    result = invoke("call", "add", "--args", '{"a": "two", "b": 3}', "--demo", "--json")
    assert result.exit_code == 1, result.output
    doc = json.loads(result.stdout)
    assert doc["status"] == "tool-error" and doc["result"]["isError"] is True


@pytest.mark.parametrize(
    ("args", "message"),
    [("{not json", "--args is not JSON"), ("[1, 2]", "--args must be a JSON object, not an array")],
)
def test_2_for_arguments_that_are_not_a_json_object(args: str, message: str) -> None:
    result = invoke("call", "add", "--args", args, "--demo")
    assert result.exit_code == 2
    assert says(result.stderr, message), result.stderr
    assert result.stdout == ""


def test_2_for_an_answers_file_with_a_bad_entry_naming_the_key(tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"github_login": {"action": "acept", "content": {"name": "x"}}}), encoding="utf-8")
    result = invoke("call", "get_weather", "--args", '{"location": "Paris"}', "--demo", "--answers", str(answers))
    assert result.exit_code == 2
    assert says(result.stderr, "'github_login'", str(answers)), result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", ["call", "load"])
def test_2_for_a_recording_that_cannot_be_written_said_before_anything_connects(command: str, tmp_path: Path) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    for where, why in ((folder, "Is a directory"), (Path("/proc/no-such/x.jsonl"), "No such file or directory")):
        result = invoke(command, "add", "--demo", "--record", str(where))
        assert result.exit_code == 2 and says(result.stderr, f"cannot record to {where}: {why}"), result.output
        assert result.stdout == "" and "Traceback" not in result.output


def test_2_for_an_answers_file_that_is_not_json(tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text("{oops", encoding="utf-8")
    result = invoke("call", "add", "--demo", "--answers", str(answers))
    assert result.exit_code == 2
    assert says(result.stderr, str(answers)), result.stderr


def test_2_without_a_target() -> None:
    result = invoke("call", "add")
    assert result.exit_code == 2
    assert "--server" in result.stderr and "--demo" in result.stderr


def test_3_for_a_command_that_does_not_exist_with_a_hint_and_no_traceback() -> None:
    result = run_cli("call", "add", "--server", "no-such-command-a8f3e1 --flag")
    assert result.returncode == 3, result.stderr
    assert "error: command not found: no-such-command-a8f3e1" in result.stderr
    assert "try: " in result.stderr and "PATH" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert result.stdout == ""


def test_3_with_json_prints_a_document_for_a_connect_failure() -> None:
    result = invoke("call", "add", "--server", "no-such-command-a8f3e1", "--json")
    assert result.exit_code == 3
    doc = json.loads(result.stdout)
    assert doc["status"] == "failed" and doc["exitCode"] == 3
    assert "command not found" in doc["detail"]


def test_3_when_the_server_crashes_mid_call() -> None:
    result = invoke("call", "echo", "--server", bad_server_spec("crash"), "--json")
    assert result.exit_code == 3
    doc = json.loads(result.stdout)
    assert doc["status"] == "failed" and "exit code 7" in doc["detail"]
    assert "disconnected" in [f["code"] for f in doc["findings"]]


def test_3_when_the_server_never_answers_within_the_timeout() -> None:
    result = invoke("call", "echo", "--server", bad_server_spec("silent"), "--timeout", "0.5")
    assert result.exit_code == 3
    assert "within 0.5 s" in " ".join(result.stderr.split())


def test_4_for_a_json_rpc_error() -> None:
    result = invoke("call", "no_such_tool", "--server", bad_server_spec("ok"))
    assert result.exit_code == 4, result.output
    said = " ".join(result.stderr.split())
    assert "-32602" in said and "Unknown tool: no_such_tool" in said


def test_5_when_input_is_needed_and_no_answer_is_available() -> None:
    result = invoke("call", "get_weather", "--args", '{"location": "Paris"}', "--demo", "--on-missing", "fail")
    assert result.exit_code == 5, result.output
    said = " ".join(result.stderr.split())
    assert "no-answer" in said and "github_login" in said


def test_5_too_when_a_legacy_server_turns_the_unanswered_request_into_an_error() -> None:
    """The demo in the 2025 era asks elicitation/create; nothing answers it, so we refuse it, and the server then
    ends the call with a JSON-RPC error: the call ended because nothing answered (5), not as an error (4), and only
    the sources the user has are named."""
    result = run_cli(
        "call", "get_weather", "--args", '{"location": "Paris"}', "--demo", "--era", "legacy", "--no-record"
    )
    assert result.returncode == 5, (result.stdout, result.stderr)
    said = " ".join(result.stderr.split())
    assert "ended no-answer" in said and "pass --answers FILE" in said
    assert "roots" not in said


def test_6_when_the_round_cap_is_hit() -> None:
    args = '{"workItemId": 1, "fields": {}}'
    result = invoke(
        "call", "update_work_item", "--args", args, "--demo", "--answers", str(DEMO_ANSWERS), "--max-rounds", "2"
    )
    assert result.exit_code == 6, result.output
    said = " ".join(result.stderr.split())
    assert "round-cap" in said and "--max-rounds" in said


def test_6_for_a_server_that_loops_on_input_required() -> None:
    spec = bad_server_spec("ir-forever")
    result = invoke("call", "echo", "--server", spec, "--on-missing", "decline", "--max-rounds", "3", "--json")
    assert result.exit_code == 6
    doc = json.loads(result.stdout)
    assert [r["resultType"] for r in doc["rounds"]] == ["input_required"] * 3
    assert [r["requestState"]["echoed"] for r in doc["rounds"]] == [True, True, None]


def test_3_when_the_server_exits_at_start_showing_its_stderr() -> None:
    spec = shlex.join([sys.executable, "-c", "import sys; sys.stderr.write('boom: no config\\n'); sys.exit(2)"])
    result = invoke("call", "add", "--server", spec)
    assert result.exit_code == 3
    said = " ".join(result.stderr.split())
    assert "exit code 2" in said and "server: boom: no config" in said


def test_a_crash_mid_call_shows_the_servers_last_stderr_lines() -> None:
    result = invoke("call", "echo", "--server", bad_server_spec("crash"))
    assert result.exit_code == 3
    assert "server: bad_server: crashing on purpose" in " ".join(result.stderr.split())
    assert "Traceback" not in result.output
