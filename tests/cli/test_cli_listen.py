"""``inspector listen`` as a real process against the official SDK's subscription server over Streamable HTTP:
another client's tool calls make the events, the listen prints each as it comes and ends after ``--count``
(exit 0, the client's end), and a server that goes away is a lost subscription (exit 3, listen again)."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from http_interop_support import (
    CLI_TIMEOUT,
    PEER_BANNER,
    STARTUP_TIMEOUT,
    cli_argv,
    cli_env,
    run_cli,
    stop,
    wait_for_line,
)

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

SERVER = Path(__file__).resolve().parents[1] / "fixtures" / "listen_server.py"


@contextlib.contextmanager
def listen_server() -> Iterator[tuple[str, subprocess.Popen[str]]]:
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "--http"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        banner = wait_for_line(process.stderr, PEER_BANNER, time.monotonic() + STARTUP_TIMEOUT, process)
        yield banner.split(PEER_BANNER, 1)[1], process
    finally:
        stop(process)


class Listening:
    """A running ``inspector listen``: its stderr lines (read by a thread as they come) and, once it ends, its
    ``--json`` document."""

    def __init__(self, process: subprocess.Popen[str], first: str) -> None:
        self.process = process
        self.lines = [first]
        self._out: list[str] = []
        self._readers = [
            threading.Thread(target=lambda: self.lines.extend(process.stderr or []), daemon=True),
            threading.Thread(target=lambda: self._out.extend(process.stdout or []), daemon=True),
        ]
        for reader in self._readers:
            reader.start()

    def document(self) -> dict[str, Any]:
        """Wait (bounded) for the listen to end; its document."""
        self.process.wait(timeout=CLI_TIMEOUT)
        for reader in self._readers:
            reader.join(timeout=CLI_TIMEOUT)
        value = json.loads("".join(self._out))
        assert isinstance(value, dict)
        return value


@contextlib.contextmanager
def listening(url: str, data: Path, *args: str) -> Iterator[Listening]:
    """``inspector listen --server URL ARGS --json`` running, once it said it listens (its acknowledgement
    came)."""
    process = subprocess.Popen(
        cli_argv("listen", "--server", url, *args, "--json", "--no-record"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(data),
    )
    try:
        yield Listening(process, wait_for_line(process.stderr, "listening:", time.monotonic() + CLI_TIMEOUT, process))
    finally:
        stop(process)


def test_listen_prints_each_event_and_ends_after_count(tmp_path: Path) -> None:
    with (
        listen_server() as (url, _),
        listening(url, tmp_path, "--uri", "demo://watched", "--tools", "--count", "2") as run,
    ):
        env = cli_env(tmp_path)
        touched = run_cli("call", "touch", "--args", '{"uri": "demo://watched"}', "--server", url, env=env)
        changed = run_cli("call", "change_tools", "--server", url, env=env)
        doc = run.document()
    assert touched.code == 0 and changed.code == 0
    assert doc["status"] == "complete" and doc["exitCode"] == 0 and run.process.returncode == 0
    listen = doc["listen"]
    assert listen["honoured"] == {"toolsListChanged": True, "resourceSubscriptions": ["demo://watched"]}
    assert [(e["method"], (e["params"] or {}).get("uri")) for e in listen["events"]] == [
        ("notifications/resources/updated", "demo://watched"),
        ("notifications/tools/list_changed", None),
    ]
    assert listen["end"] == "client-ended"
    assert run.lines[0].endswith("listening: toolsListChanged, resourceSubscriptions")
    said = "".join(run.lines)
    assert "#2 resource updated demo://watched" in said and "#2 tools list changed" in said


def test_a_server_that_goes_away_is_a_lost_subscription(tmp_path: Path) -> None:
    with listen_server() as (url, server), listening(url, tmp_path, "--tools") as run:
        server.kill()  # gone at once, as a crash: uvicorn's own shutdown would wait for the stream
        doc = run.document()
    assert run.process.returncode == 3 and doc["status"] == "failed"
    assert doc["listen"]["end"] == "lost"
    assert "subscription-lost" in [f["code"] for f in doc["findings"]]
    assert "listen again" in (doc["hint"] or "")


def test_a_server_that_declared_no_subscriptions_is_not_sent_a_listen(tmp_path: Path) -> None:
    """bad_server declares ``tools`` without ``listChanged``: nothing to listen for, so nothing is sent (exit 7,
    saying what it declared); ``--force`` asks anyway, for a server author who wants to see the answer."""
    transcript = tmp_path / "transcript.jsonl"
    server = f"{sys.executable} {Path(__file__).resolve().parents[1] / 'fixtures' / 'bad_server.py'} ok"
    env = {**cli_env(tmp_path), "BAD_SERVER_TRANSCRIPT": str(transcript)}
    refused = run_cli("listen", "--server", server, "--duration", "1", env=env)
    assert refused.code == 7, refused.stderr
    said = " ".join(refused.stderr.split())
    assert "did not declare 'tools.listChanged, prompts.listChanged, resources.listChanged'" in said
    assert "(it declared: tools)" in said and "--force" in said
    sent = [json.loads(json.loads(line)["raw"]).get("method") for line in transcript.read_text().splitlines()]
    assert "subscriptions/listen" not in sent
    forced = run_cli("listen", "--server", server, "--duration", "1", "--force", "--json", env=env)
    forced_doc = forced.document()
    assert forced.code == 4 and "subscriptions/listen" in forced_doc["detail"], "asked anyway: the server's error"
