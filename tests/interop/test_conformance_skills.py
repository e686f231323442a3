"""The conformance adapter against the suite's skills scenarios (SEP-2640, extension: forced, at both versions) and
``http-standard-headers@2026-07-28``, each of which tested nothing, or little, until the adapter listed skills,
loaded one where the scenario's host does, and read resources and got prompts.

Each run must pass and its checks must have run: the one skill check of each ``sep-2640-client-*`` scenario a
SUCCESS (a skipped one means skills/list was never called), and ``http-standard-headers`` with every request-header
check run but the two of ``initialize`` (a 2026-07-28 client sends none).
"""

from __future__ import annotations

import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_conformance import CLIENT, NODE, RUNNING_AT_ONCE, SCRIPT, SUITE
from test_conformance_dpop_wif import run

pytestmark = [
    pytest.mark.external,  # (these tests start processes: not in --fast-lane)
    pytest.mark.skipif(not SCRIPT.is_file(), reason="shared/peers/conformance.sh is not beside this checkout"),
    pytest.mark.skipif(not (NODE.is_file() and SUITE.is_file()), reason="the suite is not installed (.ci/run does)"),
]

SKILL_CHECKS = {
    "sep-2640-client-no-prefetch": "sep-2640-host-no-prefetch",
    "sep-2640-client-verify-digest": "sep-2640-host-verify-digest",
    "sep-2640-client-verify-size": "sep-2640-host-size-mismatch-failure",
    "sep-2640-client-verify-frontmatter": "sep-2640-host-frontmatter-comparison",
}
"""Each skills scenario and the one check it makes."""
VERSIONS = ("2026-07-28", "2025-11-25")


def statuses(out: Path, scenario: str) -> Counter[tuple[str, str]]:
    """(check id, status) -> how many, from the suite's ``checks.json`` of the scenario's one run under ``out``."""
    [result] = out.glob(f"{scenario}-*/checks.json")
    return Counter((str(c["id"]), str(c["status"])) for c in json.loads(result.read_text()) if c["status"] != "INFO")


def run_each(items: list[str], out: Path) -> dict[str, Path]:
    """Every SCENARIO@VERSION[@force], ``RUNNING_AT_ONCE`` at a time, each in its own folder; all must pass."""
    folders = {item: out / item.replace("/", "_") for item in items}
    for folder in folders.values():
        (folder / "cli").mkdir(parents=True)
    with ThreadPoolExecutor(RUNNING_AT_ONCE) as pool:
        verdicts = list(pool.map(lambda item: run(CLIENT, item, folders[item]), items))
    print("\n".join(verdicts))
    assert [v for v in verdicts if not v.startswith("PASS ")] == []
    return folders


@pytest.mark.timeout(300)
def test_the_adapter_lists_skills_and_rejects_a_tampered_one_at_both_versions(tmp_path: Path) -> None:
    items = [f"{scenario}@{version}@force" for scenario in SKILL_CHECKS for version in VERSIONS]
    for item, folder in run_each(items, tmp_path).items():
        scenario = item.split("@")[0]
        assert statuses(folder, scenario) == Counter({(SKILL_CHECKS[scenario], "SUCCESS"): 1}), item
        if scenario != "sep-2640-client-no-prefetch":  # (the tampered SKILL.md: an error finding, printed)
            assert "skill-unverified" in (folder / f"{item.rsplit('@', 1)[0]}.log").read_text()


@pytest.mark.timeout(120)
def test_the_adapter_sends_the_standard_headers_on_resources_and_prompts_too(tmp_path: Path) -> None:
    item = "http-standard-headers@2026-07-28"
    seen = statuses(run_each([item], tmp_path)[item], "http-standard-headers")
    assert seen == Counter(
        {("sep-2243-client-includes-standard-headers", "SUCCESS"): 9,
         ("sep-2243-client-includes-standard-headers", "SKIPPED"): 2}
    )  # fmt: skip
