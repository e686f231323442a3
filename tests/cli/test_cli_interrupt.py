"""Ctrl-C on a headless command cancels what it started on the server and says what the server did: a tool that
runs as a task gets ``tasks/cancel`` (2026 Tasks and the 2025-11-25 form alike), the timeline so far is printed with
the whole task id, and the command exits 130. A real ``inspector call`` process against the demo over stdio, sent
SIGINT as a terminal would (the server, in a session of its own, does not get it)."""

from __future__ import annotations

import contextlib
import os
import re
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest
from cli_support import ENTRY

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

BOUND_S = 60.0


def started_task(process: subprocess.Popen[str]) -> str:
    """Read stderr until the progress line of the call's task shows (bounded); what was read."""
    assert process.stderr is not None
    read = ""
    deadline = time.monotonic() + BOUND_S
    with selectors.DefaultSelector() as selector:
        selector.register(process.stderr, selectors.EVENT_READ)
        while " task " not in read and (left := deadline - time.monotonic()) > 0 and selector.select(left):
            line = process.stderr.readline()
            if not line:
                break
            read += line
    return read


@pytest.mark.parametrize("era", ["auto", "legacy"])
def test_ctrl_c_on_a_task_cancels_it_on_the_server_prints_the_timeline_and_exits_130(era: str) -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", ENTRY, "call", "nightly_build", "--demo", "--era", era, "--no-record"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "INSPECTOR_DEMO_TASK_SCALE": "5", "COLUMNS": "200"},  # (a task that runs ~15 s)
    )
    try:
        before = started_task(process)
        assert " task " in before, before
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=BOUND_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, out + err
    assert "interrupted: cancelling #" in err and "Ctrl-C again" in err
    task_ids = re.findall(r"task ([0-9a-f-]{36})", out)
    assert task_ids, f"the whole task id is printed: {out}"
    assert task_ids[0] in before, "the progress line names the whole task id too"
    assert re.search(r"tasks/cancel → complete", out), out
    assert "Traceback" not in out + err


def test_task_cancel_exits_0_when_the_server_confirms() -> None:
    """A task left running on a shared demo (its caller killed outright, as a crash would), cancelled by its id from
    another process: the server confirms, so ``task cancel`` exits 0 and says no error."""
    env = {**os.environ, "INSPECTOR_DEMO_TASK_SCALE": "5", "COLUMNS": "200"}
    with demo_http(env) as url:
        caller = subprocess.Popen(
            [sys.executable, "-c", ENTRY, "call", "nightly_build", "--server", url, "--no-record"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        try:
            found = re.search(r"task ([0-9a-f-]{36})", started_task(caller))
        finally:
            caller.kill()
            caller.wait()
        assert found is not None
        cancel = [sys.executable, "-c", ENTRY, "task", "cancel", found.group(1), "--server", url, "--no-record"]
        done = subprocess.run(cancel, capture_output=True, text=True, env=env, timeout=BOUND_S, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "working → cancelled" in done.stdout and "tasks/cancel → complete" in done.stdout
    assert "error:" not in done.stderr


@contextlib.contextmanager
def demo_http(env: dict[str, str]) -> Iterator[str]:
    """The demo over Streamable HTTP on 127.0.0.1 (its tasks outlive the sessions that made them)."""
    server = subprocess.Popen(
        [sys.executable, "-m", "inspector.demo", "--http", "--port", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    try:
        assert server.stderr is not None
        url = None
        deadline = time.monotonic() + BOUND_S
        with selectors.DefaultSelector() as selector:
            selector.register(server.stderr, selectors.EVENT_READ)
            while url is None and (left := deadline - time.monotonic()) > 0 and selector.select(left):
                line = server.stderr.readline()
                if not line:
                    break
                if " on http://" in line:
                    url = line.strip().rsplit(" ", 1)[-1]
        assert url is not None, "the demo did not say its URL"
        threading.Thread(target=server.stderr.read, daemon=True).start()  # (read on: a full pipe would stall it)
        yield url
    finally:
        server.kill()
        server.wait()
