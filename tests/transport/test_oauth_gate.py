"""``transport.oauth.gate.LoginUrlGate``: where a login waits for the warnings about its addresses to be accepted.
The SDK's context is stood in for by its three fields the gate reads; the steps it tells are collected. (The same
gate, in a real login against a real authorization server: ``tests/interop/test_oauth_login_risks.py``.)"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

import pytest

from inspector.protocol.login_urls import LoginCheck, LoginRisksRefused
from inspector.transport.base import AuthEvent, TransportEvent
from inspector.transport.oauth.gate import NEVER, NOBODY_TO_ACCEPT, LoginUrlGate
from inspector.transport.oauth.narrator import Narrator

if TYPE_CHECKING:
    from mcp.client.auth.oauth2 import OAuthContext

SERVER = "http://127.0.0.1:8000/mcp"
ISSUER = "http://127.0.0.1:8001/"
DISGUISED = "http://accounts.google.com@127.0.0.1:8001/authorize?state=s"
ELSEWHERE = "http://127.0.0.1:8002/token"


def context(token_endpoint: str) -> OAuthContext:
    metadata = SimpleNamespace(issuer=ISSUER, token_endpoint=token_endpoint)
    prm = SimpleNamespace(resource=SERVER)
    return cast("OAuthContext", SimpleNamespace(protected_resource_metadata=prm, oauth_metadata=metadata,
                                                auth_server_url=ISSUER))  # fmt: skip


@dataclass
class Told:
    """A narrator's events, kept."""

    events: list[TransportEvent] = field(default_factory=list)

    def narrator(self) -> Narrator:
        return Narrator(self.events.append, lambda: 0.0, 1, SERVER)

    def steps(self) -> list[tuple[str, str]]:
        return [(e.step, e.outcome) for e in self.events if isinstance(e, AuthEvent)]


@dataclass
class Consent:
    accepted: bool
    waits_for_a_person: bool = False
    how_to_accept: str = "say yes"
    asked: list[LoginCheck] = field(default_factory=list)

    async def accept(self, check: LoginCheck) -> str | None:
        self.asked.append(check)
        return "yes was said" if self.accepted else None


async def test_one_question_covers_the_authorization_and_the_token_endpoint() -> None:
    consent = Consent(True, waits_for_a_person=True)
    gate, told = LoginUrlGate(SERVER, consent, 5.0), Told()
    warnings = await gate.before_authorization(context(ELSEWHERE), DISGUISED, told.narrator())
    [check] = consent.asked
    assert check.step == "authorization" and check.url == DISGUISED
    assert [(r.kind, r.role) for r in check.risks] == [("userinfo", "authorization endpoint"),
                                                      ("other-origin", "token endpoint")]  # fmt: skip
    assert warnings == tuple(r.message for r in check.risks)
    assert told.steps() == [("addresses", "waiting"), ("addresses", "info")]  # the timeout is held meanwhile
    accepted = [e for e in told.events if isinstance(e, AuthEvent)][-1]
    assert accepted.what == "going on despite 2 warnings about the login's addresses: yes was said"
    assert check.risks[0].message in accepted.why
    await gate.before_token(context(ELSEWHERE), ELSEWHERE, told.narrator())
    assert len(consent.asked) == 1, "the token endpoint accepted before the browser opened is not asked again"


async def test_nothing_to_warn_about_asks_nothing() -> None:
    consent = Consent(False)
    gate, told = LoginUrlGate(SERVER, consent, 5.0), Told()
    assert await gate.before_authorization(context(f"{ISSUER}token"), f"{ISSUER}authorize", told.narrator()) == ()
    await gate.before_token(context(f"{ISSUER}token"), f"{ISSUER}token", told.narrator())
    assert consent.asked == [] and told.steps() == []


async def test_a_refusal_stops_the_login_saying_how_to_accept() -> None:
    gate = LoginUrlGate(SERVER, Consent(False), 5.0)
    with pytest.raises(LoginRisksRefused) as refused:
        await gate.before_token(context(ELSEWHERE), ELSEWHERE, Told().narrator())
    assert refused.value.message.startswith("the login's addresses were not accepted, so no token request was sent")
    assert refused.value.hint == "say yes"


async def test_with_nobody_to_accept_the_login_stops() -> None:
    with pytest.raises(LoginRisksRefused) as refused:
        await LoginUrlGate(SERVER, None, 5.0).before_authorization(context(ELSEWHERE), DISGUISED, Told().narrator())
    assert "so nothing was opened" in refused.value.message and refused.value.hint == NOBODY_TO_ACCEPT


async def test_an_address_that_is_not_a_web_page_is_refused_whoever_accepts() -> None:
    consent = Consent(True)
    with pytest.raises(LoginRisksRefused) as refused:
        await LoginUrlGate(SERVER, consent, 5.0).before_authorization(
            context(f"{ISSUER}token"), "javascript:alert(1)", Told().narrator()
        )
    assert refused.value.hint == NEVER and consent.asked == []
