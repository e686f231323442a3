"""The official SDK's client OAuth (``mcp.client.auth``), with the three things it does not do for us.

This is the only module that reaches into the SDK's internals (``OAuthClientProvider.context`` and
``_initialize``); ``tests/transport/test_oauth_sdk_touch_points.py`` fails loudly when an SDK upgrade moves them.

1. A pre-registered client's record says no token-endpoint auth method, and the SDK then sends no client
   authentication at all: we pick one from what the authorization server offers (``client_secret_basic`` when it
   offers it or says nothing, RFC 6749 §2.3.1 makes it mandatory for servers; else ``client_secret_post``).
2. The SDK restores tokens but not their expiry nor the discovered metadata: a restarted process would send an
   expired token and refresh at ``{server origin}/token``. We restore both from our record.
3. The redirect URI is fixed when the provider is made, so it is given here, from the callback's port.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING

from mcp.client.auth import OAuthClientProvider
from mcp.client.auth.oauth2 import OAuthContext
from mcp.shared.auth import OAuthClientMetadata, OAuthMetadata, ProtectedResourceMetadata

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from mcp.shared.auth import AuthorizationCodeResult

    from inspector.transport.oauth.config import AuthConfig
    from inspector.transport.oauth.storage import StagedStorage


class InspectorOAuthContext(OAuthContext):
    """The SDK's context, choosing a pre-registered client's token-endpoint auth method by the server's offer."""

    def prepare_token_auth(
        self, data: dict[str, str], headers: dict[str, str] | None = None
    ) -> tuple[dict[str, str], dict[str, str]]:
        info = self.client_info
        if info is not None and info.token_endpoint_auth_method is None and info.client_secret:
            offered = (self.oauth_metadata.token_endpoint_auth_methods_supported if self.oauth_metadata else None) or []
            method = (
                "client_secret_post"
                if offered and "client_secret_basic" not in offered and "client_secret_post" in offered
                else "client_secret_basic"
            )
            self.client_info = info.model_copy(update={"token_endpoint_auth_method": method})
        return super().prepare_token_auth(data, headers)


class InspectorOAuthProvider(OAuthClientProvider):
    """``OAuthClientProvider`` with our context and a restore of what the SDK forgets across processes."""

    def __init__(
        self,
        server_url: str,
        client_metadata: OAuthClientMetadata,
        storage: StagedStorage,
        redirect_handler: Callable[[str], Awaitable[None]],
        callback_handler: Callable[[], Awaitable[AuthorizationCodeResult]],
        client_metadata_url: str | None,
    ) -> None:
        super().__init__(
            server_url,
            client_metadata,
            storage,
            redirect_handler=redirect_handler,
            callback_handler=callback_handler,
            client_metadata_url=client_metadata_url,
        )
        sdk = self.context
        self.context = InspectorOAuthContext(**{f.name: getattr(sdk, f.name) for f in fields(sdk) if f.init})
        self.storage = storage
        storage.context = self.context

    async def _initialize(self) -> None:
        await super()._initialize()
        record = self.storage.record
        context = self.context
        if record is None:
            return
        if record.tokens is not None and context.current_tokens is not None:
            context.token_expiry_time = record.expires_at
        if record.as_metadata and context.oauth_metadata is None:
            context.oauth_metadata = OAuthMetadata.model_validate(record.as_metadata)
        if record.prm and context.protected_resource_metadata is None:
            context.protected_resource_metadata = ProtectedResourceMetadata.model_validate(record.prm)
        if record.auth_server_url and context.auth_server_url is None:
            context.auth_server_url = record.auth_server_url

    @property
    def initialized(self) -> bool:
        """Has the provider read the stored login yet?"""
        return self._initialized

    async def load(self) -> None:
        """Read the stored login now (the driver's fast path reads the token before any flow ran)."""
        if not self._initialized:
            await self._initialize()

    def expire_token(self) -> None:
        """Treat the current token as expired, so the next flow refreshes it before anything else."""
        self.context.token_expiry_time = 1.0  # (0 would read as "no expiry")


def client_metadata(config: AuthConfig, redirect_uri: str) -> OAuthClientMetadata:
    """What we register as: a native app with a loopback redirect. No token-endpoint auth method is asked for,
    so the authorization server's registration answer decides it (RFC 7591 §2)."""
    return OAuthClientMetadata(
        redirect_uris=[redirect_uri],  # type: ignore[list-item]
        client_name=config.client_name,
        scope=config.credentials.scope,
    )
