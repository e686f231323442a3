"""Tasks against the only published 2026-07-28 Tasks server, ``fastmcp-tasks==4.1.4`` (a server of its tools in
tests/fixtures/fastmcp_tasks_server.py, run in the peer's own venv): the task-required tool and the approval tool
complete as tasks, headless with the same answers as any call; without the extension the required tool is -32021
with a `try:`; a task is looked at again by its id; a cancel is cooperative and shown for what it did.

Skipped, saying how to install it, when the peer's venv is absent (``.ci/run`` makes it).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from http_interop_support import PEERS_CACHE, CliRun, cli_env, invoke_in_process, node_http_peer, start_many

VENV_PYTHON = PEERS_CACHE / "fastmcp-tasks-venv" / "bin" / "python"
SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "fastmcp_tasks_server.py"
INSTALL = f"python3 -m venv {VENV_PYTHON.parents[1]} && {VENV_PYTHON.parent}/pip install fastmcp-tasks==4.1.4"
pytestmark = [
    pytest.mark.external,
    pytest.mark.skipif(not VENV_PYTHON.is_file(), reason=f"fastmcp-tasks is not installed: {INSTALL}"),
]  # (external: these tests open sockets and start processes)
STDIO = f"{VENV_PYTHON} {SERVER}"
APPROVAL = {"elicitation/create": {"action": "accept", "content": {"approved": True}}}
"""fastmcp's in-task input keys are ``<taskId>:<hex>``: an answers file names them by method."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fastmcp-tasks")
    (path / "answers.json").write_text(json.dumps(APPROVAL), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def stdio_runs(folder: Path) -> dict[str, CliRun]:
    server = ["--server", STDIO, "--json", "--timeout", "30"]
    commands = {
        "required": ["call", "crunch_required", "--args", '{"n": 2}', *server, "--no-record"],
        "approve-defaults": [
            "call", "slow_approve", "--args", '{"item": "deploy"}', *server, "--on-missing", "defaults",
            "--record", str(folder / "approve.jsonl"),
        ],
        "approve-file": [
            "call", "approve", "--args", '{"item": "db"}', *server, "--answers", str(folder / "answers.json"),
        ],
        "no-tasks": ["call", "crunch_required", "--args", '{"n": 1}', *server, "--no-tasks", "--no-record"],
    }  # fmt: skip
    return start_many(commands, cli_env(folder / "data")).wait()


def statuses(doc: dict[str, Any]) -> list[str]:
    seen: list[str] = []
    for state in doc["task"]["statusHistory"]:
        if not seen or seen[-1] != state["status"]:
            seen.append(state["status"])
    return seen


def test_the_task_required_tool_completes_as_a_task(stdio_runs: dict[str, CliRun]) -> None:
    run = stdio_runs["required"]
    assert run.code == 0, run.stderr
    doc = run.document()
    assert doc["status"] == "complete" and doc["result"]["content"][0]["text"] == "crunched 2 (required)"
    assert doc["task"]["shape"] == "ext-2026" and statuses(doc) == ["working", "completed"]
    assert [r["method"] for r in doc["rounds"]][:2] == ["tools/call", "tasks/get"]
    assert "task " in run.stderr and "completed" in run.stderr, "the task's status changes were on stderr"


def test_the_approval_task_is_answered_once_by_the_defaults_policy(stdio_runs: dict[str, CliRun]) -> None:
    run = stdio_runs["approve-defaults"]
    assert run.code == 0, run.stderr
    doc = run.document()
    assert doc["status"] == "complete" and "accept {'approved': True}" in doc["result"]["content"][0]["text"]
    assert statuses(doc) == ["working", "input_required", "working", "completed"]
    answered = [a for r in doc["rounds"] for a in r.get("answers", [])]
    assert len(answered) == 1 and answered[0]["source"] == "policy: defaults", "asked on every poll, answered once"
    updates = [r for r in doc["rounds"] if r["method"] == "tasks/update"]
    assert len(updates) == 1


def test_the_approval_task_is_answered_from_an_answers_file_by_method(stdio_runs: dict[str, CliRun]) -> None:
    run = stdio_runs["approve-file"]
    assert run.code == 0, run.stderr
    assert "db: accept {'approved': True}" in run.document()["result"]["content"][0]["text"]


def test_without_the_extension_the_required_tool_says_what_to_try(stdio_runs: dict[str, CliRun]) -> None:
    run = stdio_runs["no-tasks"]
    assert run.code == 4
    doc = run.document()
    assert doc["error"]["code"] == -32021
    assert doc["hint"] == "the server wants the Tasks extension: drop --no-tasks (or turn Tasks on in the TUI)"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with node_http_peer([str(VENV_PYTHON), str(SERVER), "--http", "--port", "0"]) as found:
        yield found


def test_http_a_task_is_looked_at_again_by_its_id(url: str, folder: Path) -> None:
    env = cli_env(folder / "http-data")
    made = invoke_in_process(["call", "crunch_required", "--args", '{"n": 1}', "--server", url, "--json"], env)
    assert made.code == 0, made.stderr
    task_id = made.document()["task"]["taskId"]
    listed = invoke_in_process(["task", "list", "--json"], env)
    assert task_id in [t["taskId"] for t in json.loads(listed.stdout)]
    again = invoke_in_process(["task", "get", task_id, "--server", url, "--json", "--no-record"], env)
    assert again.code == 0, again.stderr
    doc = again.document()
    assert doc["task"]["taskId"] == task_id and doc["task"]["status"] == "completed"
    gone = invoke_in_process(["task", "get", "no-such-task", "--server", url, "--json", "--no-record"], env)
    assert gone.code == 4 and "unknown or has expired" in gone.document()["hint"]


async def test_http_a_cancel_is_cooperative_and_shown_for_what_it_did(url: str) -> None:
    from inspector.answers.build import build_answer_source
    from inspector.session.session import InspectorSession
    from inspector.transport.http import StreamableHttpTransport

    session = InspectorSession(StreamableHttpTransport(url), build_answer_source(), timeout=30)
    try:
        async with asyncio.timeout(60):
            await session.connect()
            await session.list_all("tools")
            running = asyncio.ensure_future(session.call_tool("crunch", {"n": 50}))
            created = asyncio.Event()
            session.timeline.subscribe(lambda _: created.set() if any(c.task for c in session.timeline.calls) else None)
            await created.wait()
            (call,) = [c for c in session.timeline.calls if c.task is not None]
            assert await session.cancel(call.index) is True
            outcome = await running
    finally:
        await session.close()
    methods = [r.method for r in call.rounds]
    assert methods.count("tasks/cancel") == 1 and "notifications/cancelled" not in methods
    assert outcome.status == "cancelled" and call.task is not None and call.task.status == "cancelled"
