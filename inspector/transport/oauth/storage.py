"""The SDK's ``TokenStorage`` over our credential store, staged: nothing is written until a login has its tokens.

The SDK stores a new client registration as soon as the registration answers, before the person has authorized;
a login that then fails would leave a registration behind. Here a registration waits in memory and is written
with the tokens, in one save, together with what the SDK keeps only in memory (the token's expiry and the
discovered metadata: without them a later process would think an expired token valid, and refresh at a guessed
endpoint).

Some tokens are kept in this process only (``keep_in_memory`` says why): a DPoP-bound one (its key never leaves
the process) and a workload's (SEP-1933: a workload presents its assertion again rather than keep tokens). Then
only a dynamic registration is written, without tokens, and any older stored login for the server is dropped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

from inspector.protocol.oauth import NOT_STORED
from inspector.protocol.oauth_record import LoginRecord, Registration
from inspector.transport.oauth.narrator import CURRENT

if TYPE_CHECKING:
    from mcp.client.auth.oauth2 import OAuthContext

    from inspector.transport.oauth.config import Credentials, CredentialStore


@dataclass(eq=False)
class StagedStorage:
    """One server's login as the SDK reads and writes it (``mcp.client.auth.TokenStorage``)."""

    store: CredentialStore
    server: str
    credentials: Credentials
    record: LoginRecord | None
    """The login as stored (read once by the driver)."""
    forget_stored_client: bool = field(default=False, init=False)
    """Set when the stored registration cannot be used (its callback port is taken): register again."""
    _staged: OAuthClientInformationFull | None = field(default=None, init=False, repr=False)
    context: OAuthContext | None = field(default=None, init=False, repr=False)
    """The provider's context, for what the SDK does not hand to ``set_tokens`` (expiry, metadata)."""
    keep_in_memory: Callable[[OAuthToken], str | None] = field(
        default_factory=lambda: _may_be_stored, init=False, repr=False
    )
    """Why these tokens must not be written (None: they may be); set by ``machinery.build``."""

    async def get_tokens(self) -> OAuthToken | None:
        tokens = self.record.tokens if self.record is not None else None
        return OAuthToken.model_validate(tokens) if tokens else None

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        if self._staged is not None:
            return self._staged
        given = self.credentials
        if given.client_id and (self.record is None or self.record.client_id != given.client_id):
            # a pre-registered client named on the command line wins over whatever was stored
            return OAuthClientInformationFull(
                client_id=given.client_id,
                client_secret=given.client_secret,
                redirect_uris=None,
                issuer=given.issuer,
            )
        if self.record is not None and self.record.client and not self.forget_stored_client:
            return OAuthClientInformationFull.model_validate(self.record.client)
        return None

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self._staged = client_info  # written with the tokens, or never

    async def set_tokens(self, tokens: OAuthToken) -> None:
        client = await self.get_client_info()
        context = self.context
        if client is None and context is not None:
            client = context.client_info
        expiry = context.token_expiry_time if context is not None else None
        if expiry is None and tokens.expires_in:
            expiry = time.time() + tokens.expires_in
        metadata = context.oauth_metadata if context is not None else None
        prm = context.protected_resource_metadata if context is not None else None
        record = LoginRecord(
            server=self.server,
            issuer=(context.auth_server_url if context is not None else None)
            or (client.issuer if client is not None else None)
            or (str(metadata.issuer) if metadata is not None else None),
            registration=self._registration(client),
            client=client.model_dump(mode="json", exclude_none=True) if client is not None else {},
            tokens=tokens.model_dump(mode="json", exclude_none=True),
            expires_at=expiry,
            as_metadata=metadata.model_dump(mode="json", exclude_none=True) if metadata is not None else None,
            prm=prm.model_dump(mode="json", exclude_none=True) if prm is not None else None,
            auth_server_url=context.auth_server_url if context is not None else None,
            saved_at=time.time(),
        )
        why = self.keep_in_memory(tokens)
        if why is None:
            self.store.save(record)
        else:
            self._keep_out(record, why)
        self.record = record
        self._staged = None

    def _keep_out(self, record: LoginRecord, why: str) -> None:
        """Tokens that stay in this process: a dynamic registration is still written (the next login reuses it),
        without them; an older login for the server is dropped (a later process must not take it for this one)."""
        if record.registration == "dynamic":
            self.store.save(record.without_tokens())
        else:
            self.store.delete(self.server)
        narrator = CURRENT.get(None)
        if narrator is not None:
            narrator.decision("token", "info", f"{NOT_STORED}: {why}")

    def drop_tokens(self) -> None:
        """The authorization server refused the refresh token: keep the registration, forget the tokens."""
        if self.record is not None and self.record.tokens is not None:
            self.record = self.record.without_tokens()
            self.store.save(self.record)

    def discard_staged(self) -> None:
        """A login failed: the registration it made is forgotten with it."""
        self._staged = None

    def _registration(self, client: OAuthClientInformationFull | None) -> Registration:
        if client is None:
            return "dynamic"
        if not self.credentials.needs_person:
            return "pre-registered"  # (a grant with no person in it is given its client, never registers one)
        if self.credentials.client_metadata_url and client.client_id == self.credentials.client_metadata_url:
            return "cimd"
        if self.credentials.client_id and client.client_id == self.credentials.client_id:
            return "pre-registered"
        if self.record is not None and self.record.client_id == client.client_id:
            return self.record.registration
        return "dynamic"


def _may_be_stored(tokens: OAuthToken) -> str | None:
    """Tokens may be written (no reason to keep them in memory only)."""
    return None
