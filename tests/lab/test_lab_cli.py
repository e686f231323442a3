"""``inspector lab`` on the command line: --call and --args paired as typed, usage errors (exit 2) that say what
is wrong, and real runs of two demo processes: the sound demo green (exit 0, JUnit with no failure), a flawed one
red (exit 1) with the check and the cause named, --json for scripts."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from http_interop_support import CliRun, cli_env, start_many
from printed_text import says

from inspector.cli import app
from inspector.cli.lab_commands import pair_calls

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

WORK_ITEM = ["--call", "update_work_item", "--args", '{"workItemId": 7, "fields": {}}']
TASK_TOOLS = ["--call", "deploy_release", "--args", '{"version": "1.2"}', "--call", "nightly_build"]


def test_each_args_belongs_to_the_call_before_it() -> None:
    given = ["--call", "add", "--args", '{"a": 1}', "--call", "get_weather", "--call=x", "--args={}", "--demo"]
    assert pair_calls(given) == [("add", '{"a": 1}'), ("get_weather", None), ("x", "{}")]
    assert isinstance(pair_calls(["--args", "{}", "--call", "add"]), str)
    assert isinstance(pair_calls(["--call", "add", "--args", "{}", "--args", "{}"]), str)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--demo", "--args", "{}", "--call", "add"], "--args belongs to the --call TOOL before it"),
        (["--demo", "--call", "add", "--args", "[1]"], "--args of --call add must be a JSON object"),
        (["--server", "http://127.0.0.1:9/mcp", "--call", "add"], "one URL is one instance"),
        (["--server", "a", "--server", "b", "--server", "c", "--call", "add"], "give --server A (and --server B)"),
        (["--flaw", "sticky-state", "--server", "x", "--call", "add"], "--flaw goes with --demo"),
        (["--demo", "--flaw", "leaky"], "--flaw must be one of"),
        (["nonsense", "--demo"], "CHECK must be one of stateless, tamper, eras"),
        (["--demo", "--call", "add", "--ignore", "a..b"], "--ignore"),
        (["--server", "python x.py"], "nothing to call"),
    ],
)
def test_usage_errors_exit_2_and_say_what_is_wrong(args: list[str], said: str) -> None:
    result = CliRunner().invoke(app, ["lab", *args, "--no-record"])
    assert result.exit_code == 2, result.output
    assert says(result.stderr, said), result.stderr


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CliRun]:
    folder = tmp_path_factory.mktemp("lab-cli")
    commands = {
        "sound": ["lab", "stateless", "--demo", *WORK_ITEM, "--junit", str(folder / "sound.xml"), "--record",
                  str(folder / "sound.jsonl")],
        "sticky": ["lab", "stateless", "--demo", "--flaw", "sticky-state", *WORK_ITEM, "--json", "--junit",
                   str(folder / "sticky.xml"), "--no-record"],
        "tasks": ["lab", "stateless", "--demo", *TASK_TOOLS, "--json", "--no-record"],
        "own-tasks": ["lab", "stateless", "--demo", "--flaw", "own-tasks", *TASK_TOOLS, "--json", "--no-record"],
        "unstable-order": ["lab", "stateless", "--demo", "--flaw", "unstable-order", "--call", "add", "--args",
                           '{"a": 1, "b": 2}', "--json", "--no-record"],
    }  # fmt: skip
    # The demo's tasks work for a tenth of their time (its poll hint follows, down to 50 ms).
    found = start_many(commands, cli_env(folder / "data", INSPECTOR_DEMO_TASK_SCALE="0.1")).wait()
    found["folder"] = CliRun([], 0, str(folder), "")
    return found


def test_the_sound_demo_is_green(runs: dict[str, CliRun]) -> None:
    run = runs["sound"]
    assert run.code == 0, run.stdout + run.stderr
    assert "tools/call update_work_item · A⇄B" in run.stdout and "A B A" in run.stdout
    assert "0 fail" in run.stdout
    suites = ElementTree.parse(Path(runs["folder"].stdout) / "sound.xml").getroot()
    assert sum(int(s.get("failures", "0")) for s in suites) == 0
    assert sum(int(s.get("tests", "0")) for s in suites) >= 5
    assert "recorded main to" in run.stdout and (Path(runs["folder"].stdout) / "sound.jsonl").is_file()


def test_a_flawed_demo_is_red_naming_the_check_and_the_cause(runs: dict[str, CliRun]) -> None:
    run = runs["sticky"]
    assert run.code == 1, run.stderr
    doc = json.loads(run.stdout)
    assert doc["exitCode"] == 1 and doc["instances"]["B"] == "inspector demo-server --flaw sticky-state"
    failed = [row for row in doc["rows"] if row["verdict"] == "fail"]
    assert {row["group"] for row in failed} == {"stateless 2"}
    assert all("process memory" in row["why"] for row in failed)
    assert "✗ tools/call update_work_item · A⇄B" in run.stderr, "progress lines name each failure as it happens"
    suites = ElementTree.parse(Path(runs["folder"].stdout) / "sticky.xml").getroot()
    failures = [failure for suite in suites for case in suite if (failure := case.find("failure")) is not None]
    assert len(failures) == 2 and "process memory" in (failures[0].get("message") or "")


def test_a_demo_listing_its_tools_in_another_order_per_instance_fails_the_list_check(
    runs: dict[str, CliRun],
) -> None:
    run = runs["unstable-order"]
    assert run.code == 1, run.stderr
    doc = json.loads(run.stdout)
    assert doc["instances"]["B"] == "inspector demo-server --flaw unstable-order"
    failed = [row for row in doc["rows"] if row["verdict"] == "fail"]
    assert [row["check"] for row in failed] == ["tools/list on B"], failed
    assert failed[0]["why"].startswith("the same tools in another order: a host's prompt cache would not survive")
    assert "seed 004: lists are ordered stably" in failed[0]["why"]
    assert all(row["verdict"] == "pass" for row in doc["rows"] if row["check"] == "tools/call add on B")


def test_two_demo_processes_share_their_tasks(runs: dict[str, CliRun]) -> None:
    """Each process runs the tasks it made; the other finds them (stateless 3) and takes part in them (stateless 2:
    polls, the approval and the result on the other process) through the folder both were given."""
    run = runs["tasks"]
    assert run.code == 0, run.stdout + run.stderr
    doc = json.loads(run.stdout)
    assert [row for row in doc["rows"] if row["verdict"] != "pass"] == []
    crossing = {row["check"]: row for row in doc["rows"] if row["group"] == "stateless 2"}
    assert set(crossing) == {"tools/call deploy_release · A⇄B", "tools/call deploy_release · B⇄A"}
    assert all(len(row["route"].split()) > 4 for row in crossing.values()), "the polls crossed too"
    found = [row for row in doc["rows"] if row["group"] == "stateless 3"]
    assert [row["check"].split(":")[0] for row in found] == ["tools/call deploy_release", "tools/call nightly_build"]
    assert all(row["why"].startswith("B knows the task A made") for row in found)


def test_a_demo_keeping_its_tasks_to_itself_fails_the_task_checks(runs: dict[str, CliRun]) -> None:
    run = runs["own-tasks"]
    assert run.code == 1, run.stderr
    doc = json.loads(run.stdout)
    failed = [row for row in doc["rows"] if row["verdict"] == "fail"]
    assert {(row["group"], row["check"].split(" · ")[0].split(":")[0]) for row in failed} == {
        ("stateless 2", "tools/call deploy_release"),
        ("stateless 3", "tools/call deploy_release"),
        ("stateless 3", "tools/call nightly_build"),
    }
    assert all("does not know the task" in row["why"] for row in failed)
    assert all(row["try"].startswith("keep tasks in a store every instance reads") for row in failed)
