"""The conformance suite's client command for the login options a user types: the suite starts a scenario's servers
and runs ``python conformance_cli_client.py URL``, and this runs a real ``inspector call test-tool --server URL``
with the options the scenario is about (``--dpop``; ``--client-id`` and ``--jwt-bearer-assertion-file`` with the
workload's JWT from the scenario's context written to a file), its outputs and recording kept in ``$CLI_CLIENT_OUT``
for the test to read. Its exit code is the inspector's.

``python conformance_cli_client.py --browse URL`` is the person's browser (``$BROWSER``): the suite's authorization
endpoint redirects at once, so the browser only follows that redirect to the inspector's loopback callback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx

ENTRY = "from inspector.cli import main; main()"


def browse(url: str) -> None:
    """Follow the authorization endpoint's redirects to the callback (the last one answers 200)."""
    with httpx.Client(follow_redirects=True, timeout=30) as browser:
        browser.get(url)


def main(url: str) -> int:
    out = Path(os.environ["CLI_CLIENT_OUT"])
    scenario = os.environ["MCP_CONFORMANCE_SCENARIO"]
    version = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", "2026-07-28")
    context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    era = "modern" if version == "2026-07-28" else "legacy"
    name = f"{scenario.replace('/', '_')}@{version}"
    options = ["--dpop"] if scenario.startswith("auth/dpop") else []
    if scenario == "auth/wif-jwt-bearer":
        assertion = out / f"{name}.jwt"
        assertion.write_text(context["valid_jwt"] + "\n")  # (such files end with a newline: it is not the JWT's)
        options = ["--client-id", context["client_id"], "--jwt-bearer-assertion-file", str(assertion)]
    browser = f"{sys.executable} {Path(__file__).resolve()} --browse %s"
    done = subprocess.run(
        [sys.executable, "-c", ENTRY, "call", "test-tool", "--server", url, "--era", era, *options,
         "--record", str(out / f"{name}.jsonl")],
        capture_output=True, text=True, timeout=120, check=False, stdin=subprocess.DEVNULL,
        env={**os.environ, "BROWSER": browser, "COLUMNS": "400", "NO_COLOR": "1", "TERM": "dumb"},
    )  # fmt: skip
    (out / f"{name}.stdout").write_text(done.stdout)
    (out / f"{name}.stderr").write_text(done.stderr)
    return done.returncode


if __name__ == "__main__":
    if sys.argv[1] == "--browse":
        browse(sys.argv[2])
        sys.exit(0)
    sys.exit(main(sys.argv[-1]))
