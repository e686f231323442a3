"""The headless login as a person (and CI) runs it: ``inspector demo-server --http --auth`` as a real process, then
real ``inspector`` processes: ``auth login`` with a browser (``$BROWSER`` is a stand-in that consents and comes
back to the loopback callback), ``call`` reusing the stored login with ``--no-login``, ``--no-login`` refusing a
step-up with exit 3 and what to run, ``auth status``, ``auth logout``; and with neither a browser nor a terminal,
a login that would be needed fails at once. No secret the login stored is in any output or recording.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from http_interop_support import STARTUP_TIMEOUT, cli_env, run_cli, stop, wait_for_line

from inspector.cli.demo_flows import example_answers_path
from inspector.demo.flaw_names import STATE_KEY_ENV, TASK_DIR_ENV

pytestmark = [pytest.mark.external, pytest.mark.timeout(180)]  # (external: these tests start processes)

BROWSER = f"{sys.executable} {Path(__file__).resolve().parents[1] / 'fixtures' / 'oauth_browser.py'} %s"
NO_BROWSER = {"BROWSER": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""}


@contextlib.contextmanager
def auth_demo(env: dict[str, str] | None = None) -> Iterator[tuple[str, str]]:
    """The demo behind OAuth as a process (with ``env`` added to this one's); yields (MCP URL, issuer)."""
    process = subprocess.Popen(
        [sys.executable, "-c", "from inspector.cli import main; main()", "demo-server", "--http", "--auth"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        banner = wait_for_line(process.stderr, "(OAuth) on ", deadline, process).split("(OAuth) on ", 1)[1]
        url, issuer = banner.split(" ; authorization server ")
        yield url, issuer
    finally:
        stop(process)


def secrets_stored(config: Path) -> list[str]:
    values = json.loads((config / "auth" / "secrets.json").read_text())
    found: list[str] = []
    for entry in values.values():
        tokens = entry.get("tokens") or {}
        found += [tokens[k] for k in ("access_token", "refresh_token") if tokens.get(k)]
        found += [entry["client"]["client_secret"]] if (entry.get("client") or {}).get("client_secret") else []
    return found


def test_login_reuse_refusal_status_logout(tmp_path: Path) -> None:
    config = tmp_path / "config"
    env = cli_env(tmp_path / "data", INSPECTOR_CONFIG_DIR=str(config), INSPECTOR_TOKEN_STORE="file", **NO_BROWSER)
    with auth_demo() as (url, issuer):
        login = run_cli("auth", "login", url, env={**env, "BROWSER": BROWSER})
        assert login.code == 0, login.stderr
        assert f"logged in to {url}: issuer {issuer}" in login.stdout and "(dynamic)" in login.stdout
        said = login.said
        for step in ("challenge:", "protected resource metadata:", "authorization server metadata:", "client:",
                     "scope:", "authorization:", "redirect:", "token:", "retry:"):  # fmt: skip
            assert step in said, step
        assert "login needed for" in said and "/authorize?" in said

        reuse = run_cli("call", "whoami", "--server", url, "--no-login", "--json", env=env)
        assert reuse.code == 0, reuse.stderr
        assert reuse.document()["status"] == "complete"

        step_up = run_cli("call", "add", "--args", '{"a": 1, "b": 2}', "--server", url, "--no-login", env=env)
        assert step_up.code == 3, step_up.stderr
        assert "error: tools/call ended failed: the server wants a login (scope demo:read demo:write)" in step_up.said
        assert f"--no-login was given (log in first: inspector auth login {url}" in step_up.said
        assert "Traceback" not in step_up.stderr

        status = run_cli("auth", "status", "--json", env=env)
        [entry] = status.document()["logins"]
        assert entry["server"] == url and entry["issuer"] == issuer and entry["refreshToken"] is True
        for columns in (80, 160):  # one block a login under 100 columns, a table above: both URLs whole either way
            shown = run_cli("auth", "status", env={**env, "COLUMNS": str(columns)})
            assert shown.code == 0 and url in shown.stdout and issuer in shown.stdout, shown.stdout
            assert all(len(line) <= columns for line in shown.stdout.splitlines()), shown.stdout

        stored = secrets_stored(config)
        assert stored
        recordings = "".join(p.read_text() for p in (tmp_path / "data").rglob("*.jsonl"))
        for run in (login, reuse, step_up, status):
            for secret in stored:
                assert secret not in run.stdout + run.stderr
        for secret in stored:
            assert secret not in recordings

        logout = run_cli("auth", "logout", url, env=env)
        assert logout.code == 0, logout.stderr
        assert "revoked" in logout.stdout and f"logged out of {url}" in logout.stdout
        assert run_cli("auth", "status", url, env=env).code == 1


def test_with_no_browser_and_no_terminal_a_login_fails_at_once(tmp_path: Path) -> None:
    env = cli_env(tmp_path / "data", INSPECTOR_CONFIG_DIR=str(tmp_path / "config"), **NO_BROWSER)
    with auth_demo() as (url, _):
        run = run_cli("list", "tools", "--server", url, env=env)
    assert run.code == 3, run.stderr
    assert "HTTP 401 Unauthorized" in run.said and "pass --bearer TOKEN" in run.said
    assert (
        f"or log in first: inspector auth login {url} (no login was started here: there is no browser here and "
        "no terminal to paste the redirect into)"
    ) in run.said


def test_the_lab_logs_in_to_each_instance_behind_oauth(tmp_path: Path) -> None:
    """Two instances of the demo behind OAuth, one sealing key and one task folder but each its own authorization
    server: ``inspector lab stateless`` logs in to each as it first asks (the stand-in browser consents) and routes
    the calls between them. B answers every call on its own login (group 1), but refuses the state A sealed: the
    SDK binds a sealed state to the login, and two authorization servers make two logins, which the row names. No
    secret of either login is in the output or the recording."""
    config = tmp_path / "config"
    env = cli_env(tmp_path / "data", INSPECTOR_CONFIG_DIR=str(config), INSPECTOR_TOKEN_STORE="file", BROWSER=BROWSER)
    deployment = {STATE_KEY_ENV: "s" * 40, TASK_DIR_ENV: str(tmp_path / "tasks")}
    with auth_demo(deployment) as (a, _), auth_demo(deployment) as (b, _):
        record = tmp_path / "lab.jsonl"
        run = run_cli(
            "lab", "stateless", "--server", a, "--server", b, "--call", "update_work_item", "--args",
            '{"workItemId": 7, "fields": {}}', "--answers", str(example_answers_path()), "--json", "--record",
            str(record), env=env,
        )  # fmt: skip
    assert run.code == 1, run.stdout + run.stderr
    assert run.said.count("login needed for") == 2 and f"login needed for {a}" in run.said
    doc = run.document()
    assert [row["verdict"] for row in doc["rows"] if row["group"] == "stateless 1"] == ["pass", "pass"]
    crossed = [row for row in doc["rows"] if row["group"] == "stateless 2"]
    assert [row["verdict"] for row in crossed] == ["fail", "fail"]
    assert all("bound to a login that differs between them" in row["why"] for row in crossed)
    assert all("trust one authorization server" in row["try"] for row in crossed)
    stored = secrets_stored(config)
    assert len(stored) >= 2
    recordings = "".join(p.read_text() for p in tmp_path.glob("lab*.jsonl"))
    for secret in stored:
        assert secret not in run.stdout + run.stderr and secret not in recordings
