"""Helpers for the login screen's tests: the app on a real session that logs in over HTTP (the demo behind OAuth,
or a misbehaving authorization server, on 127.0.0.1 free ports), a browser stand-in the test releases, and, for the
snapshots (whose pictures must not hold random ports, client ids and PKCE values), one login's steps as fixed
records, replayed on a recording of the in-process demo or shown under a waiting ``ScreenLogin``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from oauth_browser import browse
from oauth_support import auth_config, file_store
from ui_support import FixedAnswers

from inspector.answers.source import AnswerSource
from inspector.cli.wiring import build_session
from inspector.protocol.oauth import AuthorizationPrompt, Landing
from inspector.session.session import InspectorSession
from inspector.targets.target import Target
from inspector.ui.app import InspectorApp
from inspector.ui.app_settings import AppSettings
from inspector.ui.login.tui_login import Opener, ScreenLogin

AS: Final = "http://127.0.0.1:45519"
MCP: Final = "http://127.0.0.1:38773/mcp"
PRM: Final = "http://127.0.0.1:38773/.well-known/oauth-protected-resource/mcp"
CALLBACK: Final = "http://127.0.0.1:41000/callback"
CLIENT: Final = "3f2b9c1e-0d4a-4c55-9a5e-6b7f1e2d3c4b"
AUTHORIZE: Final = (
    f"{AS}/authorize?response_type=code&client_id={CLIENT}&redirect_uri=http%3A%2F%2F127.0.0.1%3A41000%2Fcallback"
    "&state=Jk3vQ0bN8yW2sF5tLp7xRz1cH4dG6aE9mU0iO2kV8nB&code_challenge=Q9wXz2Lm4Nb6Vc8Tr0Ys1Ua3Oi5Pe7Kd9Jh2Gf4Sd6A"
    "&code_challenge_method=S256&resource=http%3A%2F%2F127.0.0.1%3A38773%2Fmcp&scope=demo%3Aread"
)
PROMPT: Final = AuthorizationPrompt(AUTHORIZE, CALLBACK, MCP, f"{AS}/", "demo:read")


def _http(method: str, url: str, status: int, ms: float) -> dict[str, Any]:
    return {"method": method, "url": url, "status": status, "elapsed_ms": ms}


def _step(step: str, outcome: str, what: str, why: str = "", hint: str = "", http: dict[str, Any] | None = None) -> Any:
    record: dict[str, Any] = {"dir": "auth", "step": step, "outcome": outcome, "what": what}
    if why:
        record["why"] = why
    if hint:
        record["hint"] = hint
    if http is not None:
        record["http"] = http
    return record


UNTIL_THE_PERSON: Final = [
    _step("challenge", "info", f"HTTP 401, error invalid_token, resource metadata at {PRM}, 'Authentication required'",
          "a 401 means no valid token: find out how to log in (RFC 9728 protected resource metadata first)"),
    _step("protected-resource-metadata", "ok", "found", http=_http("GET", PRM, 200, 15)),
    _step("protected-resource-metadata", "ok", f"resource {MCP} is this server; authorization server {AS}/; "
          "scopes_supported 'demo:read'", "RFC 9728: the resource named must be the server we talk to (else nothing "
          "is sent to its AS)"),
    _step("authorization-server-metadata", "ok", "found",
          http=_http("GET", f"{AS}/.well-known/oauth-authorization-server", 200, 10)),
    _step("authorization-server-metadata", "ok", f"issuer {AS}/; registration at {AS}/register; token endpoint auth "
          "client_secret_post/client_secret_basic; iss not advertised", "RFC 8414 §3.3: the metadata's issuer must "
          "be the server it was fetched for (else it is not used)"),
    _step("registration", "ok", "HTTP 201", http=_http("POST", f"{AS}/register", 201, 49)),
    _step("registration", "ok", f"client {CLIENT} (token endpoint auth: client_secret_post)"),
    _step("scope", "info", "scope 'demo:read'", "from the resource's scopes_supported (no scope in the challenge); no "
          "offline_access: the authorization server does not offer it"),
    _step("authorization", "waiting", f"waiting for the authorization to come back to {CALLBACK}",
          "the person logs in and consents in a browser; the redirect brings the code back"),
]  # fmt: skip
"""A first login's steps up to the person's part (as the demo's authorization server makes them)."""
TO_THE_END: Final = [
    _step("callback", "info", f"redirect received (browser): a code, iss, state; iss {AS}/ is the issuer asked",
          "RFC 9207: the iss on the redirect must be the issuer the request went to; the state must be ours"),
    _step("token", "failed", "the answer has no access_token", http=_http("POST", f"{AS}/token", 200, 30)),
    _step("token", "failed", "token failed: the token answer is not a usable token (no access_token, or malformed): "
          "Invalid token response", hint="log in again; if it repeats, see the answer"),
]  # fmt: skip
"""The rest of a login that fails at the token endpoint."""


def login_records(steps: list[dict[str, Any]], request_id: int, t: float) -> list[dict[str, Any]]:
    """``steps`` as the recording's ``auth`` lines for JSON-RPC request ``request_id``, from time ``t`` on."""
    return [{**step, "t": round(t + i * 0.01, 6), "for": request_id} for i, step in enumerate(steps)]


def with_login(path: Path, steps: list[dict[str, Any]]) -> None:
    """Put ``steps`` into a recording, right after its first request left (the login that request needed)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for index, line in enumerate(lines[1:], start=1):
        record = json.loads(line)
        message = record.get("msg") or (json.loads(record["raw"]) if "raw" in record else {})
        if record.get("dir") == "c2s" and "id" in message:
            auth = [json.dumps(r) for r in login_records(steps, message["id"], record["t"] + 0.0005)]
            lines[index + 1 : index + 1] = auth
            break
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


class WaitingHelpers:
    """``LoginHelpers`` of a login whose browser never comes back (the test decides how it ends)."""

    def __init__(self) -> None:
        self.never: asyncio.Future[Landing] = asyncio.get_running_loop().create_future()

    def wait_for_browser(self) -> asyncio.Future[Landing]:
        return self.never

    async def follow(self) -> Landing:
        raise AssertionError("the TUI never follows the redirect itself")


class BrowserStandIn:
    """A person's browser: opening returns at once (as a real one does), then it consents and comes back to the
    callback once the test releases it (``go``), from a thread of its own like a separate program."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.opened: list[str] = []
        self.landed: list[str] = []

    def __call__(self, url: str) -> bool:
        self.opened.append(url)

        def person() -> None:
            if self.go.wait(60):
                self.landed.append(browse(url, "allow"))

        threading.Thread(target=person, daemon=True).start()
        return True


def login_app(tmp_path: Path, url: str, opener: Opener | None, **options: Any) -> InspectorApp:
    """The app on ``url`` at the modern wire, logging in through a ``ScreenLogin`` (``opener``: the browser; None:
    no browser here), which also asks about a login's addresses, as the composition root wires it; logins kept in
    files under ``tmp_path``."""
    login = ScreenLogin(opener)
    store = file_store(tmp_path / "config")

    def factory(chosen: Target, answers: AnswerSource) -> InspectorSession:
        return build_session(chosen, answers, era="modern", auth=auth_config(store, login, consent=login, **options))

    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    settings = AppSettings(config_dir=tmp_path / "config", home=home, cwd=home, login=login)
    return InspectorApp(factory, Target.from_spec(url), settings, answers=FixedAnswers())
