"""The lab against servers nobody here wrote, two HTTP instances each on 127.0.0.1, and which verdicts are findings
about those servers:

- the official Python SDK (``mcp`` 2.3.0, ``tests/fixtures/lab_sdk_server.py``): its sealed state does not open on
  the other instance under the SDK's default key (made by each process for itself); with one key shared
  (``RequestStateSecurity(keys=...)``) the crossing passes; every tampered state is refused either way;
- the TypeScript SDK v2 (``@modelcontextprotocol/server`` 2.4.0, ``tests/fixtures/lab_ts_server.mjs``): its
  plaintext state crosses instances, and a flipped byte is believed (a security finding: the SDK verifies nothing
  unless a ``requestState.verify`` hook is configured);
- ``fastmcp-tasks`` 4.1.4 over HTTP keeps its tasks in the process that made them: B does not know A's task.

Skipped, saying how to install them, when the peers are absent.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from http_interop_support import NODE, PEERS_CACHE, CliRun, cli_env, missing_peer, node_http_peer, start_many

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FASTMCP_PYTHON = PEERS_CACHE / "fastmcp-tasks-venv" / "bin" / "python"
SHARED_KEY = "s" * 48


@contextlib.contextmanager
def pair(argv: list[str], env: dict[str, str] | None = None) -> Iterator[list[str]]:
    """Two instances of a server that announces its URL; ``--server A --server B``."""
    with node_http_peer(argv, env) as a, node_http_peer(argv, env) as b:
        yield ["--server", a, "--server", b]


def lab(
    folder: Path, name: str, servers: list[str], answers: dict[str, Any], *calls: str, check: str | None = None
) -> list[str]:
    """``inspector lab [CHECK]`` on ``servers`` answered from ``answers``, as JSON."""
    path = folder / f"{name}-answers.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    chosen = [check] if check else []
    return ["lab", *chosen, *servers, "--answers", str(path), "--json", "--no-record", "--timeout", "30", *calls]


def failed(run: CliRun, group: str) -> list[dict[str, Any]]:
    return [r for r in run.document()["rows"] if r["group"] == group and r["verdict"] == "fail"]


SDK_ANSWERS = {
    "__main__:ask_name": {"action": "accept", "content": {"name": "Ada"}},
    "__main__:ask_colour": {"action": "accept", "content": {"colour": "teal"}},
    "__main__:ask_confirm": {"action": "accept", "content": {"confirm": True}},
}
SDK_CALLS = ("--call", "sign_up", "--args", '{"plan": "pro"}', "--call", "sign_up", "--args", '{"plan": "team"}',
             "--call", "delete_file", "--args", '{"path": "notes.txt"}')  # fmt: skip


@pytest.fixture(scope="module")
def sdk_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CliRun]:
    folder = tmp_path_factory.mktemp("lab-sdk")
    server = [sys.executable, str(FIXTURES / "lab_sdk_server.py")]
    with pair(server) as own_keys, pair(server, {"LAB_SDK_KEY": SHARED_KEY}) as shared:
        commands = {
            "own": lab(folder, "own", own_keys, SDK_ANSWERS, *SDK_CALLS),
            "shared": lab(folder, "shared", shared, SDK_ANSWERS, *SDK_CALLS),
        }
        return start_many(commands, cli_env(folder / "data")).wait()


def test_python_sdk_state_does_not_open_on_the_other_instance_under_its_default_key(
    sdk_runs: dict[str, CliRun],
) -> None:
    run = sdk_runs["own"]
    assert run.code == 1, run.stderr
    crossing = failed(run, "stateless 2")
    assert len(crossing) == 6, run.stdout
    assert all("refused the requestState" in r["why"] and "key each instance makes" in r["why"] for r in crossing)
    assert all("RequestStateSecurity(keys=" in r["try"] for r in crossing)
    assert failed(run, "stateless 1") == [] and failed(run, "tamper") == [], "alone, each instance is sound"


def test_python_sdk_with_a_shared_key_crosses_and_refuses_every_tampered_state(sdk_runs: dict[str, CliRun]) -> None:
    run = sdk_runs["shared"]
    doc = run.document()
    assert run.code == 0, run.stdout
    tamper = [r for r in doc["rows"] if r["group"] == "tamper" and r["verdict"] != "skip"]
    refused = [r for r in tamper if r["verdict"] == "pass"]
    assert len(refused) >= 12 and all(r["experiment"] for r in tamper)
    assert {r["verdict"] for r in tamper if r["experiment"] == "replayed after its call completed"} <= {"pass", "warn"}


TS_ANSWERS = {
    "account": {"action": "accept", "content": {"account": "ACME-7"}},
    "confirm": {"action": "accept", "content": {"confirm": True}},
}
TS_CALLS = ("--call", "transfer", "--args", '{"amount": 5}', "--call", "add", "--args", '{"a": 2, "b": 3}')


@pytest.mark.skipif(missing_peer("@modelcontextprotocol/server") is not None, reason="TS SDK v2 is not installed")
def test_ts_sdk_plaintext_state_crosses_and_a_flipped_byte_changes_the_transfer(tmp_path: Path) -> None:
    server = [str(NODE), str(FIXTURES / "lab_ts_server.mjs"), str(PEERS_CACHE)]
    with pair(server) as servers:
        run = start_many({"ts": lab(tmp_path, "ts", servers, TS_ANSWERS, *TS_CALLS)}, cli_env(tmp_path)).wait()["ts"]
    assert run.code == 1, run.stderr
    assert failed(run, "stateless 1") == [] and failed(run, "stateless 2") == [], "a plaintext state crosses"
    security = [r for r in failed(run, "tamper") if r.get("security")]
    assert [r["experiment"] for r in security] == ["with one byte flipped"], run.stdout
    assert "'Sent 5 to ACME-7.' → 'Sent 5 to BCME-7.'" in security[0]["why"]


@pytest.mark.skipif(not FASTMCP_PYTHON.is_file(), reason=f"fastmcp-tasks is not installed in {FASTMCP_PYTHON}")
def test_fastmcp_tasks_over_http_keep_a_task_where_only_its_instance_finds_it(tmp_path: Path) -> None:
    server = [str(FASTMCP_PYTHON), str(FIXTURES / "fastmcp_tasks_server.py"), "--http", "--port", "0"]
    calls = ("--call", "crunch_required", "--args", '{"n": 1}')
    with pair(server) as servers:
        args = lab(tmp_path, "fastmcp", servers, {}, *calls, check="stateless")
        run = start_many({"fastmcp": args}, cli_env(tmp_path)).wait()["fastmcp"]
    assert run.code == 1, run.stderr
    tasks = failed(run, "stateless 3")
    assert len(tasks) == 1, run.stdout
    assert "B does not know the task A made" in tasks[0]["why"] and "-32602" in tasks[0]["why"]
    assert failed(run, "stateless 1") == [], "its plain calls are stateless"
