"""What ``transport/oauth`` relies on in the official SDK's client OAuth (``mcp`` is pinned): if an upgrade moves
any of it, these fail first and say what moved, rather than a login failing somewhere later."""

from __future__ import annotations

import dataclasses
import inspect
import time
from typing import Any

import httpx2
from mcp.client.auth import OAuthClientProvider
from mcp.client.auth.oauth2 import OAuthContext
from mcp.shared._httpx_utils import RedirectAwareAuth
from mcp.shared.auth import OAuthClientInformationFull, OAuthMetadata, OAuthToken

from inspector.protocol.oauth_record import LoginRecord
from inspector.transport.oauth.config import AuthConfig, Credentials
from inspector.transport.oauth.provider import InspectorOAuthContext, InspectorOAuthProvider, client_metadata
from inspector.transport.oauth.storage import StagedStorage
from inspector.transport.oauth.token_store import open_store

SERVER = "https://mcp.example/mcp"
ISSUER = "https://as.example/"


async def nothing(*_: Any) -> Any:
    return None


def provider(record: LoginRecord | None = None) -> InspectorOAuthProvider:
    credentials = Credentials()
    config = AuthConfig(open_store("memory"), None, credentials)
    storage = StagedStorage(config.store, SERVER, credentials, record)
    return InspectorOAuthProvider(
        SERVER, client_metadata(config, "http://127.0.0.1:4711/callback"), storage, nothing, nothing, None
    )


def test_the_context_and_provider_have_what_we_use() -> None:
    names = {f.name for f in dataclasses.fields(OAuthContext)}
    used = {
        "server_url", "client_metadata", "storage", "redirect_handler", "callback_handler", "client_metadata_url",
        "protected_resource_metadata", "oauth_metadata", "auth_server_url", "client_info", "current_tokens",
        "token_expiry_time", "lock",
    }  # fmt: skip
    assert used <= names, used - names
    for method in ("is_token_valid", "can_refresh_token", "prepare_token_auth"):
        assert callable(getattr(OAuthContext, method))
    assert inspect.iscoroutinefunction(OAuthClientProvider._initialize)
    assert "_initialized" in inspect.getsource(OAuthClientProvider.__init__)
    assert issubclass(OAuthClientProvider, RedirectAwareAuth) and OAuthClientProvider.requires_response_body


async def test_the_flow_yields_the_request_it_was_given() -> None:
    """``FlowRun`` recognises the MCP request by identity among what the flow yields."""
    auth = provider()
    request = httpx2.Request("POST", SERVER, headers={"MCP-Protocol-Version": "2026-07-28"}, content=b"{}")
    flow = auth.async_auth_flow(request)
    try:
        assert await flow.__anext__() is request
    finally:
        await flow.aclose()


def test_a_pre_registered_client_authenticates_as_the_server_offers() -> None:
    def method(offered: list[str] | None) -> str | None:
        context = provider().context
        assert isinstance(context, InspectorOAuthContext)
        context.client_info = OAuthClientInformationFull(client_id="c", client_secret="s", redirect_uris=None)
        context.oauth_metadata = OAuthMetadata.model_validate(
            {
                "issuer": ISSUER,
                "authorization_endpoint": f"{ISSUER}authorize",
                "token_endpoint": f"{ISSUER}token",
                "token_endpoint_auth_methods_supported": offered,
            }
        )
        data, headers = context.prepare_token_auth({"client_id": "c"}, {})
        return "basic" if "Authorization" in headers else "post" if "client_secret" in data else None

    assert method(None) == "basic"  # RFC 6749 §2.3.1: every server must take Basic
    assert method(["client_secret_basic", "client_secret_post"]) == "basic"
    assert method(["client_secret_post"]) == "post"


async def test_a_restart_restores_the_expiry_and_the_metadata() -> None:
    record = LoginRecord(
        server=SERVER,
        issuer=ISSUER,
        registration="dynamic",
        client={"client_id": "c1", "redirect_uris": ["http://127.0.0.1:4711/callback"]},
        tokens=OAuthToken(access_token="a", refresh_token="r", expires_in=60).model_dump(mode="json"),
        expires_at=time.time() - 5,
        as_metadata={"issuer": ISSUER, "authorization_endpoint": f"{ISSUER}a", "token_endpoint": f"{ISSUER}t"},
        prm={"resource": SERVER, "authorization_servers": [ISSUER]},
        auth_server_url=ISSUER,
    )
    auth = provider(record)
    await auth.load()
    context = auth.context
    assert context.current_tokens is not None and not context.is_token_valid(), "expired: the SDK alone says valid"
    assert context.can_refresh_token()
    assert context.oauth_metadata is not None and str(context.oauth_metadata.token_endpoint) == f"{ISSUER}t"
    assert context.protected_resource_metadata is not None and context.auth_server_url == ISSUER
