"""The workload-identity grant: a workload presents the JWT its platform gave it (a Kubernetes service-account
token, a cloud's workload identity) at the token endpoint with the RFC 7523 jwt-bearer grant (SEP-1933): no
registration, no person, no client secret.

The SDK has the grant only as SEP-990's second leg (``IdentityAssertionOAuthProvider``: a confidential client, an
issuer fixed up front, no resource metadata read); a workload has neither secret nor issuer, so this is the SDK's
own ``OAuthClientProvider`` (its discovery, issuer checks, scope rules, step-ups and token handling), with the token
request made the jwt-bearer way, as its client-credentials extension does for that grant.

What SEP-1933 asks of a client, kept here: the assertion is read afresh for each token request (the file rotates),
never stored, and never sent again once refused (the same assertion would be refused again; nor is another grant
tried); a workload's tokens are kept in memory only, and it never refreshes: it presents its assertion again.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx2
from mcp.client.auth import OAuthClientProvider, OAuthFlowError, OAuthTokenError
from mcp.client.auth.utils import issuers_match
from mcp.shared.auth import JWT_BEARER_GRANT_TYPE, OAuthClientInformationFull, OAuthClientMetadata

from inspector.transport.oauth.narrator import CURRENT

if TYPE_CHECKING:
    from mcp.client.auth import TokenStorage

    from inspector.transport.oauth.config import WorkloadAssertion

NOT_STORED = "a workload's token (SEP-1933): the workload presents its assertion again instead"
NO_CLIENT_ID = "(no client id)"


class JwtBearerGrantProvider(OAuthClientProvider):
    """The SDK's flow with the jwt-bearer grant as its authorization (see the module docstring)."""

    def __init__(
        self,
        server_url: str,
        storage: TokenStorage,
        assertion: WorkloadAssertion,
        *,
        client_id: str | None = None,
        scope: str | None = None,
        issuer: str | None = None,
    ) -> None:
        metadata = OAuthClientMetadata(
            redirect_uris=None, grant_types=[JWT_BEARER_GRANT_TYPE], token_endpoint_auth_method="none", scope=scope
        )
        super().__init__(server_url, metadata, storage, None, None)
        self._assertion = assertion
        self._client_id = client_id
        self._issuer = issuer
        # Set as the flow's client so it never registers; with no client id the token request names none (RFC 7523
        # §3.1: the grant itself authenticates nothing, and a workload has no registration), and the SDK's record
        # holds a stand-in, never sent (the SDK would send one only to refresh, and a workload never refreshes).
        self._fixed_client = OAuthClientInformationFull(
            client_id=client_id or NO_CLIENT_ID,
            redirect_uris=None,
            grant_types=[JWT_BEARER_GRANT_TYPE],
            token_endpoint_auth_method="none",
            issuer=issuer,
        )
        self._refused: str | None = None
        """The digest of the assertion the authorization server refused (it is not sent again)."""
        self._sent: str | None = None

    async def _initialize(self) -> None:
        self.context.current_tokens = await self.context.storage.get_tokens()
        self.context.client_info = self._fixed_client
        self._initialized = True

    def _select_authorization_server(self, advertised: list[str]) -> str:
        """The one ``--issuer`` names when the resource lists it, else the first."""
        issuer = self._issuer
        return next((server for server in advertised if issuer is not None and issuers_match(server, issuer)),
                    advertised[0])  # fmt: skip

    async def _perform_authorization(self) -> httpx2.Request:
        metadata = self.context.oauth_metadata
        if self._issuer is not None and (metadata is None or not issuers_match(str(metadata.issuer), self._issuer)):
            # (the same words as the SDK's extensions: failures.explain knows them)
            raise OAuthFlowError(f"No authorization server metadata discovered for configured issuer {self._issuer}")
        narrator = CURRENT.get(None)
        if narrator is not None:  # (the scope and the client, as a person's login tells them before the browser)
            narrator.follow_context(self.context)
            narrator.scope(self.context)
            client = f"client {self._client_id}" if self._client_id else "no client id (none is needed)"
            narrator.decision(
                "token",
                "info",
                f"a workload's login: the jwt-bearer grant with the assertion from {self._assertion.where}; {client}",
                "RFC 7523 §2.1, SEP-1933: the JWT the workload's platform issued is the grant; no registration, "
                "no browser",
            )
        assertion = read_assertion(self._assertion)
        digest = hashlib.sha256(assertion.encode()).hexdigest()
        if digest == self._refused:
            raise OAuthTokenError(
                f"the authorization server refused this assertion (from {self._assertion.where}) already: it is not "
                "sent again, nor is another grant tried (SEP-1933); a new assertion is, once the platform rotates it"
            )
        self._sent = digest
        data: dict[str, Any] = {"grant_type": JWT_BEARER_GRANT_TYPE, "assertion": assertion}
        if self._client_id:
            data["client_id"] = self._client_id
        if self.context.should_include_resource_param(self.context.protocol_version):
            data["resource"] = self.context.get_resource_url()  # RFC 8707, as SEP-1933 asks
        if self.context.client_metadata.scope:
            data["scope"] = self.context.client_metadata.scope
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        return httpx2.Request("POST", self._get_token_endpoint(), data=data, headers=headers)

    async def _handle_token_response(self, response: httpx2.Response) -> None:
        if 400 <= response.status_code < 500:  # (refused; a server error says nothing of the assertion)
            self._refused = self._sent
        await super()._handle_token_response(response)
        tokens = self.context.current_tokens
        if tokens is not None and tokens.refresh_token:
            tokens.refresh_token = None  # never refreshed: the workload presents its (fresh) assertion again


def read_assertion(source: WorkloadAssertion) -> str:
    """The assertion now: the file's content (stripped: such files often end with a newline), else the value."""
    if source.file is not None:
        try:
            text = Path(source.file).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as bad:
            raise OAuthTokenError(f"the workload's assertion could not be read from {source.file}: {bad}") from None
        if not text:
            raise OAuthTokenError(f"the workload's assertion file {source.file} is empty")
        return text
    if not source.value:
        raise OAuthTokenError("no workload assertion was given")
    return source.value
