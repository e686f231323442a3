"""A login whose authorization server misbehaves in ways a person must see before anything is opened or sent, run as
a person meets it: ``tests/fixtures/oauth_bad_server.py`` as a process (it logs every request it is sent), and real
``inspector auth login`` / ``inspector call`` processes whose output bytes are read (on pipes, and once on a
pseudo-terminal).

- A 70 KB token-endpoint error body is shown once, cut to a line with its size; the recording keeps it whole.
- An authorization URL disguised with a user name before '@', a token endpoint on another origin, and plain http to
  a host that is not this machine are each warned about; without ``--accept-login-risks`` nothing is opened (the
  stand-in browser is never started, the URL is not printed) and nothing is sent there; with it, the warning is
  printed once and the login goes on.
- The token request itself is held too: a stored login whose refresh would go to another origin asks before it
  leaves (in-process, against the same server).
- A ``javascript:`` authorization endpoint is never opened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import pty
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from http_interop_support import STARTUP_TIMEOUT, CliRun, cli_argv, cli_env, run_cli, stop, wait_for_line
from oauth_bad_server import DISGUISE, HUGE_ERROR, REFRESH, BadOAuth
from oauth_support import FollowLogin, auth_config, connect_fails, file_store, session_for

from inspector.protocol.login_urls import ACCEPT_FLAG, LoginCheck
from inspector.protocol.oauth import AuthorizationPrompt, Landing, LoginHelpers
from inspector.protocol.oauth_record import LoginRecord

pytestmark = [pytest.mark.external, pytest.mark.timeout(180)]  # (external: these tests start processes)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BROWSER = f"{sys.executable} {FIXTURES / 'oauth_browser.py'} %s"
PTY_TIMEOUT = 60.0


@dataclass
class BadServer:
    """``oauth_bad_server.py MODE`` as a process: its URLs, and the requests it said it was sent."""

    process: subprocess.Popen[str]
    mcp_url: str
    issuer: str
    said: list[str] = field(default_factory=list)

    def requests(self) -> list[str]:
        """Every ``request NAME METHOD PATH`` line so far (read until the process is stopped)."""
        return [line.strip() for line in self.said if line.startswith("request ")]


@contextlib.contextmanager
def bad_server(mode: str) -> Iterator[BadServer]:
    process = subprocess.Popen(
        [sys.executable, str(FIXTURES / "oauth_bad_server.py"), mode],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    banner = wait_for_line(process.stderr, " on ", time.monotonic() + STARTUP_TIMEOUT, process)
    url, issuer = banner.split(" on ", 1)[1].split(" ; authorization server ")
    server = BadServer(process, url, issuer)
    try:
        yield server
    finally:
        process.terminate()
        assert process.stderr is not None
        with contextlib.suppress(subprocess.TimeoutExpired):
            _, rest = process.communicate(timeout=10)
            server.said += rest.splitlines()
        stop(process)


def marker_browser(marker: Path) -> str:
    """A ``$BROWSER`` that only notes it was started (and on what): proof that nothing was opened when it is not."""
    return f"{sys.executable} -c \"import sys; open({str(marker)!r}, 'a').write(sys.argv[1])\" %s"


def env_for(tmp_path: Path, browser: str) -> dict[str, str]:
    return cli_env(
        tmp_path / "data",
        INSPECTOR_CONFIG_DIR=str(tmp_path / "config"),
        INSPECTOR_TOKEN_STORE="file",
        BROWSER=browser,
    )


def output(run: CliRun) -> str:
    """Everything the process printed, whitespace collapsed (a long line is wrapped by the console)."""
    return " ".join((run.stdout + run.stderr).split())


# ---------------------------------------------------------------------------------------------------- error bodies
@pytest.mark.parametrize("command", [["auth", "login"], ["call", "whoami", "--server"]], ids=["auth login", "call"])
def test_a_huge_token_error_body_is_shown_once_cut_with_its_size(command: list[str], tmp_path: Path) -> None:
    record = tmp_path / "login.jsonl"
    with bad_server("token-error-huge") as bad:
        run = run_cli(*command, bad.mcp_url, "--record", str(record), env=env_for(tmp_path, BROWSER))
    said = output(run)
    assert run.code == 3, said
    size = len(HUGE_ERROR.encode())
    assert said.count("frame 00000 of the trace") == 1, said  # the body's start: once, not three times
    assert "frame 00100 of the trace" not in said, "cut to a line"
    assert f"({size:,} bytes; the whole body is in the recording)" in said
    assert said.count(f"{size:,} bytes") <= 2, said  # (the exchange's line says the size too, not the body)
    assert len((run.stdout + run.stderr).splitlines()) < 30, said
    token = [
        line["http"]
        for line in map(json.loads, record.read_text().splitlines())
        if line.get("dir") == "auth" and line.get("step") == "token" and "http" in line
    ]
    assert [exchange["response_body"] for exchange in token] == [HUGE_ERROR], "the recording keeps it whole"


# ---------------------------------------------------------------------------------------------------- warnings
RISKS = {
    "userinfo-authorize": f"has a user name before '@' ('{DISGUISE}')",
    "token-elsewhere": "the token endpoint http://127.0.0.1:",
    "http-remote": "http://example.test/authorize is plain http to example.test, which is not this machine",
}


@pytest.mark.parametrize("mode", list(RISKS))
def test_without_the_flag_nothing_is_opened_and_the_warning_says_why(mode: str, tmp_path: Path) -> None:
    marker = tmp_path / "browser-was-started"
    record = tmp_path / "login.jsonl"
    with bad_server(mode) as bad:
        run = run_cli(
            "auth", "login", bad.mcp_url, "--record", str(record), env=env_for(tmp_path, marker_browser(marker))
        )
    said = output(run)
    assert run.code == 3, said
    assert said.count(RISKS[mode]) == 1, said
    assert "the login's addresses were not accepted, so nothing was opened" in run.said
    assert f"try: look at these addresses; if you trust them, run again with {ACCEPT_FLAG}" in run.said
    assert not marker.exists(), "the browser was never started"
    assert "/authorize?" not in said, "the URL to open was never printed"
    requests = bad.requests()
    assert not [r for r in requests if r.endswith(("/authorize", "/token"))], requests
    exchanged = [
        line["http"]["url"]
        for line in map(json.loads, record.read_text().splitlines())
        if line.get("dir") == "auth" and "http" in line
    ]
    assert exchanged and not [url for url in exchanged if "example.test" in url or "/token" in url], exchanged
    steps = [line for line in map(json.loads, record.read_text().splitlines()) if line.get("dir") == "auth"]
    assert steps[-1]["step"] == "addresses" and steps[-1]["outcome"] == "refused"
    assert RISKS[mode] in steps[-1]["what"], "the recording says which warning stopped it"


@pytest.mark.parametrize("mode", ["userinfo-authorize", "token-elsewhere"])
def test_with_the_flag_the_warning_is_printed_once_and_the_login_goes_on(mode: str, tmp_path: Path) -> None:
    with bad_server(mode) as bad:
        run = run_cli("auth", "login", bad.mcp_url, ACCEPT_FLAG, env=env_for(tmp_path, BROWSER))
    said = output(run)
    assert said.count(RISKS[mode]) == 1, said
    assert f"warning: the {'authorization' if mode == 'userinfo-authorize' else 'token'} endpoint" in said
    assert f"addresses: going on despite 1 warning about the login's addresses: {ACCEPT_FLAG} was given" in said
    requests = bad.requests()
    assert "request as GET /authorize" in requests, "the browser opened the authorization URL"
    token_at = "elsewhere" if mode == "token-elsewhere" else "as"
    assert f"request {token_at} POST /token" in requests, requests
    # (this server's resource refuses every token: the login ends at its retry, after everything above)
    assert run.code == 3 and "the server still refuses the request after the login" in run.said


def test_on_a_terminal_the_warning_is_shown_and_nothing_is_opened(tmp_path: Path) -> None:
    """The same refusal on a pseudo-terminal (styles on, as a person sees it): the bytes say the warning and the
    flag, and the stand-in browser was never started."""
    marker = tmp_path / "browser-was-started"
    with bad_server("userinfo-authorize") as bad:
        written, code = on_a_terminal(
            ["auth", "login", bad.mcp_url], {**env_for(tmp_path, marker_browser(marker)), "TERM": "xterm-256color"}
        )
    shown = written.decode("utf-8", "replace")
    plain = " ".join(shown.replace("\x1b[0m", "").split())
    assert code == 3, shown
    assert RISKS["userinfo-authorize"] in plain and ACCEPT_FLAG in plain, shown
    assert not marker.exists()


def on_a_terminal(args: list[str], env: dict[str, str]) -> tuple[bytes, int]:
    """What ``inspector ARGS`` writes to a pseudo-terminal, read until it closes (bounded), and its exit code."""
    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        cli_argv(*args), stdin=subprocess.DEVNULL, stdout=terminal, stderr=terminal, env=env, close_fds=True
    )
    os.close(terminal)
    written = b""
    deadline = time.monotonic() + PTY_TIMEOUT
    try:
        while (left := deadline - time.monotonic()) > 0:
            if not select.select([controller], [], [], left)[0]:
                break
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the process closed the terminal
                break
            if not chunk:
                break
            written += chunk
        code = process.wait(timeout=max(deadline - time.monotonic(), 1.0))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(controller)
    return written, code


# ---------------------------------------------------------------------------------------------------- the token request
@dataclass
class AskedConsent:
    """A ``RiskConsent`` that answers ``accepted`` and keeps what it was asked."""

    accepted: bool
    asked: list[LoginCheck] = field(default_factory=list)
    waits_for_a_person: bool = False
    how_to_accept: str = "accept them"

    async def accept(self, check: LoginCheck) -> str | None:
        self.asked.append(check)
        return "the test accepted" if self.accepted else None


@pytest.mark.parametrize("accepted", [False, True], ids=["refused", "accepted"])
async def test_a_refresh_to_another_origin_waits_for_its_warning(accepted: bool, tmp_path: Path) -> None:
    """A stored login (as a later process finds it) whose token expired, whose metadata names a token endpoint on
    another origin: the refresh token does not leave before the warning is answered; refused, nothing reaches that
    origin; accepted, the refresh goes there."""
    bad = BadOAuth("token-elsewhere")
    serving = asyncio.create_task(bad.serve())
    store = file_store(tmp_path)
    authorization_endpoint, token_endpoint = bad.endpoints()
    store.save(
        LoginRecord(
            server=bad.mcp_url,
            issuer=bad.issuer,
            registration="dynamic",
            client={"client_id": "bad-client", "redirect_uris": ["http://127.0.0.1:1/callback"],
                    "token_endpoint_auth_method": "none"},
            tokens={"access_token": "expired", "token_type": "Bearer", "refresh_token": REFRESH},
            expires_at=time.time() - 60,
            as_metadata={"issuer": bad.issuer, "authorization_endpoint": authorization_endpoint,
                         "token_endpoint": token_endpoint, "response_types_supported": ["code"]},
            prm={"resource": bad.mcp_url, "authorization_servers": [bad.issuer]},
            auth_server_url=bad.issuer,
        )
    )  # fmt: skip
    consent = AskedConsent(accepted)
    session = session_for(bad.mcp_url, auth_config(store, FollowLogin(), consent=consent, exchange_timeout=5.0))
    failed = await connect_fails(session, bad, serving)
    first = consent.asked[0]
    assert first.step == "token" and first.url == token_endpoint, "asked before the refresh left"
    assert [risk.kind for risk in first.risks] == ["other-origin"]
    elsewhere = [request for request in bad.requests if request[0] == "elsewhere"]
    if accepted:
        assert elsewhere[0] == ("elsewhere", "POST", "/token")
    else:
        assert elsewhere == [], "the refresh token never reached the other origin"
        assert "no token request was sent" in failed.message and "accept them" in failed.hint
        assert len(consent.asked) == 1


class NeverOpened:
    """A login face that fails the test if it is ever asked to open anything."""

    async def authorize(self, prompt: AuthorizationPrompt, helpers: LoginHelpers) -> Landing:
        raise AssertionError(f"asked to open {prompt.url}")


async def test_a_javascript_authorization_endpoint_is_never_opened(tmp_path: Path) -> None:
    """Metadata naming ``javascript:...`` as its authorization endpoint: the SDK's metadata model refuses it (so
    the flow falls back, and ends failing to register), the gate would refuse it whoever accepts
    (``tests/transport/test_oauth_gate.py``); nothing is opened, nothing is asked."""
    bad = BadOAuth("javascript-authorize")
    serving = asyncio.create_task(bad.serve())
    consent = AskedConsent(True)
    session = session_for(bad.mcp_url, auth_config(file_store(tmp_path), NeverOpened(), consent=consent))
    await connect_fails(session, bad, serving)
    assert consent.asked == [] and not [r for r in bad.requests if r[2] in ("/authorize", "/token")]
