"""``replay --against`` on what a session may hold besides plain calls: a subscription is re-run for its recorded
length and then ended (it used to wait 60 s for a reply a listen never gets and exit 3), a call the user cancelled is
"not comparable", never a difference, and the calls to be sent are listed before anything is sent. Real processes:
the recordings are made by ``inspector listen`` and by ``inspector call`` interrupted with Ctrl-C."""

from __future__ import annotations

import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from replay_support import DEMO

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

ENTRY = [sys.executable, "-c", "from inspector.cli import main; main()"]
BOUND_S = 60.0
ENV = {**os.environ, "COLUMNS": "200"}


def inspector(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*ENTRY, *args], capture_output=True, text=True, env=ENV, timeout=BOUND_S, check=False)


def test_a_recorded_subscription_is_re_run_for_its_length_then_ended(tmp_path: Path) -> None:
    recording = tmp_path / "listen.jsonl"
    assert inspector("listen", "--demo", "--duration", "1", "--record", str(recording)).returncode == 0
    rerun = inspector("replay", str(recording), "--against", shlex.join(DEMO), "--no-record", "--json")
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    doc = json.loads(rerun.stdout)
    [listened] = doc["calls"]
    assert listened["method"] == "subscriptions/listen" and listened["match"] is True
    assert listened["liveStatus"] == "complete", "ended by the client after the recorded second, not lost"


def test_a_cancelled_call_is_not_comparable_and_the_calls_are_listed_before_sending(tmp_path: Path) -> None:
    recording = tmp_path / "cancelled.jsonl"
    call = subprocess.Popen(
        [*ENTRY, "call", "slow_count", "--args", '{"n": 40}', "--demo", "--record", str(recording)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=ENV,
    )  # fmt: skip
    try:
        assert call.stderr is not None
        deadline, seen = time.monotonic() + BOUND_S, ""
        with selectors.DefaultSelector() as selector:  # (until the call is running: its first progress line)
            selector.register(call.stderr, selectors.EVENT_READ)
            while "progress" not in seen and (left := deadline - time.monotonic()) > 0 and selector.select(left):
                seen += call.stderr.readline() or "\n(closed)"
        call.send_signal(signal.SIGINT)
        call.communicate(timeout=BOUND_S)
    finally:
        if call.poll() is None:
            call.kill()
            call.wait()
    assert call.returncode == 130
    rerun = inspector("replay", str(recording), "--against", shlex.join(DEMO), "--no-record")
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert "#3 tools/call slow_count  not comparable: cancelled when recorded" in rerun.stdout
    assert "differ" not in rerun.stdout
    assert "re-running 0 recorded call(s) against" in rerun.stderr, "what will be sent is said first"
    doc = json.loads(inspector("replay", str(recording), "--against", shlex.join(DEMO), "--json").stdout)
    assert doc["notComparable"] == [
        {"call": 3, "method": "tools/call", "why": "not comparable: cancelled when recorded"}
    ]
    assert doc["exitCode"] == 0


def test_the_calls_a_re_run_will_send_are_listed_first(tmp_path: Path) -> None:
    recording = tmp_path / "add.jsonl"
    assert inspector("call", "add", "--args", '{"a": 1, "b": 2}', "--demo", "--record", str(recording)).returncode == 0
    rerun = inspector("replay", str(recording), "--against", shlex.join(DEMO), "--no-record")
    assert rerun.returncode == 0
    lines = rerun.stderr.splitlines()
    assert lines[0].startswith("re-running 1 recorded call(s) against ") and lines[1].strip() == "#3 tools/call add"
