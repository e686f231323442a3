"""The grants with no person in them: client credentials (a client secret, or a private-key JWT the SDK signs) and
SEP-990 identity assertion (an enterprise IdP's ID token exchanged for an ID-JAG, then for an access token), the
official SDK's extension providers; and a workload's jwt-bearer grant (SEP-1933, ``jwt_bearer``), which the SDK
does not have. (DPoP is not a grant: ``dpop`` binds any grant's token to a key.)

Each is an ``httpx2.Auth`` of the SDK, driven by ``flow.FlowRun`` like the authorization-code provider.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import httpx2
from mcp.client.auth import OAuthFlowError
from mcp.client.auth.extensions.client_credentials import (
    ClientCredentialsOAuthProvider,
    PrivateKeyJWTOAuthProvider,
    SignedJWTParameters,
)
from mcp.client.auth.extensions.identity_assertion import IdentityAssertionOAuthProvider
from mcp.client.auth.utils import build_protected_resource_metadata_discovery_urls

from inspector.transport.oauth.narrator import CURRENT

if TYPE_CHECKING:
    from inspector.transport.oauth.config import AuthConfig, IdentityProvider
    from inspector.transport.oauth.exchanges import LoginExchanges
    from inspector.transport.oauth.storage import StagedStorage

TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_JAG = "urn:ietf:params:oauth:token-type:id-jag"
ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token"


def extension_auth(
    config: AuthConfig,
    server: str,
    storage: StagedStorage,
    exchanges: LoginExchanges,
) -> httpx2.Auth:
    """The SDK provider for the credentials' grant."""
    given = config.credentials
    if given.grant == "jwt_bearer":
        from inspector.transport.oauth.jwt_bearer import JwtBearerGrantProvider

        if given.assertion is None:
            raise ValueError("the jwt-bearer grant needs the workload's assertion")
        return JwtBearerGrantProvider(
            server, storage, given.assertion, client_id=given.client_id, scope=given.scope, issuer=given.issuer
        )
    if not given.client_id:
        raise ValueError(f"the {given.grant} grant needs a client id")
    if given.grant == "client_credentials":
        if not given.client_secret:
            raise ValueError("the client_credentials grant needs a client secret")
        return ClientCredentialsOAuthProvider(
            server, storage, given.client_id, given.client_secret, scope=given.scope, issuer=given.issuer
        )
    if given.grant == "private_key_jwt":
        if not given.private_key_pem:
            raise ValueError("the private_key_jwt grant needs a private key")
        signer = SignedJWTParameters(
            issuer=given.client_id,
            subject=given.client_id,
            signing_key=given.private_key_pem,
            signing_algorithm=given.signing_algorithm or "RS256",
        )
        return PrivateKeyJWTOAuthProvider(
            server, storage, given.client_id, signer.create_assertion_provider(), scope=given.scope, issuer=given.issuer
        )
    if given.idp is None or not given.client_secret:
        raise ValueError("identity assertion needs an identity provider and a client secret")
    return IdentityAssertion(server, storage, given.client_id, given.client_secret, given.idp, exchanges)


@dataclass(eq=False)
class IdentityAssertion(httpx2.Auth):
    """SEP-990 over the SDK's ``IdentityAssertionOAuthProvider``, which wants the authorization server's issuer up
    front: it is read from the resource's metadata (through the recorded flow) on the first request, and the IdP
    leg (RFC 8693 token exchange for an ID-JAG) goes through our client like every other exchange."""

    requires_response_body = True

    server: str
    storage: StagedStorage
    client_id: str
    client_secret: str = field(repr=False)
    idp: IdentityProvider
    exchanges: LoginExchanges
    _inner: IdentityAssertionOAuthProvider | None = field(default=None, init=False, repr=False)

    async def async_auth_flow(self, request: httpx2.Request) -> AsyncGenerator[httpx2.Request, httpx2.Response]:
        if self._inner is None:
            issuer = None
            for url in build_protected_resource_metadata_discovery_urls(None, self.server):
                answer = yield httpx2.Request("GET", url)
                if answer.status_code == 200:
                    servers = json.loads(await answer.aread()).get("authorization_servers") or []
                    issuer = str(servers[0]) if servers else None
                    break
            if issuer is None:
                raise OAuthFlowError("no protected resource metadata names an authorization server")
            self._inner = IdentityAssertionOAuthProvider(
                self.server,
                self.storage,
                self.client_id,
                self.client_secret,
                issuer,
                self._id_jag,
                token_endpoint_auth_method="client_secret_basic",
            )
        flow = self._inner.async_auth_flow(request)
        try:
            outgoing = await flow.__anext__()
            while True:
                answer = yield outgoing
                try:
                    outgoing = await flow.asend(answer)
                except StopAsyncIteration:
                    return
        finally:
            await flow.aclose()

    async def _id_jag(self, audience: str, resource: str) -> str:
        """Leg 1: the IdP exchanges the user's ID token for an ID-JAG for ``audience`` (RFC 8693)."""
        idp = self.idp
        request = self.exchanges.request(
            "POST",
            idp.token_endpoint,
            data={
                "grant_type": TOKEN_EXCHANGE,
                "requested_token_type": ID_JAG,
                "audience": audience,
                "resource": resource,
                "subject_token": idp.id_token,
                "subject_token_type": ID_TOKEN,
                "client_id": idp.client_id,
            },
        )
        response = await self.exchanges.send("token", request, CURRENT.get())
        if response.status_code != 200:
            raise OAuthFlowError(f"the identity provider refused the token exchange: HTTP {response.status_code}")
        token = response.json().get("access_token")
        if not isinstance(token, str):
            raise OAuthFlowError("the identity provider's answer has no access_token (the ID-JAG)")
        return token
