"""Where a login waits for its warnings to be accepted: before the browser opens on the authorization URL, and
before a token request leaves for the token endpoint.

The SDK's flow opens whatever authorization endpoint the metadata names and sends the code, the PKCE verifier and
any client secret to whatever token endpoint it names. ``protocol.login_urls`` judges those addresses; this holds
the login at both points until the face's ``RiskConsent`` (a person on the TUI's login screen, a flag on the
command line) accepts what was found. Both points, because a refresh or a client-credentials grant sends secrets
to the token endpoint with no authorization before it; an address accepted at the first point is not asked about
again at the second. Refused (or nobody here to accept), the login stops with nothing opened or sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from inspector.protocol.login_urls import ACCEPT_FLAG, LoginCheck, LoginRisk, LoginRisksRefused, LoginUrlJudge
from inspector.protocol.oauth import LoginStopped

if TYPE_CHECKING:
    from mcp.client.auth.oauth2 import OAuthContext

    from inspector.protocol.login_urls import RiskConsent
    from inspector.transport.oauth.narrator import Narrator

WHY: Final = (
    "an address a login opens or sends its secrets to is looked at first: a user name before '@' disguises where "
    "it goes; another origin than the server's and its authorization server's was vouched for by neither; plain "
    "http off this machine can be read on the way"
)
NOBODY_TO_ACCEPT: Final = (
    f"these addresses need someone to accept them: log in from a terminal with {ACCEPT_FLAG}, or from the TUI's "
    "login screen, if you trust them"
)
NEVER: Final = "the authorization server's metadata names an address that is not a web page: tell its operator"


class LoginUrlGate:
    """One transport's checkpoint for its logins' addresses (see the module docstring)."""

    def __init__(self, server: str, consent: RiskConsent | None, timeout: float) -> None:
        self._server = server
        self._consent = consent
        self._timeout = timeout
        self._accepted: set[tuple[str, str]] = set()

    def judge(self, context: OAuthContext | None, metadata_urls: Iterable[str] = ()) -> LoginUrlJudge:
        """The judge for this login: the server, the resource its metadata names and the authorization server
        whose metadata was read (from the SDK's context, and ``metadata_urls``: where this flow read it, for a grant
        whose context the flow cannot see) are the places it already trusts."""
        vouched: list[str | None] = list(metadata_urls)
        if context is not None:
            prm = context.protected_resource_metadata
            metadata = context.oauth_metadata
            vouched += [
                str(prm.resource) if prm is not None else None,
                context.auth_server_url,
                str(metadata.issuer) if metadata is not None else None,
            ]
        return LoginUrlJudge(self._server, vouched)

    async def before_authorization(self, context: OAuthContext | None, url: str, narrator: Narrator) -> tuple[str, ...]:
        """Judge the authorization URL and the token endpoint the code will go to (one question for both); returns
        the warnings accepted, for the face to show beside the URL. Raises ``LoginStopped`` when they are not."""
        judge = self.judge(context)
        risks = judge.judge("authorization endpoint", url)
        metadata = context.oauth_metadata if context is not None else None
        if metadata is not None and metadata.token_endpoint is not None:
            risks += judge.judge("token endpoint", str(metadata.token_endpoint))
        await self._clear(LoginCheck(self._server, risks, url, "authorization"), narrator)
        return tuple(risk.message for risk in risks)

    async def before_token(
        self, context: OAuthContext | None, url: str, narrator: Narrator, metadata_urls: Iterable[str] = ()
    ) -> None:
        """Judge the token endpoint a token request is about to leave for; raises ``LoginStopped`` when what was
        found is not accepted (the request is not sent)."""
        risks = self.judge(context, metadata_urls).judge("token endpoint", url)
        await self._clear(LoginCheck(self._server, risks, url, "token"), narrator)

    async def _clear(self, check: LoginCheck, narrator: Narrator) -> None:
        new = tuple(risk for risk in check.risks if risk.key not in self._accepted)
        if not new:
            return
        asked = LoginCheck(check.server, new, check.url, check.step)
        nothing = "nothing was opened" if check.step == "authorization" else "no token request was sent"
        refused = f"the login's addresses were not accepted, so {nothing}: {asked.said}"
        if any(risk.kind == "not-web" for risk in new):
            raise LoginRisksRefused(refused, NEVER)
        consent = self._consent
        if consent is None:
            raise LoginRisksRefused(refused, NOBODY_TO_ACCEPT)
        if consent.waits_for_a_person:
            # (a "waiting" step holds the request's timeout while the person reads: connection._hold_for_login)
            narrator.decision("addresses", "waiting", _count(new) + ": waiting for them to be accepted", asked.said)
        try:
            how = await asyncio.wait_for(consent.accept(asked), self._timeout)
        except TimeoutError:
            raise LoginStopped(
                f"the warnings about the login's addresses were not answered within {self._timeout:g} s, so {nothing}",
                "run the login again (--login-timeout gives more time)",
            ) from None
        if how is None:
            raise LoginRisksRefused(refused, consent.how_to_accept)
        self._accepted.update(risk.key for risk in new)
        narrator.decision("addresses", "info", f"going on despite {_count(new)}: {how}", f"{asked.said} ({WHY})")


def _count(risks: tuple[LoginRisk, ...]) -> str:
    return f"{len(risks)} warning{'s' if len(risks) != 1 else ''} about the login's addresses"
