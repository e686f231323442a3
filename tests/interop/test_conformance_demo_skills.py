"""The official conformance suite's SERVER scenarios for the Skills extension (SEP-2640) against the demo over
Streamable HTTP, at both wires: ``sep-2640-skills-enumeration`` (the capability, ``skills/list`` and ``skills/get``,
every entry's uri, frontmatter and files, the SKILL.md read back against its entry) and ``sep-2640-skills-manifest``
(the SKILL.md resource's type, name and description). Every check must succeed, none warn; the only ones skipped are
the caching hints at 2025-11-25, which that revision does not define."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from test_conformance import NODE, SUITE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "demo"))
from demo_support import demo_http_server  # (the demo over HTTP on a free port, stopped at the end)

pytestmark = [
    pytest.mark.external,  # (these tests start processes: not in --fast-lane)
    pytest.mark.skipif(not (NODE.is_file() and SUITE.is_file()), reason="the suite is not installed (.ci/run does)"),
]

SCENARIOS = ("sep-2640-skills-enumeration", "sep-2640-skills-manifest")
NOT_IN_2025 = {"sep-2640-skills-list-cache-attributes", "sep-2640-skills-get-cache-attributes"}


@pytest.mark.timeout(300)
@pytest.mark.parametrize("version", ["2026-07-28", "2025-11-25"])
def test_the_demo_passes_the_suites_skills_server_scenarios(tmp_path: Path, version: str) -> None:
    with demo_http_server() as url:
        for scenario in SCENARIOS:
            out = tmp_path / scenario
            asked = ["server", "--url", url, "--scenario", scenario, "--spec-version", version, "--force"]
            done = subprocess.run(
                [str(NODE), str(SUITE), *asked, "-o", str(out)],
                capture_output=True,
                text=True,
                timeout=240,
                check=False,
            )
            [checks] = out.glob(f"server-{scenario}-*/checks.json")
            seen = Counter((c["id"], c["status"]) for c in json.loads(checks.read_text()) if c["status"] != "INFO")
            bad = {check: status for check, status in seen if status != "SUCCESS"}
            skipped = version == "2025-11-25" and scenario == "sep-2640-skills-enumeration"
            assert bad == ({check: "SKIPPED" for check in NOT_IN_2025} if skipped else {}), done.stdout[-3000:]
            assert done.returncode == 0, done.stdout[-3000:]
            assert sum(seen.values()) >= 6, "the scenario ran its checks"
