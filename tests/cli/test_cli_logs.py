"""The server's logs are in the printed timeline, under the round they arrived in (``--json`` had them already),
and redacted like everything else printed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from cli_support import BAD_SERVER, ENTRY

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

SECRET = "tok-7f3a9c2e51"


def test_a_log_sent_during_a_call_is_printed_under_its_round_and_redacted() -> None:
    server = f"{sys.executable} {BAD_SERVER} ok"
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, "call", "leak", "--server", server, "--no-record", "--log-level", "debug",
         "--env", f"BAD_SERVER_TOKEN={SECRET}", "--secret", "BAD_SERVER_TOKEN"],
        capture_output=True, text=True, timeout=60, check=False, env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    heading = next(i for i, line in enumerate(lines) if line.startswith("#") and "tools/call leak" in line)
    below = lines[heading + 1 :]
    logs = [line for line in below if line.lstrip(" │").startswith("log info: ")]
    assert len(logs) == 1, done.stdout
    assert below.index(logs[0]) == 1, "right under the round it arrived in"
    assert "[redacted]" in logs[0] and SECRET not in done.stdout + done.stderr
