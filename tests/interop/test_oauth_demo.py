"""Logging in to the demo behind OAuth (a real authorization server, the SDK's ``mcp.server.auth``, and the demo
server as its resource, on two 127.0.0.1 ports) through the inspector's session, as each face does it.

One login is followed from the challenge to the retry, then reused from the store by a new process's worth of
session, stepped up, refreshed, refused; each test checks what the timeline shows, what was stored (and that a
failed login stored nothing), that the callback listened only while the login waited, and that no secret the
authorization server issued is in a recording, the printed timeline or the ``--json`` document.
"""

from __future__ import annotations

import asyncio
import io
import json
import stat
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "session"))
from oauth_support import BrowserLogin, PastingLogin, auth_config, demo_running, file_store, listening, session_for
from session_support import comparable

from inspector.demo.auth_server import READ, WRITE, AuthDemo
from inspector.headless.json_document import outcome_document
from inspector.headless.printed_timeline import print_timeline
from inspector.replay.loader import load_recording
from inspector.session.session import ConnectError, InspectorSession
from inspector.timeline.build.builder import build_timeline
from inspector.transport.oauth.token_store import TokenStore

pytestmark = [pytest.mark.external, pytest.mark.timeout(120)]  # (external: these tests open sockets)

LOGIN_STEPS = [
    "challenge",
    "protected-resource-metadata",
    "protected-resource-metadata",
    "authorization-server-metadata",
    "authorization-server-metadata",
    "registration",
    "registration",
    "scope",
    "authorization",
    "callback",
    "token",
    "token",
    "retry",
]
"""A first login, step by step: each exchange followed by what was decided from it."""


def exchanges(session: InspectorSession) -> list[str]:
    """The login's HTTP exchanges as "step STATUS" (grant type for token requests)."""
    out = []
    for step in session.timeline.auth:
        if step.http is not None:
            grant = ""
            if step.http.request_body and "grant_type=" in step.http.request_body:
                grant = " " + step.http.request_body.split("grant_type=")[1].split("&")[0]
            out.append(f"{step.step}{grant} {step.http.status}")
    return out


def printed(session: InspectorSession) -> str:
    out = io.StringIO()
    print_timeline(Console(file=out, width=300, color_system=None), session.timeline)
    return out.getvalue()


def assert_no_secret(demo: AuthDemo, *texts: str) -> None:
    """Nothing the authorization server handed out (codes, tokens, client secrets) is in any of ``texts``."""
    assert demo.provider.issued, "the demo issued secrets"
    for text in texts:
        leaked = [secret for secret in demo.provider.issued if secret in text]
        assert leaked == [], f"secrets leaked: {len(leaked)}"


def assert_replays(session: InspectorSession, recording: Path) -> None:
    lines = [json.loads(line) for line in recording.read_text(encoding="utf-8").splitlines()]
    assert comparable(build_timeline(lines[1:])) == comparable(session.timeline)
    loaded = load_recording(recording)
    assert loaded.problems == []


