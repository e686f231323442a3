"""Helpers for the CLI tests: run ``inspector`` in-process (typer's CliRunner) or as a real subprocess."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner, Result

from inspector.cli import app

TESTS = Path(__file__).parents[1]
BAD_SERVER = TESTS / "fixtures" / "bad_server.py"
DEMO_ANSWERS = TESTS.parent / "inspector" / "demo" / "answers.json"
ENTRY = "from inspector.cli import main; main()"
DEMO_TOOLS = (
    "get_weather",
    "update_work_item",
    "ask_capital",
    "rolling_login",
    "heavy_report",
    "show_roots",
    "book_meeting",
    "open_dashboard",
    "slow_count",
    "add",
)
"""The demo tools the issue names, one per flow of SEP-2322."""


def bad_server_spec(mode: str) -> str:
    """``--server`` value that runs the bad fixture server in ``mode``."""
    return shlex.join([sys.executable, str(BAD_SERVER), mode])


def invoke(*args: str) -> Result:
    """``inspector ARGS`` in this process; stdout and stderr are kept apart."""
    return CliRunner().invoke(app, list(args))


def run_cli(*args: str, flags: tuple[str, ...] = (), timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """``inspector ARGS`` as a real process (``flags`` go to the interpreter, e.g. ``-X importtime``)."""
    return subprocess.run(
        [sys.executable, *flags, "-c", ENTRY, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
