"""A login against an authorization server that misbehaves (``tests/fixtures/oauth_bad_server.py``): each case ends
with the step that failed, what the server said and what to try, a finding on the timeline, nothing stored, and
no secret in what is shown. (Wrong ``state``, wrong ``iss`` and a refused refresh token are in
``test_oauth_demo.py``, against the demo's real authorization server.)"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from oauth_bad_server import CODE, BadOAuth
from oauth_support import FollowLogin, auth_config, connect_fails, file_store, session_for

pytestmark = [pytest.mark.external, pytest.mark.timeout(60)]  # (external: these tests open sockets)


@pytest.mark.parametrize(
    ("mode", "message", "hint"),
    [
        (
            "metadata-not-json",
            "authorization server metadata failed: HTTP 200 but not JSON (text/html): Sign in Sign in to Example",
            "broken OAuth metadata",
        ),
        (
            "prm-not-json",
            "protected resource metadata failed: HTTP 200 but not JSON (text/html): Sign in Sign in to Example",
            "broken OAuth metadata",
        ),
        ("token-without-access-token", "token failed: the token answer is not a usable token", "log in again"),
        ("token-refused", "token failed: HTTP 400: error 'invalid_grant': 'code expired'", "log in again"),
        ("as-never-answers", "authorization server metadata failed: no answer from http://127.0.0.1:", "unreachable"),
    ],
)
async def test_a_broken_authorization_server_is_reported_and_nothing_is_stored(
    tmp_path: Path, mode: str, message: str, hint: str
) -> None:
    bad = BadOAuth(mode)
    serving = asyncio.create_task(bad.serve())
    store = file_store(tmp_path)
    session = session_for(
        bad.mcp_url, auth_config(store, FollowLogin(), exchange_timeout=1.0), record=tmp_path / "r.jsonl"
    )
    failed = await connect_fails(session, bad, serving)
    assert message in failed.message, failed.message
    assert hint in failed.hint, failed.hint
    last = session.timeline.auth[-1]
    assert last.outcome in ("failed", "refused") and last.hint == failed.hint
    assert any(f.code == "transport" and "auth-" in f.message for f in session.timeline.findings)
    assert store.load(bad.mcp_url) is None, "nothing stored half-done"
    assert CODE not in (tmp_path / "r.jsonl").read_text(), "the authorization code is redacted everywhere"
