"""The README's CI recipe, run for real: its shell script (the lab on a recording's calls, then the recording re-run
against the server, each with ``--junit``) against the sound demo and a flawed one, and ``replay --against --junit``
against a server whose ``add`` changed and against one that never starts. Each JUnit file must parse and count what
the run saw: the lab's the summary it printed, the re-run's a case per recorded call.

Real processes throughout: the golden recording is a session with the demo over stdio, the script runs under
``sh`` with ``inspector`` on the PATH, every command is the real CLI, all four started at once."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from http_interop_support import CliRun, Started, cli_argv, cli_env
from replay_support import CHANGED, DEMO

from inspector.answers.build import build_answer_source
from inspector.cli.demo_flows import example_answers_path
from inspector.cli.wiring import build_session, demo_target
from inspector.demo.flaw_names import STATE_KEY_ENV

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

README = Path(__file__).resolve().parents[2] / "README.md"
RUN_TIMEOUT = 240.0
"""For the four runs together (each script runs a lab and a re-run; a loaded 2-core machine runs them in turns)."""
GOLDEN: list[tuple[str, dict[str, Any]]] = [
    ("add", {"a": 2, "b": 3}),
    ("get_weather", {"location": "Paris"}),
    ("update_work_item", {"workItemId": 7, "fields": {}}),
]
"""A plain call, a one-question flow and a two-question flow with a sealed requestState (what stateless 2 crosses)."""
SUMMARY = re.compile(r"lab: (\d+) pass · (\d+) fail · (\d+) warn · (\d+) skip")


def readme_block(marker: str) -> str:
    """The fenced block right after ``<!-- marker -->`` in the README."""
    after = README.read_text(encoding="utf-8").split(f"<!-- {marker} -->\n", 1)[1]
    fence, body = after.split("\n", 1)
    assert fence.startswith("```"), f"no fenced block after <!-- {marker} -->"
    return body.split("\n```\n", 1)[0] + "\n"


async def _record_golden(path: Path) -> None:
    session = build_session(demo_target(), build_answer_source(example_answers_path(), "fail", True, []), record=path)
    try:
        await session.connect()
        for tool, arguments in GOLDEN:
            outcome = await session.call_tool(tool, arguments)
            assert outcome.ok, (tool, outcome.status, outcome.detail)
    finally:
        await session.close()


@dataclass
class Runs:
    folder: Path
    runs: dict[str, CliRun]

    def junit(self, name: str) -> ElementTree.Element:
        return ElementTree.parse(self.folder / name).getroot()


@pytest.fixture(scope="module")
def ran(tmp_path_factory: pytest.TempPathFactory) -> Runs:
    folder = tmp_path_factory.mktemp("ci")
    golden = folder / "golden.jsonl"
    asyncio.run(_record_golden(golden))
    script = folder / "inspector-ci.sh"
    script.write_text(readme_block("ci-script"), encoding="utf-8")
    bin_dir = str(Path(sys.executable).parent)
    assert shutil.which("inspector", path=bin_dir), "the inspector command is installed beside this interpreter"
    # Two processes of the demo are two instances of one deployment when they share a sealing key (the lab's --demo
    # does the same): a sound demo must pass, so the key is the environment's, as a real deployment's would be.
    env = cli_env(folder / "data", PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    env[STATE_KEY_ENV] = secrets.token_hex(32)

    def script_run(out: str, server: list[str]) -> subprocess.Popen[str]:
        settings = {"SERVER": shlex.join(server), "RECORDING": str(golden), "OUT": str(folder / out)}
        return subprocess.Popen(
            ["sh", str(script)], env={**env, **settings}, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip

    def cli_run(*args: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            cli_argv(*args), env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip

    rerun = ["replay", str(golden), "--no-record", "--against"]
    commands = {
        "sound": ["sh", "SERVER=demo"],
        "flawed": ["sh", "SERVER=demo --flaw sticky-state"],
        "changed": [*rerun, shlex.join(CHANGED), "--json", "--junit", str(folder / "changed" / "rerun.xml")],
        "unreached": [*rerun, shlex.join([sys.executable, "-c", "pass"]), "--junit", str(folder / "unreached.xml")],
    }
    processes = {
        "sound": script_run("sound", DEMO),
        "flawed": script_run("flawed", [*DEMO, "--flaw", "sticky-state"]),
        "changed": cli_run(*commands["changed"]),
        "unreached": cli_run(*commands["unreached"]),
    }
    return Runs(folder, Started(commands, processes, RUN_TIMEOUT).wait())


def _consistent(root: ElementTree.Element) -> tuple[int, int, int]:
    """(tests, failures, skipped) of a JUnit document, once every count it states is checked against its cases."""
    assert root.tag == "testsuites"
    totals = [0, 0, 0]
    for suite in root:
        assert suite.tag == "testsuite" and suite.get("errors") == "0"
        cases = list(suite)
        assert all(case.tag == "testcase" and case.get("classname") and case.get("name") for case in cases)
        counted = (
            len(cases),
            sum(case.find("failure") is not None for case in cases),
            sum(case.find("skipped") is not None for case in cases),
        )
        assert (int(suite.get("tests", "")), int(suite.get("failures", "")), int(suite.get("skipped", ""))) == counted
        totals = [total + count for total, count in zip(totals, counted, strict=True)]
    assert (int(root.get("tests", "")), int(root.get("failures", "")), int(root.get("skipped", ""))) == tuple(totals)
    return totals[0], totals[1], totals[2]


def _lab_summary(run: CliRun) -> tuple[int, int, int, int]:
    found = SUMMARY.search(run.stdout)
    assert found is not None, run.stdout[-2000:] + run.stderr[-2000:]
    passed, failed, warned, skipped = (int(n) for n in found.groups())
    return passed, failed, warned, skipped


def _rerun_cases(root: ElementTree.Element) -> dict[str, ElementTree.Element]:
    [suite] = root
    return {case.get("name") or "": case for case in suite}


def test_the_workflow_runs_the_same_commands_as_the_script() -> None:
    workflow = readme_block("ci-workflow")
    steps = [line.strip().removeprefix("run: ") for line in workflow.splitlines() if "run: inspector " in line]
    script = [line.removesuffix(" || status=$?") for line in readme_block("ci-script").splitlines()]
    assert steps == [line for line in script if line.startswith("inspector ")]
    assert "on: push" in workflow and "actions/upload-artifact@" in workflow
    assert workflow.count("if: ${{ !cancelled() }}") == 2, "the re-run and the upload run even when the lab failed"


def test_the_script_on_the_sound_demo_passes_with_junit_that_counts_every_check(ran: Runs) -> None:
    run = ran.runs["sound"]
    assert run.code == 0, run.stdout[-3000:] + run.stderr[-3000:]
    passed, failed, warned, skipped = _lab_summary(run)
    lab = ran.junit("sound/lab.xml")
    assert _consistent(lab) == (passed + failed + warned + skipped, 0, skipped)
    warnings = [case for suite in lab for case in suite if (case.findtext("system-out") or "").startswith("warning")]
    assert len(warnings) == warned
    assert {suite.get("name") for suite in lab} >= {"lab baseline", "lab stateless 1", "lab stateless 2", "lab tamper"}
    rerun = ran.junit("sound/rerun.xml")
    assert _consistent(rerun) == (1 + len(GOLDEN), 0, 1), "a case per recorded call: the handshake skipped"
    cases = _rerun_cases(rerun)
    assert list(cases) == ["#1 server/discover", "#2 tools/call add", "#3 tools/call get_weather",
                           "#4 tools/call update_work_item"]  # fmt: skip
    assert all(case.get("classname") == "replay.rerun" for case in cases.values())
    assert all(float(case.get("time", "-1")) >= 0 for name, case in cases.items() if name != "#1 server/discover")
    recorded = sorted(path.name for path in (ran.folder / "sound").iterdir())
    assert {"lab.jsonl", "lab-legacy.jsonl", "rerun.jsonl"} <= set(recorded), recorded


def test_the_script_on_a_flawed_demo_fails_the_labs_junit_and_still_re_runs(ran: Runs) -> None:
    run = ran.runs["flawed"]
    assert run.code == 1, run.stdout[-3000:] + run.stderr[-3000:]
    passed, failed, warned, skipped = _lab_summary(run)
    assert failed > 0
    lab = ran.junit("flawed/lab.xml")
    assert _consistent(lab) == (passed + failed + warned + skipped, failed, skipped)
    failures = [(suite.get("name"), case.find("failure")) for suite in lab for case in suite]
    failed_in = {name for name, failure in failures if failure is not None}
    assert failed_in == {"lab stateless 2"}, failed_in
    messages = [failure.get("message") or "" for _, failure in failures if failure is not None]
    assert all("process memory" in message for message in messages), messages
    rerun = ran.junit("flawed/rerun.xml")
    assert _consistent(rerun) == (4, 0, 1), "one process of the flawed demo answers as recorded: the re-run passes"


def test_a_changed_result_fails_the_re_runs_junit_with_the_diff(ran: Runs) -> None:
    run = ran.runs["changed"]
    assert run.code == 1, run.stdout[-3000:] + run.stderr[-3000:]
    summary = run.document()["summary"]
    root = ran.junit("changed/rerun.xml")
    tests, failures, skipped = _consistent(root)
    assert (failures, skipped) == (summary["different"], summary["skipped"] + summary["notComparable"]) == (1, 1)
    assert tests == summary["rerun"] + skipped == 4
    cases = _rerun_cases(root)
    failure = cases["#2 tools/call add"].find("failure")
    assert failure is not None
    assert failure.get("message") == 'content[0].text: "5" → "6"; structuredContent.result: 5 → 6'
    assert failure.text == 'content[0].text: "5" → "6"\nstructuredContent.result: 5 → 6'
    assert all(case.find("failure") is None for name, case in cases.items() if name != "#2 tools/call add")


def test_a_server_that_never_starts_is_the_failed_connect_case(ran: Runs) -> None:
    run = ran.runs["unreached"]
    assert run.code == 3, run.stdout[-3000:] + run.stderr[-3000:]
    root = ran.junit("unreached.xml")
    assert _consistent(root) == (1, 1, 0)
    [connect] = _rerun_cases(root).values()
    failure = connect.find("failure")
    assert connect.get("name") == "connect" and failure is not None and failure.get("message")
