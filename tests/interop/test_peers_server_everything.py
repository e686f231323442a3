"""``inspector list`` and ``inspector call`` against ``@modelcontextprotocol/server-everything@2026.8.31``, a server
nobody here wrote: legacy era only (2025-11-25), over sessionful Streamable HTTP at /mcp and over stdio.

It listens on every interface, so it runs with ``tests/fixtures/http_peer_loopback.cjs`` preloaded, which binds it to
127.0.0.1 (a free port) and announces the port. Elicitation is answered from an answers file (by method: a legacy
request has no key), sampling by ``--stub-model``, roots by ``--root``. Skipped, with the npm command to run, when the
peer is not installed in ``~/.cache/inspector-peers``.

HTTP runs go through the CLI in-process (typer's runner: the same code from the command down); the stdio runs are
real ``inspector`` processes, started together, since each ends with the server's own 2 s shutdown.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from http_interop_support import (
    EVERYTHING,
    LOOPBACK_PRELOAD,
    NODE,
    CliRun,
    cli_env,
    everything_stdio,
    invoke_in_process,
    missing_peer,
    node_http_peer,
    start_many,
)

PACKAGE = "@modelcontextprotocol/server-everything"
pytestmark = [
    pytest.mark.external,
    pytest.mark.skipif(missing_peer(PACKAGE) is not None, reason=str(missing_peer(PACKAGE))),
]  # (external: these tests start processes)

ELICITED = {"name": "Ada Lovelace", "check": True, "email": "ada@example.com", "integer": 7}
ANSWERS = {"elicitation/create": {"action": "accept", "content": ELICITED}}
RESEARCH_ANSWERS = {"elicitation/create": {"action": "accept", "content": {"interpretation": "technical"}}}
"""What simulate-research-query asks (through the task's blocking tasks/result) when its topic is ambiguous."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("everything")
    (path / "answers.json").write_text(json.dumps(ANSWERS), encoding="utf-8")
    (path / "research.json").write_text(json.dumps(RESEARCH_ANSWERS), encoding="utf-8")
    (path / "roots").mkdir()
    return path


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    argv = [str(NODE), "--require", str(LOOPBACK_PRELOAD), str(EVERYTHING), "streamableHttp"]
    with node_http_peer(argv, {"PORT": "0"}) as base:
        yield f"{base}/mcp"


def answering(folder: Path) -> list[str]:
    return ["--answers", str(folder / "answers.json"), "--stub-model", "--root", str(folder / "roots")]


def cli(folder: Path, *args: str) -> CliRun:
    return invoke_in_process([*args, "--json", "--no-record", "--timeout", "20"], cli_env(folder / "data"))


# (tool, arguments, text the result must hold, the server requests the call must show as rounds)
CALLS: list[tuple[str, dict[str, Any], str, list[str]]] = [
    ("echo", {"message": "hi"}, "Echo: hi", []),
    ("get-sum", {"a": 2, "b": 3}, "The sum of 2 and 3 is 5.", []),
    ("trigger-elicitation-request", {}, "- Name: Ada Lovelace", ["elicitation/create"]),
    ("trigger-sampling-request", {"prompt": "What is the capital of France?"}, '"model": "inspector-stub"', []),
    ("get-roots-list", {}, "URI: file://", []),
]


def text_of(doc: dict[str, Any]) -> str:
    return "\n".join(b.get("text", "") for b in (doc.get("result") or {}).get("content", []))


def check_call(run: CliRun, tool: str, expected: str, server_requests: list[str]) -> dict[str, Any]:
    assert run.code == 0, (run.code, run.stdout, run.stderr)
    doc = run.document()
    assert doc["status"] == "complete" and doc["era"] == "legacy" and doc["protocolVersion"] == "2025-11-25"
    assert expected in text_of(doc), text_of(doc)
    kinds = [(r["kind"], r["method"]) for r in doc["rounds"]]
    assert kinds[0] == ("request", "tools/call")
    for method in server_requests:
        assert ("server-request", method) in kinds, kinds
    for round_ in doc["rounds"][1:]:
        assert round_["kind"] == "server-request", round_
        # server-everything asks roots/list 350 ms after `initialized` (a timer in its createServer); a run that was
        # already closing by then records that request but does not answer it.
        late_roots = round_["method"] == "roots/list" and round_["resultType"] is None
        assert round_["resultType"] == "complete" or late_roots, round_
    assert doc["findings"] == [], doc["findings"]
    return doc


# ------------------------------------------------------------------------------------------------ HTTP (/mcp)
def test_http_list_tools_in_the_legacy_era(url: str, folder: Path) -> None:
    run = cli(folder, "list", "tools", "--server", url)
    assert run.code == 0, run.stderr
    doc = run.document()
    assert doc["status"] == "complete" and doc["era"] == "legacy"
    # The probe is answered at the HTTP level by a 2025 server: the era falls back, and says why.
    assert doc["eraWhy"].startswith("server/discover answered -32000")
    names = {tool["name"] for tool in doc["result"]["tools"]}
    assert {"echo", "get-sum", "trigger-elicitation-request", "trigger-sampling-request", "get-roots-list"} <= names
    assert doc["server"]["name"] == "mcp-servers/everything"
    assert doc["findings"] == []


@pytest.mark.parametrize(("tool", "args", "expected", "server_requests"), CALLS, ids=[c[0] for c in CALLS])
def test_http_call(
    url: str, folder: Path, tool: str, args: dict[str, Any], expected: str, server_requests: list[str]
) -> None:
    run = cli(folder, "call", tool, "--args", json.dumps(args), "--server", url, *answering(folder))
    doc = check_call(run, tool, expected, server_requests)
    if tool == "trigger-elicitation-request":
        (asked,) = [r for r in doc["rounds"] if r["method"] == "elicitation/create"]
        assert asked["answers"] == [
            {"key": None, "source": "answers file", "party": "client", "response": ANSWERS["elicitation/create"]}
        ]


def test_http_progress_lands_on_the_call(url: str, folder: Path) -> None:
    args = json.dumps({"duration": 0.2, "steps": 2})
    run = cli(folder, "call", "trigger-long-running-operation", "--args", args, "--server", url, "--era", "legacy")
    doc = check_call(run, "trigger-long-running-operation", "Long running operation completed", [])
    assert doc["eraWhy"] == "pinned with --era legacy"
    progress = [n for n in doc["rounds"][0]["notifications"] if n["method"] == "notifications/progress"]
    assert len(progress) >= 2 and all("progressToken" in n["params"] for n in progress)


def test_http_pinned_modern_era_is_an_error_with_the_servers_words(url: str, folder: Path) -> None:
    run = cli(folder, "call", "echo", "--args", '{"message": "hi"}', "--server", url, "--era", "modern")
    assert run.code == 4
    doc = run.document()
    assert doc["status"] == "error" and doc["error"]["code"] == -32000
    assert "Server not initialized" in doc["error"]["message"]


# ------------------------------------------------------------------------------------------------ stdio
STDIO = ["list-tools", "trigger-elicitation-request", "trigger-sampling-request"]


@pytest.fixture(scope="module")
def stdio_runs(folder: Path) -> dict[str, CliRun]:
    server = ["--server", everything_stdio(), "--json", "--no-record", "--timeout", "20"]
    commands = {
        "list-tools": ["list", "tools", *server],
        "trigger-elicitation-request": ["call", "trigger-elicitation-request", *server, *answering(folder)],
        "trigger-sampling-request": [
            "call",
            "trigger-sampling-request",
            "--args",
            '{"prompt": "What is the capital of France?"}',
            *server,
            *answering(folder),
        ],
        # no --root and no answers: the roots/list that comes during it is answered with no roots
        "trigger-long-running-operation": [
            "call",
            "trigger-long-running-operation",
            "--args",
            '{"duration": 1, "steps": 2}',
            *server,
        ],
        "simulate-research-query": [
            "call",
            "simulate-research-query",
            "--args",
            '{"topic": "mcp", "ambiguous": true}',
            *server,
            "--answers",
            str(folder / "research.json"),
        ],
    }
    return start_many(commands, cli_env(folder / "data")).wait()


def test_stdio_list_tools(stdio_runs: dict[str, CliRun]) -> None:
    run = stdio_runs["list-tools"]
    assert run.code == 0, run.stderr
    doc = run.document()
    assert doc["era"] == "legacy" and doc["findings"] == []
    assert "trigger-elicitation-request" in {tool["name"] for tool in doc["result"]["tools"]}


@pytest.mark.parametrize("tool", STDIO[1:])
def test_stdio_call(stdio_runs: dict[str, CliRun], tool: str) -> None:
    expected = {"trigger-elicitation-request": "- Name: Ada Lovelace", "trigger-sampling-request": "inspector-stub"}
    method = {"trigger-elicitation-request": "elicitation/create", "trigger-sampling-request": "sampling/createMessage"}
    check_call(stdio_runs[tool], tool, expected[tool], [method[tool]])


def test_stdio_a_roots_request_during_a_call_is_said_inferred_and_never_changes_its_status(
    stdio_runs: dict[str, CliRun],
) -> None:
    """server-everything asks roots/list 350 ms after initialize, for the session, while the long-running call is
    the one call in flight. On stdio nothing on the wire says whose it is (a tool's own roots/list, as the SDKs'
    show_roots asks, looks the same): it is put on the call in flight and said inferred, answered from the configured
    roots (none here: an empty list, never a path the user did not give, and the answer says how to give one), and
    it never changes the call's status."""
    run = stdio_runs["trigger-long-running-operation"]
    assert run.code == 0, (run.code, run.stderr)
    doc = run.document()
    assert doc["status"] == "complete" and "Long running operation completed" in text_of(doc)
    (roots,) = [r for r in doc["rounds"] if r["method"] == "roots/list"]
    assert roots["kind"] == "server-request" and roots["inferredOwner"] is True
    assert roots["answers"][0]["source"] == "no roots given (--root DIR offers one)"
    assert roots["answers"][0]["response"] == {"roots": []}
    assert f"file://{Path.cwd()}" not in run.stdout + run.stderr, "the current folder is never offered"


def test_stdio_the_2025_task_tool_completes_as_a_task(stdio_runs: dict[str, CliRun]) -> None:
    """simulate-research-query is task-required: params.task, a nested CreateTaskResult, polls, the clarifying
    elicitation on the blocking tasks/result (related to the task by its _meta), then the report."""
    run = stdio_runs["simulate-research-query"]
    assert run.code == 0, (run.code, run.stderr[-3000:])
    doc = run.document()
    assert doc["status"] == "complete" and "Research Report" in text_of(doc), text_of(doc)
    methods = [r["method"] for r in doc["rounds"]]
    assert methods[0] == "tools/call" and "tasks/get" in methods and "tasks/result" in methods
    (asked,) = [r for r in doc["rounds"] if r["method"] == "elicitation/create"]
    assert asked["answers"][0]["response"] == RESEARCH_ANSWERS["elicitation/create"]