async def test_login_reuse_step_up_and_refresh(tmp_path: Path) -> None:
    store = file_store(tmp_path / "config")
    person = BrowserLogin()
    async with demo_running() as demo:
        # 1. A first login, on the first request (server/discover), then the call.
        first = session_for(demo.mcp_url, auth_config(store, person), record=tmp_path / "one.jsonl")
        try:
            await first.connect()
            whoami = await first.call_tool("whoami")
            assert whoami.status == "complete", whoami.detail
            added = await first.call_tool("add", {"a": 2, "b": 3})  # needs demo:write: a step-up
            assert added.status == "complete", added.detail
        finally:
            await first.close()
        discover = first.timeline.calls[0]
        assert discover.method == "server/discover"
        assert [s.step for s in discover.auth] == LOGIN_STEPS
        assert all(s.call_index == 1 and s.request_id == discover.rounds[0].request_id for s in discover.auth)
        assert [s.outcome for s in discover.auth if s.step in ("retry", "token")] == ["ok", "ok", "ok"]
        step_up = next(c for c in first.timeline.calls if c.name == "add")
        assert step_up.auth[0].step == "challenge" and "insufficient_scope" in step_up.auth[0].what
        assert any(s.step == "scope" and f"{READ} {WRITE}" in s.what for s in step_up.auth)
        assert [p.scope for p in person.prompts] == [READ, f"{READ} {WRITE}"]
        assert exchanges(first) == [
            "protected-resource-metadata 200",
            "authorization-server-metadata 200",
            "registration 201",
            "token authorization_code 200",
            "token authorization_code 200",  # the step-up: metadata and client reused, no new registration
        ]
        assert not any(listening(port) for port in person.ports_seen), "nothing listens once the login ended"
        assert len(set(person.ports_seen)) == 1, "the step-up came back to the registered port"

        record = store.load(demo.mcp_url)
        assert record is not None and record.registration == "dynamic" and record.issuer == demo.issuer
        assert record.scope == f"{READ} {WRITE}" and record.has_refresh_token
        assert record.expires_at is not None and record.as_metadata and record.prm
        for name in ("index.json", "secrets.json"):
            path = tmp_path / "config" / "auth" / name
            assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE((tmp_path / "config" / "auth").stat().st_mode) == 0o700
        index = (tmp_path / "config" / "auth" / "index.json").read_text()
        assert_no_secret(demo, index)

        # 2. A new session: the stored token, no exchange at all.
        second = session_for(demo.mcp_url, auth_config(store, None), record=tmp_path / "two.jsonl")
        try:
            await second.connect()
            assert (await second.call_tool("add", {"a": 1, "b": 1})).status == "complete"
        finally:
            await second.close()
        assert exchanges(second) == []
        [stored] = second.timeline.auth
        assert stored.step == "token" and "stored login" in stored.what and stored.outcome == "info"

        # 3. The token expired meanwhile (as a later process finds it): refreshed at the discovered endpoint.
        store.save(replace(record, expires_at=1.0))
        third = session_for(demo.mcp_url, auth_config(store, None), record=tmp_path / "three.jsonl")
        try:
            await third.connect()
            assert (await third.call_tool("whoami")).status == "complete"
        finally:
            await third.close()
        assert exchanges(third) == ["refresh refresh_token 200"]
        refreshed = store.load(demo.mcp_url)
        assert refreshed is not None and refreshed.tokens != record.tokens and (refreshed.expires_in() or 0) > 0

        for session, name in ((first, "one"), (second, "two"), (third, "three")):
            recording = tmp_path / f"{name}.jsonl"
            assert_replays(session, recording)
            document = json.dumps(outcome_document(whoami, session.timeline))
            assert_no_secret(demo, recording.read_text(), printed(session), document)


async def test_refused_refresh_token_falls_back_to_a_login(tmp_path: Path) -> None:
    store = file_store(tmp_path)
    async with demo_running() as demo:
        session = session_for(demo.mcp_url, auth_config(store, BrowserLogin()))
        try:
            await session.connect()
        finally:
            await session.close()
        record = store.load(demo.mcp_url)
        assert record is not None
        store.save(replace(record, expires_at=1.0))
        demo.provider.refresh.clear()  # the authorization server forgot (revoked, expired) every refresh token

        # Without a login allowed: the refresh is refused, the dead tokens are dropped, and the run fails at once.
        refused = session_for(demo.mcp_url, auth_config(store, None, no_login_reason="--no-login was given"))
        with pytest.raises(ConnectError) as failed:
            try:
                await refused.connect()
            finally:
                await refused.close()
        assert "the server wants a login" in failed.value.message and "--no-login" in failed.value.message
        assert "inspector auth login" in failed.value.hint
        assert exchanges(refused)[0] == "refresh refresh_token 400"
        assert not any(s.step == "registration" and s.http is not None for s in refused.timeline.auth)
        kept = store.load(demo.mcp_url)
        assert kept is not None and kept.tokens is None and kept.client_id == record.client_id

        # With a login allowed: a new authorization, with the registration kept.
        again = session_for(demo.mcp_url, auth_config(store, BrowserLogin()))
        try:
            await again.connect()
            assert (await again.call_tool("whoami")).status == "complete"
        finally:
            await again.close()
        assert "registration 201" not in exchanges(again)
        renewed = store.load(demo.mcp_url)
        assert renewed is not None and renewed.tokens is not None and renewed.client_id == record.client_id


async def test_one_login_for_many_requests_at_once(tmp_path: Path) -> None:
    store = file_store(tmp_path)
    person = BrowserLogin()
    async with demo_running() as demo:
        session = session_for(demo.mcp_url, auth_config(store, person))
        try:
            await session.connect()
            demo.provider.access.clear()  # every access token revoked: each of the next calls gets a 401
            outcomes = await asyncio.gather(*(session.call_tool("whoami") for _ in range(5)))
        finally:
            await session.close()
        assert [o.status for o in outcomes] == ["complete"] * 5
        assert exchanges(session).count("refresh refresh_token 200") == 1, exchanges(session)
        assert len(person.prompts) == 1, "the refresh replaced a second login"


