"""The OAuth side of one HTTP transport: the token a request carries, and the login when a server asks for one.

While a token is valid a request goes out with it and nothing else happens (no lock, no SDK: importing the SDK
costs most of a second, so a transport that is never challenged never loads it). A 401, or a 403 asking for more
scope, runs the SDK's flow over the transport's own client (``flow.FlowRun``); so does a stored token that has
expired (the flow refreshes it first). What we add to the SDK's flow, as policy: a 401 on a token we hold tries
the refresh token before a new login; a step-up asking for scopes the token already has, or asking again and
again, is refused; no login is started where none is allowed (``--no-login``): the flow stops before a
registration or an authorization, and the request fails saying what to run. Failures come back as values.

A token bound to a key (DPoP, ``dpop.DpopBinding``) goes as ``Authorization: DPoP`` with a fresh proof on every
request; a server that asks for a DPoP nonce gets the request again, once, with it: that 401 is not a login.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import TYPE_CHECKING, Protocol

from inspector.protocol.oauth import Challenge, scopes
from inspector.transport.http_faults import FaultText
from inspector.transport.oauth.config import MAX_STEP_UPS, AuthConfig
from inspector.transport.oauth.dpop import DpopBinding
from inspector.transport.oauth.exchanges import LoginExchanges, challenged
from inspector.transport.oauth.narrator import CURRENT, Narrator

if TYPE_CHECKING:
    from collections.abc import Callable

    import httpx

    from inspector.protocol.oauth_record import LoginRecord
    from inspector.transport.base import RequestKey, TransportEvent
    from inspector.transport.oauth.machinery import Machinery


class LoginChannel(Protocol):
    """What the driver needs of the HTTP transport it logs in for: the client every request goes through, where a
    login's steps are told, and the transport's clock (``http_channel.HttpChannel`` is one)."""

    clock: Callable[[], float]

    @property
    def client(self) -> httpx.AsyncClient: ...

    def emit(self, event: TransportEvent) -> None: ...


class OAuthDriver:
    """Sends MCP requests with a token and logs in when the server challenges (see the module docstring)."""

    def __init__(self, config: AuthConfig, server: str, channel: LoginChannel) -> None:
        self.config = config
        self.server = server
        self._channel = channel
        self._exchanges = LoginExchanges(lambda: channel.client, config.exchange_timeout)
        self._record: LoginRecord | None = None
        self._loaded = False
        self._announced = False
        self._machinery: Machinery | None = None
        self._building = asyncio.Lock()
        self._step_ups: Counter[frozenset[str]] = Counter()
        self._dpop = DpopBinding(config.dpop)

    def credentials(self, method: str, url: str) -> dict[str, str]:
        """The headers that present the token to a ``method`` request to ``url`` now: ``Authorization`` (Bearer,
        or DPoP with a fresh ``DPoP`` proof for a bound token); none while there is no valid token."""
        self._load()
        token = self._usable_token()
        return self._dpop.credentials(method, url, token) if token else {}

    async def send(
        self, request: httpx.Request, request_id: RequestKey | None
    ) -> tuple[httpx.Response | None, FaultText | None]:
        """Send an MCP request (streaming), logging in first or on a challenge. Returns its last answer (None when
        it could not be sent: a refresh failed with no answer) and the fault that ended a login, if one did. An
        ``httpx.HTTPError`` raised is the MCP request's own."""
        narrator = Narrator(self._channel.emit, self._channel.clock, request_id, self.server)
        context_token = CURRENT.set(narrator)
        try:
            return await self._send(request, narrator)
        finally:
            CURRENT.reset(context_token)

    async def _send(self, request: httpx.Request, narrator: Narrator) -> tuple[httpx.Response | None, FaultText | None]:
        self._load()
        self._announce(narrator)
        machinery = self._machinery
        fresh = machinery is None and (self._record is None or self._record.tokens is None)
        if (self._usable_token() is not None or fresh) and not (machinery is not None and machinery.locked()):
            response = await self._dpop.send(self._channel.client, request, narrator)
            if not challenged(response):
                return response, None
            await response.aread()
            if "dpop" in request.headers and self._dpop.still_asks_nonce(response):
                fault = FaultText(
                    "auth-retry",
                    "the server asked for a DPoP nonce again, after the request carried the one it gave",
                    "the server does not accept its own nonces (a clock or a cache out of step?): tell its operator",
                )
                narrator.decision("dpop", "refused", fault.message, hint=fault.hint)
                return response, fault
            return await self._login(request, response, narrator)
        return await self._login(request, None, narrator)

    def _load(self) -> None:
        """Read the stored login, once (the first request's headers need its token)."""
        if not self._loaded:
            self._loaded = True
            self._record = self.config.store.load(self.server)

    def _announce(self, narrator: Narrator) -> None:
        """Tell the timeline, once, which stored login is used (its secrets go to the session's redactor)."""
        record = self._record
        if self._announced or record is None:
            return
        self._announced = True
        left = record.expires_in()
        if record.tokens is None:
            when = "no token"
        elif left is None:
            when = "no expiry known"
        else:
            when = f"expires in {left:.0f} s" if left > 0 else f"expired {-left:.0f} s ago"
        narrator.decision(
            "token",
            "info",
            f"stored login for {self.server}: client {record.client_id} ({record.registration}) at "
            f"{record.issuer or 'an unnamed issuer'}, scope {record.scope!r}, {when}",
            f"from {self.config.store.where}",
            secrets=tuple(record.secrets()),
        )

    def _usable_token(self) -> str | None:
        machinery = self._machinery
        if machinery is not None:
            context = machinery.context
            if context is None or not context.is_token_valid() or context.current_tokens is None:
                return None
            return context.current_tokens.access_token
        record = self._record
        if record is None or record.tokens is None:
            return None
        left = record.expires_in()
        token = record.tokens.get("access_token")
        return str(token) if token and (left is None or left > 0) else None

    async def _machine(self) -> Machinery:
        async with self._building:
            if self._machinery is None:
                from inspector.transport.oauth.machinery import build

                machinery = build(self.config, self.server, self._record, self._exchanges, self._dpop)
                await machinery.load()
                self._machinery = machinery
            return self._machinery

    async def _login(
        self, request: httpx.Request, first: httpx.Response | None, narrator: Narrator
    ) -> tuple[httpx.Response | None, FaultText | None]:
        challenge = Challenge.of(first.status_code, first.headers.get("www-authenticate")) if first else None
        if challenge is not None:
            narrator.challenge = challenge
            narrator.decision("challenge", "info", challenge.describe(), _why(challenge))
        nobody = self.config.login is None and self.config.credentials.needs_person
        if first is not None and nobody and self._record is None:
            return first, self._no_login(first, narrator)
        refused = self._refuse_step_up(challenge)
        if refused is not None:
            narrator.decision("scope", "refused", refused.message, hint=refused.hint)
            return first, refused
        from inspector.transport.oauth.failures import explain
        from inspector.transport.oauth.flow import FlowRun

        try:
            machinery = await self._machine()
        except OSError as taken:  # the --callback-port asked for is in use
            fault = FaultText(
                "auth-authorization", f"login cannot start: {taken}", "free the port, or drop --callback-port"
            )
            narrator.decision("authorization", "failed", fault.message, hint=fault.hint)
            return first, fault
        self._refresh_first(machinery, request, first, narrator)
        authorizer = machinery.authorizer
        run = FlowRun(
            machinery.auth,
            self._exchanges,
            narrator,
            machinery.storage,
            gate=machinery.gate,
            refuse_registration=authorizer.not_allowed
            if authorizer is not None and self.config.login is None
            else None,
            resource_metadata=challenge.resource_metadata if challenge is not None else None,
            dpop=self._dpop,
        )
        try:
            response = await run.run(request, first)
        except Exception as exc:
            if _is_mcp_send_error(exc):
                raise
            machinery.storage.discard_staged()
            if run.latest is not None and narrator.no_metadata():
                # Not an OAuth server we can log in to: the challenge stands, as the plain HTTP fault it is.
                narrator.decision(
                    "authorization-server-metadata",
                    "info",
                    "the server publishes no OAuth metadata anywhere: no login is possible, its answer stands",
                    hint="pass a token the server accepts: --bearer TOKEN",
                )
                return run.latest, None
            failure = explain(exc, narrator, self.server)
            narrator.decision(failure.step, failure.outcome, failure.message, hint=failure.hint)
            return run.latest, failure.fault()
        if response is not None and challenged(response) and narrator.exchanged:
            again = Challenge.of(response.status_code, response.headers.get("www-authenticate"))
            fault = FaultText(
                "auth-retry",
                f"the server still refuses the request after the login: {again.describe()}",
                "the authorization server did not grant what the server wants, or the server does not accept its "
                f"tokens; `inspector auth logout {self.server}` and log in again, or check the server's configuration",
            )
            narrator.decision("retry", "refused", fault.message, hint=fault.hint)
            return response, fault
        return response, None

    def _no_login(self, first: httpx.Response, narrator: Narrator) -> FaultText:
        """No login may run and none is stored: nothing to try, so nothing is asked of the authorization server
        (not even its metadata) and the SDK is not loaded; the challenge stands, saying what to pass."""
        from inspector.transport.http_faults import excerpt, status_fault

        plain = status_fault(
            first.status_code,
            method=first.request.method,
            url=self.server,
            headers=first.headers,
            body_excerpt=excerpt(first.text),
            sent_authorization=False,
        )
        hint = (
            f"{plain.hint}; or log in first: inspector auth login {self.server} "
            f"(no login was started here: {self.config.no_login_reason})"
        )
        narrator.decision("authorization", "refused", f"no login started: {self.config.no_login_reason}", hint=hint)
        return FaultText(plain.kind, plain.message, hint)

    def _refresh_first(
        self, machinery: Machinery, request: httpx.Request, first: httpx.Response | None, narrator: Narrator
    ) -> None:
        """A 401 on a token we hold: try the refresh token before a whole new login (the SDK goes straight to one)."""
        context = machinery.context
        provider = machinery.provider
        if first is None or first.status_code != 401 or context is None or provider is None:
            return
        tokens = context.current_tokens
        sent = request.headers.get("authorization", "").partition(" ")[2]  # (its scheme: Bearer, or DPoP)
        if tokens is None or sent != tokens.access_token or not context.can_refresh_token():
            return  # another request's flow already replaced the token, or there is nothing to refresh with
        provider.expire_token()
        narrator.decision("refresh", "info", "the server refused the token: trying the refresh token first")

    def _refuse_step_up(self, challenge: Challenge | None) -> FaultText | None:
        if challenge is None or not challenge.step_up:
            return None
        wanted = scopes(challenge.scope)
        granted = scopes(self._granted_scope())
        if wanted and wanted <= granted:
            return FaultText(
                "auth-scope",
                f"the server asks for scope {challenge.scope!r}, which the token already has, and still refuses",
                "the server's scope checks disagree with what its authorization server grants: asking again would "
                "not help; tell the server's operator",
            )
        self._step_ups[wanted] += 1
        if self._step_ups[wanted] > MAX_STEP_UPS:
            return FaultText(
                "auth-scope",
                f"the server asked for scope {challenge.scope!r} {self._step_ups[wanted]} times: not asking again",
                "the authorization server does not grant that scope to this client; ask its operator for it",
            )
        return None

    def _granted_scope(self) -> str | None:
        machinery = self._machinery
        context = machinery.context if machinery is not None else None
        if context is not None:
            return context.current_tokens.scope if context.current_tokens is not None else None
        return self._record.scope if self._record is not None else None


def _why(challenge: Challenge) -> str:
    if challenge.step_up:
        return "a 403 with insufficient_scope asks for more scope: a step-up authorization"
    return "a 401 means no valid token: find out how to log in (RFC 9728 protected resource metadata first)"


def _is_mcp_send_error(exc: Exception) -> bool:
    """An httpx error escaping the flow is the MCP request's own (the flow's exchanges raise ``ExchangeFailed``)."""
    import httpx

    return isinstance(exc, httpx.HTTPError)


__all__ = ["OAuthDriver"]
