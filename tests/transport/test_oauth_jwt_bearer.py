"""The workload's jwt-bearer grant (RFC 7523 §2.1, SEP-1933), in process: the SDK's flow of
``JwtBearerGrantProvider`` driven by hand with the answers a server would give (as ``FlowRun`` drives it): the
token request it makes, an assertion read afresh from its file, a refused assertion never sent again (nor another
grant tried), and no refresh token kept.

The same against a real authorization server (the conformance suite's ``auth/wif-jwt-bearer``, through the adapter
and through the CLI's ``--jwt-bearer-assertion-file``): ``tests/interop/test_conformance_dpop_wif.py``.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx2
import pytest
from mcp.client.auth import OAuthTokenError

from inspector.transport.oauth.config import Credentials, WorkloadAssertion
from inspector.transport.oauth.jwt_bearer import JwtBearerGrantProvider, read_assertion
from inspector.transport.oauth.storage import StagedStorage
from inspector.transport.oauth.token_store import open_store

SERVER = "https://mcp.example/mcp"
ISSUER = "https://as.example/"
PRM_URL = "https://mcp.example/.well-known/oauth-protected-resource/mcp"
GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"


def provider(assertion: WorkloadAssertion, client_id: str | None = "workload-1") -> JwtBearerGrantProvider:
    storage = StagedStorage(open_store("memory"), SERVER, Credentials(client_id), None)
    return JwtBearerGrantProvider(SERVER, storage, assertion, client_id=client_id)


async def to_the_token_request(
    flow: AsyncGenerator[httpx2.Request, httpx2.Response],
) -> httpx2.Request:
    """Answer the flow as the servers would, from the MCP request's 401 to the authorization server's metadata;
    returns what the flow asks next."""
    request = await flow.__anext__()
    answers: list[tuple[int, dict[str, str], Any]] = [
        (401, {"WWW-Authenticate": f'Bearer resource_metadata="{PRM_URL}"'}, None),
        (200, {}, {"resource": SERVER, "authorization_servers": [ISSUER]}),
        (
            200,
            {},
            {"issuer": ISSUER, "authorization_endpoint": f"{ISSUER}authorize", "token_endpoint": f"{ISSUER}token"},
        ),
    ]
    for status, headers, body in answers:
        request = await flow.asend(httpx2.Response(status, headers=headers, json=body, request=request))
    return request


def form(request: httpx2.Request) -> dict[str, str]:
    return dict(parse_qsl(request.read().decode()))


def mcp_request() -> httpx2.Request:
    return httpx2.Request("POST", SERVER, headers={"MCP-Protocol-Version": "2025-11-25"}, content=b"{}")


async def test_the_token_request_is_the_jwt_bearer_grant_with_the_assertion_read_from_its_file(tmp_path: Path) -> None:
    file = tmp_path / "token"
    file.write_text("header.claims.first\n")
    auth = provider(WorkloadAssertion(file=str(file)))
    flow = auth.async_auth_flow(mcp_request())
    token = await to_the_token_request(flow)
    assert (token.method, str(token.url)) == ("POST", f"{ISSUER}token")
    assert form(token) == {"grant_type": GRANT, "assertion": "header.claims.first", "client_id": "workload-1",
                           "resource": SERVER}  # fmt: skip
    assert "authorization" not in token.headers, "no client authentication: the assertion is the grant"
    answer = {"access_token": "workload-token", "token_type": "Bearer", "refresh_token": "never-used"}
    retry = await flow.asend(httpx2.Response(200, json=answer, request=token))
    assert retry.headers["authorization"] == "Bearer workload-token"
    assert auth.context.current_tokens is not None and auth.context.current_tokens.refresh_token is None
    await flow.aclose()


async def test_a_refused_assertion_is_not_sent_again_but_a_rotated_one_is(tmp_path: Path) -> None:
    file = tmp_path / "token"
    file.write_text("header.claims.refused")
    auth = provider(WorkloadAssertion(file=str(file)), client_id=None)
    flow = auth.async_auth_flow(mcp_request())
    token = await to_the_token_request(flow)
    assert "client_id" not in form(token), "no client id given: none is sent (a workload needs no registration)"
    with pytest.raises(OAuthTokenError):
        await flow.asend(httpx2.Response(400, json={"error": "invalid_grant"}, request=token))
    again = auth.async_auth_flow(mcp_request())
    with pytest.raises(OAuthTokenError, match="not sent again"):
        await to_the_token_request(again)  # the metadata is read again; the same assertion is not sent
    file.write_text("header.claims.rotated")
    rotated = auth.async_auth_flow(mcp_request())
    token = await to_the_token_request(rotated)
    assert form(token)["assertion"] == "header.claims.rotated"
    await rotated.aclose()


def test_the_assertion_is_read_as_the_platform_wrote_it(tmp_path: Path) -> None:
    file = tmp_path / "token"
    file.write_text("  a.b.c\n")
    assert read_assertion(WorkloadAssertion(file=str(file))) == "a.b.c"
    assert read_assertion(WorkloadAssertion(value="x.y.z")) == "x.y.z"
    file.write_text("\n")
    with pytest.raises(OAuthTokenError, match="is empty"):
        read_assertion(WorkloadAssertion(file=str(file)))
    with pytest.raises(OAuthTokenError, match="could not be read"):
        read_assertion(WorkloadAssertion(file=str(tmp_path / "missing")))
    assert "x.y.z" not in repr(WorkloadAssertion(value="x.y.z"))
    assert Credentials(assertion=WorkloadAssertion(value="x.y.z")).secrets() == ["x.y.z"]


def test_the_sdk_hooks_the_grant_overrides_are_there() -> None:
    """``JwtBearerGrantProvider`` overrides the provider's hooks the SDK's client-credentials extension overrides:
    if an SDK upgrade renames or drops one, the grant would silently become the authorization-code flow."""
    import inspect

    from mcp.client.auth import OAuthClientProvider
    from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider

    for hook in ("_initialize", "_perform_authorization", "_handle_token_response"):
        assert inspect.iscoroutinefunction(getattr(OAuthClientProvider, hook)), hook
    assert callable(OAuthClientProvider._select_authorization_server)
    assert {"_initialize", "_perform_authorization", "_select_authorization_server"} <= set(
        vars(ClientCredentialsOAuthProvider)
    ), "the SDK's own extension still overrides these"
    source = inspect.getsource(OAuthClientProvider._auth_flow)
    assert "await self._perform_authorization()" in source and "self._handle_token_response(" in source
