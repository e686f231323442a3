"""``inspector list`` and ``inspector call`` against a server on the official TypeScript SDK v2
(``@modelcontextprotocol/server@2.4.0``), a second dual-era implementation nobody here wrote.

The server is ``tests/fixtures/http_peer_ts_server.mjs`` (four tools: ``add``, and one per input kind:
``confirm_delete`` elicits, ``ask_model`` samples, ``show_roots`` lists roots), over Streamable HTTP on 127.0.0.1 and
over stdio.

- 2026-07-28 (``--era auto`` settles on it): MRTR rounds, answered by key from an answers file, ``--stub-model`` and
  ``--root``; over HTTP and stdio.
- 2025-11-25 over stdio: the SDK's legacy shim turns each ``input_required`` into a real server->client request,
  answered by method, which becomes a round of the call.
- 2025-11-25 over HTTP: the SDK serves legacy traffic statelessly (no session, no server->client requests), so
  plain tools work and the input tools answer with a tool error that says so. That is the peer's documented design.

Skipped, with the npm command to run, when the peer is not installed in ``~/.cache/inspector-peers``.
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
    NODE,
    PEERS_CACHE,
    TS_SERVER,
    CliRun,
    cli_env,
    invoke_in_process,
    missing_peer,
    node_http_peer,
    start_many,
    ts_stdio,
)

PACKAGE = "@modelcontextprotocol/server"
pytestmark = [
    pytest.mark.external,
    pytest.mark.skipif(missing_peer(PACKAGE) is not None, reason=str(missing_peer(PACKAGE))),
]  # (external: these tests start processes)

CONFIRM = {"action": "accept", "content": {"confirm": True}}
ANSWERS = {"confirm": CONFIRM, "elicitation/create": CONFIRM}
"""By key for MRTR (2026-07-28); by method for a legacy server request, which has no key."""
TOOLS = ["add", "confirm_delete", "ask_model", "show_roots"]

# tool -> (arguments, text the result must hold, the input request: its MRTR key and its method)
CALLS: dict[str, tuple[dict[str, Any], str, tuple[str, str] | None]] = {
    "add": ({"a": 2, "b": 3}, "5", None),
    "confirm_delete": ({"file": "notes.txt"}, "Deleted notes.txt.", ("confirm", "elicitation/create")),
    "ask_model": (
        {"question": "Capital of France?"},
        "The model (inspector-stub) said: Paris",
        ("answer", "sampling/createMessage"),
    ),
    "show_roots": ({}, "Roots: file://", ("roots", "roots/list")),
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ts-sdk")
    (path / "answers.json").write_text(json.dumps(ANSWERS), encoding="utf-8")
    (path / "roots").mkdir()
    return path


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with node_http_peer([str(NODE), str(TS_SERVER), str(PEERS_CACHE), "http"]) as mcp_url:
        yield mcp_url


def call_args(folder: Path, tool: str, server: str, era: str) -> list[str]:
    args = json.dumps(CALLS[tool][0])
    answering = ["--answers", str(folder / "answers.json"), "--stub-model", "--root", str(folder / "roots")]
    return ["call", tool, "--args", args, "--server", server, "--era", era, *answering, *COMMON]


COMMON = ["--json", "--no-record", "--timeout", "20"]


def text_of(doc: dict[str, Any]) -> str:
    return "\n".join(b.get("text", "") for b in (doc.get("result") or {}).get("content", []))


def check(run: CliRun, tool: str, era: str) -> dict[str, Any]:
    """The call completed, shows its answer was used, and reads the way its era reads."""
    assert run.code == 0, (run.code, run.stdout[-2000:], run.stderr)
    doc = run.document()
    _, expected, asked = CALLS[tool]
    assert doc["status"] == "complete" and doc["era"] == era, (doc["status"], doc["era"], doc["detail"])
    assert expected in text_of(doc), text_of(doc)
    rounds = [(r["kind"], r["method"], r["resultType"], r["inputRequests"]) for r in doc["rounds"]]
    if asked is None:
        assert rounds == [("request", "tools/call", "complete", [])]
    elif era == "modern":
        assert rounds == [
            ("request", "tools/call", "input_required", [asked[0]]),
            ("request", "tools/call", "complete", []),
        ]
        assert [a["key"] for a in doc["rounds"][0]["answers"]] == [asked[0]]
    elif asked[1] == "roots/list" and doc["transport"] == "stdio":
        # show_roots' own roots/list: on stdio nothing on the wire names its call, so it is put on the one call in
        # flight and said inferred (over HTTP the POST's stream names it)
        assert rounds == [("request", "tools/call", "complete", []), ("server-request", "roots/list", "complete", [])]
        assert doc["rounds"][1]["inferredOwner"] is True and doc["session"] == []
    else:
        assert rounds == [("request", "tools/call", "complete", []), ("server-request", asked[1], "complete", [])]
        assert [a["key"] for a in doc["rounds"][1]["answers"]] == [None]
    assert doc["findings"] == [], doc["findings"]
    return doc


def in_process(folder: Path, args: list[str]) -> CliRun:
    return invoke_in_process(args, cli_env(folder / "data"))


# ------------------------------------------------------------------------------------------------ HTTP
@pytest.mark.parametrize("era", ["auto", "legacy"])
def test_http_list_tools(url: str, folder: Path, era: str) -> None:
    run = in_process(folder, ["list", "tools", "--server", url, "--era", era, *COMMON])
    assert run.code == 0, run.stderr
    doc = run.document()
    assert doc["era"] == ("modern" if era == "auto" else "legacy")
    assert [tool["name"] for tool in doc["result"]["tools"]] == TOOLS
    assert doc["server"] == {"name": "inspector-ts-peer", "version": "1.0.0"}
    assert doc["findings"] == []


@pytest.mark.parametrize("tool", TOOLS)
def test_http_modern_call(url: str, folder: Path, tool: str) -> None:
    check(in_process(folder, call_args(folder, tool, url, "auto")), tool, "modern")


def test_http_legacy_plain_tool(url: str, folder: Path) -> None:
    check(in_process(folder, call_args(folder, "add", url, "legacy")), "add", "legacy")


def test_http_legacy_input_tools_say_the_stateless_fallback_cannot_ask(url: str, folder: Path) -> None:
    """The SDK's HTTP legacy fallback keeps no session, so it cannot send server->client requests: the tool
    answers isError naming the capability it could not use (exit 1), and nothing on our side is a finding."""
    run = in_process(folder, call_args(folder, "confirm_delete", url, "legacy"))
    assert run.code == 1, run.stderr
    doc = run.document()
    assert doc["status"] == "tool-error" and doc["era"] == "legacy"
    assert "Cannot request input 'confirm' (elicitation/create)" in text_of(doc)
    assert doc["findings"] == []


# ------------------------------------------------------------------------------------------------ stdio
STDIO_CASES = [("auto", "add"), ("auto", "confirm_delete"), ("legacy", "confirm_delete"), ("legacy", "ask_model")]
STDIO_CASES += [("legacy", "show_roots")]


@pytest.fixture(scope="module")
def stdio_runs(folder: Path) -> dict[str, CliRun]:
    commands = {f"{era}-{tool}": call_args(folder, tool, ts_stdio(), era) for era, tool in STDIO_CASES}
    commands["list"] = ["list", "tools", "--server", ts_stdio(), *COMMON]
    return start_many(commands, cli_env(folder / "data")).wait()


def test_stdio_list_tools(stdio_runs: dict[str, CliRun]) -> None:
    run = stdio_runs["list"]
    assert run.code == 0, run.stderr
    doc = run.document()
    assert doc["era"] == "modern" and [tool["name"] for tool in doc["result"]["tools"]] == TOOLS


@pytest.mark.parametrize(("era", "tool"), STDIO_CASES, ids=[f"{e}-{t}" for e, t in STDIO_CASES])
def test_stdio_call(stdio_runs: dict[str, CliRun], era: str, tool: str) -> None:
    check(stdio_runs[f"{era}-{tool}"], tool, "modern" if era == "auto" else "legacy")
