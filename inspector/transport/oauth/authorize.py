"""The two closures the SDK calls to get a person's authorization (``redirect_handler``: send them to the URL;
``callback_handler``: the redirect that came back), over the face's ``Login``.

The face decides how the person gets there (a browser, a printed URL, a pasted redirect); this module gives it the
loopback callback and the recorded client's "follow the redirect myself" (for authorization servers that answer
at once), bounds the wait, and tells the timeline what arrived. Which request a login is for is read from the
context variable the driver sets for each request, since the SDK's lock serialises logins across requests.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlsplit

import httpx
from mcp.shared.auth import AuthorizationCodeResult

from inspector.protocol.oauth import AuthorizationPrompt, Landing, LoginNotAllowed, LoginStopped
from inspector.transport.oauth.callback import CallbackPortTaken, LoopbackCallback
from inspector.transport.oauth.config import MAX_LOGINS, AuthConfig
from inspector.transport.oauth.narrator import CURRENT

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from mcp.client.auth.oauth2 import OAuthContext

    from inspector.transport.oauth.exchanges import LoginExchanges
    from inspector.transport.oauth.gate import LoginUrlGate
    from inspector.transport.oauth.narrator import Narrator

REDIRECTS: frozenset[int] = frozenset({301, 302, 303, 307, 308})


@dataclass(eq=False)
class Authorizer:
    """One transport's way to a person's authorization, any number of times (a step-up is a second one)."""

    config: AuthConfig
    server: str
    callback: LoopbackCallback
    exchanges: LoginExchanges
    gate: LoginUrlGate
    context: OAuthContext | None = field(default=None, init=False, repr=False)
    """The SDK provider's context, set once the provider (which takes this object's handlers) is built."""
    logins: int = field(default=0, init=False)
    _landing: Landing | None = field(default=None, init=False)

    async def redirect_handler(self, url: str) -> None:
        narrator = CURRENT.get()
        context = self.context
        assert context is not None
        narrator.authorization(context)
        config = self.config
        if config.login is None:
            raise self.not_allowed()
        if self.logins >= MAX_LOGINS:
            raise LoginStopped(
                f"already {self.logins} logins in this session and the server still refuses",
                "the server does not accept the tokens its authorization server issues: check its configuration",
            )
        self.logins += 1
        # Before the face sees the URL (it opens the browser at once): a disguised or far-away address waits for
        # its warnings to be accepted, and a refusal ends the login here, with nothing opened or printed to open.
        warnings = await self.gate.before_authorization(context, url, narrator)
        metadata = context.oauth_metadata
        prompt = AuthorizationPrompt(
            url,
            self.callback.redirect_uri,
            self.server,
            str(metadata.issuer) if metadata is not None else None,
            context.client_metadata.scope,
            warnings,
        )
        narrator.decision(
            "authorization",
            "waiting",
            f"waiting for the authorization to come back to {self.callback.redirect_uri}",
            "the person logs in and consents in a browser; the redirect brings the code back",
            http=None,
        )
        helpers = _Helpers(self, url, narrator)
        try:
            landing = await asyncio.wait_for(config.login.authorize(prompt, helpers), config.login_timeout)
        except TimeoutError:
            raise LoginStopped(
                f"no redirect came back within {config.login_timeout:g} s",
                "run the login again (--login-timeout gives more time); paste the address the browser ended on "
                "if it cannot reach this machine",
            ) from None
        finally:
            await helpers.stop()
            self.callback.close()
        narrator.landed(
            landing,
            str(metadata.issuer) if metadata is not None else None,
            bool(metadata is not None and metadata.authorization_response_iss_parameter_supported),
        )
        self._landing = landing

    async def callback_handler(self) -> AuthorizationCodeResult:
        landing, self._landing = self._landing, None
        if landing is None:
            raise LoginStopped("no redirect arrived", "log in again")
        if landing.error:
            raise LoginStopped(
                landing.describe(),
                "the login was refused at the authorization server (access_denied: consent was not given); "
                "log in again and allow access",
            )
        return AuthorizationCodeResult(code=landing.code or "", state=landing.state, iss=landing.iss)

    def not_allowed(self) -> LoginNotAllowed:
        """The refusal of a login this run may not start, saying what the server wants and what to run."""
        context = self.context
        scope = context.client_metadata.scope if context is not None else None
        metadata = context.oauth_metadata if context is not None else None
        at = f" at {metadata.issuer}" if metadata is not None else ""
        wanted = (
            f"the server wants a login{f' (scope {scope})' if scope else ''}{at}, and {self.config.no_login_reason}"
        )
        return LoginNotAllowed(
            wanted, f"log in first: inspector auth login {self.server} (a stored login is used, and refreshed)"
        )

    async def follow(self, url: str, narrator: Narrator) -> Landing:
        """GET the authorization URL through the recorded client and read the redirect it answers with."""
        exchanges = self.exchanges
        response = await exchanges.send("authorization", exchanges.request("GET", url), narrator, _redirect_code)
        location = response.headers.get("location")
        params = _redirect_params(response)
        if response.status_code not in REDIRECTS or not location:
            raise LoginStopped(
                f"the authorization endpoint answered HTTP {response.status_code} with no redirect: a person has "
                "to log in there",
                f"log in from a terminal with a browser: inspector auth login {self.server}",
            )
        return Landing(params, "followed")


def _redirect_params(response: httpx.Response) -> dict[str, str]:
    """The query of the redirect an authorization endpoint answered with (empty when it did not redirect)."""
    return dict(parse_qsl(urlsplit(response.headers.get("location") or "").query, keep_blank_values=True))


def _redirect_code(response: httpx.Response) -> str:
    """The authorization code a redirect carries in its Location (a secret that no field name marks)."""
    return _redirect_params(response).get("code") or ""


@dataclass(eq=False)
class _Helpers:
    """``protocol.oauth.LoginHelpers`` for one authorization."""

    authorizer: Authorizer
    url: str
    narrator: Narrator
    _serving: asyncio.Task[Landing] | None = field(default=None, init=False)

    def wait_for_browser(self) -> Awaitable[Landing]:
        callback = self.authorizer.callback
        if self._serving is None:
            try:
                callback.listen()
            except CallbackPortTaken as taken:
                raise LoginStopped(
                    str(taken),
                    "the redirect URI registered with the authorization server names that port: free it, or "
                    f"`inspector auth logout {self.authorizer.server}` to register again on another",
                ) from None
            # Served from now on, whether or not (and whenever) the face awaits it: the browser may come first.
            # Only the redirect with this authorization's state ends the wait; another is said and ignored.
            state = dict(parse_qsl(urlsplit(self.url).query)).get("state")
            wait = callback.wait(self.authorizer.config.login_timeout, state=state, ignored=self._stray)
            self._serving = asyncio.ensure_future(wait)
        return self._serving

    def _stray(self, landing: Landing) -> None:
        """A redirect with another state came to the callback: said on the login's steps, and ignored."""
        self.narrator.decision(
            "authorization",
            "refused",
            "a redirect with another state came to the callback: ignored, still waiting for this login's",
            "only the redirect whose state is the one this login sent is taken (a forged or stale one may come first)",
        )

    async def stop(self) -> None:
        """The login ended: stop serving the callback (if the face did not wait for it)."""
        serving = self._serving
        if serving is not None and not serving.done():
            serving.cancel()
            await asyncio.gather(serving, return_exceptions=True)

    async def follow(self) -> Landing:
        return await self.authorizer.follow(self.url, self.narrator)
