"""The demo behind OAuth (``inspector demo-server --http --auth``): an authorization server and the demo MCP server
as its protected resource, each on its own 127.0.0.1 port (so discovery crosses origins, as it does in real
deployments), both built on the official SDK's server auth (``mcp.server.auth``).

- The authorization server is ``create_auth_routes``: RFC 8414 metadata, ``/authorize`` (PKCE S256, state, the
  redirect URI and the scope checked), ``/token`` (authorization code with PKCE, refresh tokens), ``/register``
  (RFC 7591), ``/revoke``. We add the consent page the browser lands on, and ``iss`` on every redirect (RFC 9207).
- The resource is the demo server with ``AuthSettings``: protected resource metadata (RFC 9728), 401 with
  ``resource_metadata``, tokens checked for this resource. ``demo:read`` is needed for everything; calling ``add``
  also needs ``demo:write``, asked for with a 403 ``insufficient_scope`` (a step-up).

In memory only; tokens live ``token_ttl`` seconds, refresh tokens an hour, and rotate.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import secrets
import socket
import sys
import time
from dataclasses import dataclass
from typing import Final

import uvicorn
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    OAuthAuthorizationServerProvider,
    ProviderTokenVerifier,
    RefreshToken,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.routes import create_auth_routes
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from inspector.demo.server import LOOPBACK, MCP_PATH, bind_loopback, build_server

READ: Final = "demo:read"
WRITE: Final = "demo:write"
SCOPES: Final = (READ, WRITE)
REFRESH_TTL_S: Final = 3600


@dataclass(slots=True)
class _Pending:
    client: OAuthClientInformationFull
    params: AuthorizationParams


class DemoAuthProvider(OAuthAuthorizationServerProvider[AuthorizationCode, RefreshToken, AccessToken]):
    """The SDK's authorization server provider, in memory. ``issued`` keeps every secret handed out, so tests can look
    for them where they must never be (recordings, output)."""

    def __init__(self, issuer: str, *, auto_consent: bool = False, token_ttl: int = 3600) -> None:
        self.issuer = issuer
        self.auto_consent = auto_consent
        self.token_ttl = token_ttl
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}
        self.pending: dict[str, _Pending] = {}
        self.issued: list[str] = []

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        # Registered for every demo scope, so that a later step-up to demo:write passes the AS's scope check.
        client_info.scope = " ".join(SCOPES)
        self.clients[client_info.client_id] = client_info
        if client_info.client_secret:
            self.issued.append(client_info.client_secret)

    async def authorize(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        if self.auto_consent:
            return self._approve(client, params)
        request = secrets.token_urlsafe(16)
        self.pending[request] = _Pending(client, params)
        return f"{self.issuer.rstrip('/')}/consent?request={request}"

    def _approve(self, client: OAuthClientInformationFull, params: AuthorizationParams) -> str:
        code = secrets.token_urlsafe(24)
        self.issued.append(code)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [READ],
            expires_at=time.time() + 300,
            client_id=client.client_id,
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
            subject="demo-user",
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state, iss=self.issuer)

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        code = self.codes.get(authorization_code)
        return code if code is not None and code.client_id == client.client_id else None

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        return self._issue(client.client_id, authorization_code.scopes, authorization_code.resource)

    async def load_refresh_token(self, client: OAuthClientInformationFull, refresh_token: str) -> RefreshToken | None:
        token = self.refresh.get(refresh_token)
        return token if token is not None and token.client_id == client.client_id else None

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        if refresh_token.expires_at is not None and refresh_token.expires_at < time.time():
            raise TokenError("invalid_grant", "refresh token expired")
        self.refresh.pop(refresh_token.token, None)
        return self._issue(client.client_id, scopes or refresh_token.scopes, refresh_token.resource)

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.access.get(token)
        if found is not None and found.expires_at is not None and found.expires_at < time.time():
            return None
        return found

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)

    def _issue(self, client_id: str, scopes: list[str], resource: str | None) -> OAuthToken:
        access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        self.issued += [access, refresh]
        now = int(time.time())
        self.access[access] = AccessToken(
            token=access, client_id=client_id, scopes=scopes, expires_at=now + self.token_ttl, resource=resource,
            subject="demo-user", claims={"iss": self.issuer},
        )  # fmt: skip
        self.refresh[refresh] = RefreshToken(
            token=refresh, client_id=client_id, scopes=scopes, resource=resource, expires_at=now + REFRESH_TTL_S
        )
        return OAuthToken(access_token=access, expires_in=self.token_ttl, scope=" ".join(scopes), refresh_token=refresh)

    async def consent(self, request: Request) -> Response:
        """The page the browser lands on (GET), and its answer (POST): allow, or deny (``access_denied``)."""
        form = await request.form() if request.method == "POST" else None
        key = str(form.get("request", "")) if form is not None else request.query_params.get("request", "")
        pending = self.pending.get(key)
        if pending is None:
            return HTMLResponse("<p>This login request is unknown or was already answered.</p>", status_code=400)
        if form is None:
            who = html.escape(pending.client.client_name or pending.client.client_id)
            scope = html.escape(" ".join(pending.params.scopes or []))
            return HTMLResponse(
                f"<!doctype html><meta charset=utf-8><title>inspector demo login</title><h1>inspector demo</h1>"
                f"<p>Allow <b>{who}</b> to use <code>{scope}</code> as demo-user?</p>"
                f'<form method=post><input type=hidden name=request value="{html.escape(key)}">'
                "<button name=answer value=allow>Allow</button> <button name=answer value=deny>Deny</button></form>"
            )
        del self.pending[key]
        if form.get("answer") != "allow":
            denied = construct_redirect_uri(
                str(pending.params.redirect_uri), error="access_denied", state=pending.params.state, iss=self.issuer
            )
            return RedirectResponse(denied, status_code=302)
        return RedirectResponse(self._approve(pending.client, pending.params), status_code=302)


class StepUp:
    """``tools/call add`` needs demo:write: a token without it gets 403 ``insufficient_scope`` naming the scopes,
    the way a server asks for a step-up (the SDK's resource checks only the scopes every request needs)."""

    def __init__(self, app: ASGIApp, provider: DemoAuthProvider, resource_metadata: str) -> None:
        self.app = app
        self.provider = provider
        self.resource_metadata = resource_metadata

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        if await self._needs_write(scope, body):
            challenge = (
                f'Bearer error="insufficient_scope", scope="{READ} {WRITE}", '
                f'resource_metadata="{self.resource_metadata}"'
            )
            refusal = JSONResponse(
                {"error": "insufficient_scope", "error_description": "add needs demo:write"},
                status_code=403,
                headers={"WWW-Authenticate": challenge},
            )
            await refusal(scope, replay, send)
            return
        await self.app(scope, replay, send)

    async def _needs_write(self, scope: Scope, body: bytes) -> bool:
        try:
            message = json.loads(body)
        except ValueError:
            return False
        if not isinstance(message, dict) or message.get("method") != "tools/call":
            return False
        if (message.get("params") or {}).get("name") != "add":
            return False
        header = dict(scope["headers"]).get(b"authorization", b"").decode("latin-1")
        token = await self.provider.load_access_token(header[7:]) if header.lower().startswith("bearer ") else None
        return token is not None and WRITE not in token.scopes


@dataclass(slots=True)
class AuthDemo:
    """The two servers, bound and ready to serve."""

    provider: DemoAuthProvider
    issuer: str
    mcp_url: str
    servers: list[tuple[uvicorn.Server, socket.socket]]

    async def serve(self) -> None:
        """Serve both until cancelled (or a server stops)."""
        try:
            await asyncio.gather(*(server.serve(sockets=[sock]) for server, sock in self.servers))
        finally:
            for _, sock in self.servers:
                sock.close()


def build_auth_demo(port: int = 0, as_port: int = 0, *, auto_consent: bool = False, token_ttl: int = 3600) -> AuthDemo:
    """Bind both ports and build both apps (nothing is served until ``AuthDemo.serve``)."""
    as_sock, rs_sock = bind_loopback(as_port), bind_loopback(port)
    # One spelling of the issuer everywhere (metadata, the resource's metadata, the redirect's iss): RFC 8414 and
    # RFC 9207 compare strings, and AnyHttpUrl writes an empty path as "/".
    issuer = str(AnyHttpUrl(f"http://{LOOPBACK}:{as_sock.getsockname()[1]}"))
    origin = f"http://{LOOPBACK}:{rs_sock.getsockname()[1]}"
    mcp_url = f"{origin}{MCP_PATH}"
    provider = DemoAuthProvider(issuer, auto_consent=auto_consent, token_ttl=token_ttl)
    registration = ClientRegistrationOptions(enabled=True, valid_scopes=list(SCOPES), default_scopes=[READ])
    routes = create_auth_routes(
        provider, AnyHttpUrl(issuer), client_registration_options=registration,
        revocation_options=RevocationOptions(enabled=True),
    )  # fmt: skip
    as_app = Starlette(routes=[*routes, Route("/consent", provider.consent, methods=["GET", "POST"])])
    settings = AuthSettings(
        issuer_url=AnyHttpUrl(issuer),
        resource_server_url=AnyHttpUrl(mcp_url),
        required_scopes=[READ],
        validate_token_resource=True,
    )
    server = build_server(auth=settings, token_verifier=ProviderTokenVerifier(provider))

    @server.tool(description="Who the token says you are (needs demo:read)")
    def whoami() -> str:
        return "demo-user"

    app = server.streamable_http_app(streamable_http_path=MCP_PATH, host=LOOPBACK)
    protected = StepUp(app, provider, f"{origin}/.well-known/oauth-protected-resource{MCP_PATH}")
    servers = [
        (uvicorn.Server(uvicorn.Config(as_app, log_level="warning", lifespan="off")), as_sock),
        (uvicorn.Server(uvicorn.Config(protected, log_level="warning", lifespan="on")), rs_sock),
    ]
    return AuthDemo(provider, issuer, mcp_url, servers)


def run_auth_http(port: int, as_port: int, *, auto_consent: bool, token_ttl: int) -> None:
    """``inspector demo-server --http --auth``: serve until interrupted; the two URLs go to stderr."""
    demo = build_auth_demo(port, as_port, auto_consent=auto_consent, token_ttl=token_ttl)
    # one line: a reader waiting for it sees both URLs at once
    print(
        f"inspector demo server (OAuth) on {demo.mcp_url} ; authorization server {demo.issuer}",
        file=sys.stderr,
        flush=True,
    )
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(demo.serve())
