"""DPoP (SEP-1932) and the workload's jwt-bearer grant (SEP-1933) against real servers: the official conformance
suite's ``auth/dpop``, ``auth/dpop-nonce`` and ``auth/wif-jwt-bearer`` scenarios, each at both spec versions the
suite lists them at (2026-07-28 and 2025-11-25; extension scenarios, so forced, and not scored).

Two clients: the conformance adapter (``inspector conformance-client``, as ``test_conformance.py`` runs it: DPoP by
its default, the workload's JWT from the scenario's context), and a real ``inspector call`` with the options a user
types (``--dpop``; ``--client-id`` and ``--jwt-bearer-assertion-file``: ``conformance_cli_client.py``), whose
printed steps and recording are read too: the login is told step by step, and no token, proof or assertion (all
JWTs but the workload's access token, ``test-token-…``) reaches anything it wrote.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from test_conformance import CLIENT, NODE, RUNNING_AT_ONCE, SCRIPT, SUITE

pytestmark = [
    pytest.mark.external,  # (these tests start processes: not in --fast-lane)
    pytest.mark.skipif(not SCRIPT.is_file(), reason="shared/peers/conformance.sh is not beside this checkout"),
    pytest.mark.skipif(not (NODE.is_file() and SUITE.is_file()), reason="the suite is not installed (.ci/run does)"),
]

VERSIONS = ("2026-07-28", "2025-11-25")
BOUND = ["sep-1932-client-token-request-proof", "sep-1932-client-dpop-auth-scheme", "sep-1932-client-fresh-proof"]
SCENARIOS = {
    "auth/dpop": BOUND,
    "auth/dpop-nonce": [*BOUND, "sep-1932-client-as-nonce", "sep-1932-client-rs-nonce"],
    "auth/wif-jwt-bearer": ["wif-assertion-verified", "valid-bearer-token"],
}
"""Each scenario, and the checks of it that must have run and passed (the suite passes a scenario whose every
check passed; these say the ones about the feature were among them)."""
CLI_CLIENT = shlex.join([sys.executable, str(Path(__file__).with_name("conformance_cli_client.py"))])
JWT = re.compile(r"eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}")
"""A JWT's header and claims, as base64url: an access token, a proof or an assertion, leaked."""


def run(client: str, item: str, out: Path) -> str:
    """One SCENARIO@VERSION@force through ``conformance.sh`` with ``client``; its verdict line."""
    env = {**os.environ, "CONFORMANCE_OUT": str(out), "CLI_CLIENT_OUT": str(out / "cli")}
    done = subprocess.run(
        ["bash", str(SCRIPT), client, item], capture_output=True, text=True, env=env, timeout=200, check=False
    )
    verdict = [line for line in done.stdout.splitlines() if line.startswith(("PASS ", "FAIL "))]
    return verdict[0] if verdict else f"FAIL {item}: {done.stderr[-500:]}"


def checks(out: Path, scenario: str) -> dict[str, str]:
    """Check id -> its worst status, from the suite's ``checks.json`` of the scenario's one run under ``out``."""
    [result] = out.glob(f"{scenario}-*/checks.json")
    worst: dict[str, str] = {}
    rank = {"INFO": 0, "SUCCESS": 1, "WARNING": 2, "FAILURE": 3}
    for check in json.loads(result.read_text()):
        status = str(check["status"])
        if rank.get(status, 3) >= rank.get(worst.get(check["id"], "INFO"), 0):
            worst[check["id"]] = status
    return worst


def run_all(client: str, items: list[tuple[str, str]], out: Path) -> None:
    """Every (scenario, version), ``RUNNING_AT_ONCE`` at a time, each in its own folder: all pass, with their checks."""
    folders = {item: out / f"{item[0].replace('/', '_')}@{item[1]}" for item in items}
    for folder in folders.values():
        (folder / "cli").mkdir(parents=True)
    with ThreadPoolExecutor(RUNNING_AT_ONCE) as pool:
        verdicts = list(pool.map(lambda item: run(client, f"{item[0]}@{item[1]}@force", folders[item]), items))
    print("\n".join(verdicts))
    assert [v for v in verdicts if not v.startswith("PASS ")] == []
    for (scenario, _), folder in folders.items():
        seen, wanted = checks(folder, scenario), SCENARIOS[scenario]
        assert {check: seen.get(check) for check in wanted} == dict.fromkeys(wanted, "SUCCESS")
        assert "wif-grant-type" not in seen and "wif-no-retry" not in seen and "wif-grant-fallback" not in seen


@pytest.mark.timeout(420)
def test_the_adapter_binds_tokens_and_presents_a_workloads_jwt_at_both_versions(tmp_path: Path) -> None:
    run_all(CLIENT, [(scenario, version) for scenario in SCENARIOS for version in VERSIONS], tmp_path)


@pytest.mark.timeout(300)
def test_the_login_options_bind_the_token_and_present_the_assertion_file_and_leak_nothing(tmp_path: Path) -> None:
    run_all(CLI_CLIENT, [("auth/dpop-nonce", "2026-07-28"), ("auth/wif-jwt-bearer", "2025-11-25")], tmp_path)
    dpop = tmp_path / "auth_dpop-nonce@2026-07-28" / "cli"
    printed = (dpop / "auth_dpop-nonce@2026-07-28.stdout").read_text()
    for step in (
        "challenge: HTTP 401, scheme DPoP",
        "DPoP: the token is to be bound to a new ES256 key",
        "token: POST ",  # the nonce asked for: told, and the request sent again
        "asks for a DPoP nonce (use_dpop_nonce): the request is sent again, once",
        "DPoP: the token is DPoP-bound (token_type DPoP)",
        "token: the token is kept for this process only, never stored",
        "DPoP: the server asks for a DPoP nonce (401, use_dpop_nonce)",
        "retry: the request was sent again with the new token: HTTP 200",
    ):
        assert step in printed, step
    workload = tmp_path / "auth_wif-jwt-bearer@2025-11-25" / "cli"
    assertion = (workload / "auth_wif-jwt-bearer@2025-11-25.jwt").read_text().strip()
    printed = (workload / "auth_wif-jwt-bearer@2025-11-25.stdout").read_text()
    assert "a workload's login: the jwt-bearer grant with the assertion from the file" in printed
    assert "a workload's token (SEP-1933)" in printed
    files = [path for where in (dpop, workload) for path in where.glob("*.*") if path.suffix != ".jwt"]
    written = {path: path.read_text() for path in files}
    assert written and all(JWT.search(text) is None for text in written.values()), "no token, proof or assertion"
    assert all(assertion not in text and "test-token-" not in text for text in written.values())
    recording = [json.loads(line) for line in (dpop / "auth_dpop-nonce@2026-07-28.jsonl").read_text().splitlines()]
    assert '"DPoP": "[redacted]"' in json.dumps(recording), "a proof is recorded as redacted"
