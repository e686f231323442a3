"""The SDK side of a login, built the first time a server asks for one (importing the SDK costs most of a second,
so a transport that is never challenged never pays it): the staged storage, the callback's port, the authorizer,
the gate its addresses pass, and the SDK provider for the grant the credentials name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.transport.oauth.authorize import Authorizer
from inspector.transport.oauth.callback import CallbackPortTaken, LoopbackCallback
from inspector.transport.oauth.gate import LoginUrlGate
from inspector.transport.oauth.provider import InspectorOAuthProvider, client_metadata
from inspector.transport.oauth.storage import StagedStorage

if TYPE_CHECKING:
    import httpx2
    from mcp.client.auth.oauth2 import OAuthContext
    from mcp.shared.auth import OAuthToken

    from inspector.protocol.oauth_record import LoginRecord
    from inspector.transport.oauth.config import AuthConfig
    from inspector.transport.oauth.dpop import DpopBinding
    from inspector.transport.oauth.exchanges import LoginExchanges


@dataclass(slots=True)
class Machinery:
    """What runs a login for one transport."""

    auth: httpx2.Auth
    storage: StagedStorage
    gate: LoginUrlGate
    """Holds the browser and the token requests until the warnings about their addresses are accepted."""
    authorizer: Authorizer | None
    """None for grants with no person in them (client credentials)."""
    provider: InspectorOAuthProvider | None
    """The authorization-code provider (None: an extension provider drives ``auth``)."""

    @property
    def context(self) -> OAuthContext | None:
        context = getattr(self.auth, "context", None)
        return context

    def locked(self) -> bool:
        """Is a flow running (so a token read now may be about to change)?"""
        context = self.context
        return context is not None and context.lock.locked()

    async def load(self) -> None:
        loader = getattr(self.auth, "_initialize", None)
        if self.provider is not None:
            await self.provider.load()
        elif loader is not None and not getattr(self.auth, "_initialized", True):
            await loader()


def build(
    config: AuthConfig,
    server: str,
    record: LoginRecord | None,
    exchanges: LoginExchanges,
    dpop: DpopBinding,
) -> Machinery:
    """The machinery for ``config``'s grant (``dpop``: the transport's DPoP, which says which tokens are bound)."""
    storage = StagedStorage(config.store, server, config.credentials, record)
    workload = config.credentials.grant == "jwt_bearer"

    def keep_in_memory(tokens: OAuthToken) -> str | None:
        """A bound token is worth nothing without the key, which never leaves the process; a workload's token is
        not to be kept (SEP-1933)."""
        if workload:
            from inspector.transport.oauth.jwt_bearer import NOT_STORED

            return NOT_STORED
        return dpop.why_in_memory(tokens.access_token)

    storage.keep_in_memory = keep_in_memory
    gate = LoginUrlGate(server, config.consent, config.login_timeout)
    if config.credentials.grant != "authorization_code":
        from inspector.transport.oauth.extensions import extension_auth

        return Machinery(extension_auth(config, server, storage, exchanges), storage, gate, None, None)
    callback = _callback(config, record, storage)
    authorizer = Authorizer(config, server, callback, exchanges, gate)
    provider = InspectorOAuthProvider(
        server,
        client_metadata(config, callback.redirect_uri),
        storage,
        authorizer.redirect_handler,
        authorizer.callback_handler,
        config.credentials.client_metadata_url,
    )
    authorizer.context = provider.context
    return Machinery(provider, storage, gate, authorizer, provider)


def _callback(config: AuthConfig, record: LoginRecord | None, storage: StagedStorage) -> LoopbackCallback:
    """The loopback callback on the port the redirect URI must name: the one asked for, else the one the stored
    registration names (the authorization server compares redirect URIs exactly), else a free one. The port is only
    looked at here; it listens during a login and nowhere else."""
    stored = record.redirect_port if record is not None else None
    callback = LoopbackCallback(config.callback_port or stored or 0)
    try:
        callback.reserve()
    except CallbackPortTaken:
        if config.callback_port:
            raise
        storage.forget_stored_client = True  # its redirect URI names a port that is not ours now: register again
        callback = LoopbackCallback(0)
        callback.reserve()
    callback.close()
    return callback