async def test_a_pasted_redirect_logs_in(tmp_path: Path) -> None:
    store = file_store(tmp_path)
    person = PastingLogin()
    async with demo_running() as demo:
        session = session_for(demo.mcp_url, auth_config(store, person))
        try:
            await session.connect()
            assert (await session.call_tool("whoami")).status == "complete"
        finally:
            await session.close()
        [callback] = [s for s in session.timeline.auth if s.step == "callback"]
        assert "(pasted)" in callback.what
        assert_no_secret(demo, printed(session), json.dumps([s.what for s in session.timeline.auth]))


@pytest.mark.parametrize(
    ("how", "step", "said", "hint"),
    [
        ("wrong-iss", "callback", "Authorization response iss mismatch", "RFC 9207"),
        ("deny", "authorization", "access_denied", "consent was not given"),
    ],
    ids=["wrong-iss", "access-denied"],
)
async def test_a_bad_redirect_is_refused_and_nothing_is_stored(
    tmp_path: Path, how: str, step: str, said: str, hint: str
) -> None:
    store: TokenStore = file_store(tmp_path)
    person = BrowserLogin(how)
    async with demo_running() as demo:
        session = session_for(demo.mcp_url, auth_config(store, person), record=tmp_path / "r.jsonl")
        with pytest.raises(ConnectError) as failed:
            try:
                await session.connect()
            finally:
                await session.close()
        assert said in failed.value.message and hint in failed.value.hint, (failed.value.message, failed.value.hint)
        last = session.timeline.auth[-1]
        assert last.step == step and last.outcome in ("refused", "failed") and last.hint
        assert not any(s.step == "token" and s.http is not None for s in session.timeline.auth), "no code was used"
        assert store.load(demo.mcp_url) is None, "nothing stored half-done (not even the registration)"
        assert not (tmp_path / "auth" / "secrets.json").exists()
        assert not any(listening(port) for port in person.ports_seen)
        findings = [f for f in session.timeline.findings if f.code == "transport"]
        assert any(f"auth-{step}" in f.message for f in findings), [f.message for f in findings]
        assert_no_secret(demo, (tmp_path / "r.jsonl").read_text(), printed(session))


async def test_no_login_fails_fast_and_asks_the_authorization_server_nothing(tmp_path: Path) -> None:
    store = file_store(tmp_path)
    async with demo_running() as demo:
        session = session_for(demo.mcp_url, auth_config(store, None, no_login_reason="--no-login was given"))
        with pytest.raises(ConnectError) as failed:
            try:
                await session.connect()
            finally:
                await session.close()
        assert "HTTP 401 Unauthorized" in failed.value.message
        assert failed.value.hint.startswith("the server wants a token")
        assert failed.value.hint.endswith(
            f"pass --bearer TOKEN; protected-resource metadata: {demo.mcp_url.removesuffix('/mcp')}"
            f"/.well-known/oauth-protected-resource/mcp; or log in first: inspector auth login {demo.mcp_url} "
            "(no login was started here: --no-login was given)"
        )
        assert exchanges(session) == [], "nothing was asked of anyone"
        assert demo.provider.clients == {}, "no client was registered for a login that may not run"
        assert store.load(demo.mcp_url) is None


async def test_a_redirect_with_another_state_is_ignored_and_the_real_one_logs_in(tmp_path: Path) -> None:
    """One forged ``GET /callback?code=X&state=wrong`` used to end the waiting login (and the real redirect that
    followed was refused): now it is answered 400, said on the login's steps, and the wait goes on."""
    store: TokenStore = file_store(tmp_path)
    async with demo_running() as demo:
        session = session_for(demo.mcp_url, auth_config(store, BrowserLogin("forged-first")))
        try:
            await session.connect()
            assert (await session.call_tool("whoami")).status == "complete"
        finally:
            await session.close()
        strays = [s for s in session.timeline.auth if "another state" in s.what]
        assert len(strays) == 1 and strays[0].outcome == "refused", [s.what for s in session.timeline.auth]
        assert store.load(demo.mcp_url) is not None, "logged in with the real redirect"


async def test_only_a_redirect_with_another_state_ends_in_the_login_timeout(tmp_path: Path) -> None:
    """A tampered state never logs in: the redirect is ignored, and the login ends at its timeout saying so."""
    store: TokenStore = file_store(tmp_path)
    async with demo_running() as demo:
        config = auth_config(store, BrowserLogin("tamper-state"), login_timeout=3.0)
        session = session_for(demo.mcp_url, config)
        with pytest.raises(ConnectError) as failed:
            try:
                await session.connect()
            finally:
                await session.close()
        assert "no redirect came back within 3 s" in failed.value.message, failed.value.message
        assert any("another state" in s.what for s in session.timeline.auth)
        assert store.load(demo.mcp_url) is None
