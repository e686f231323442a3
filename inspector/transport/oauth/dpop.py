"""DPoP for one transport (RFC 9449; SEP-1932): whether its logins bind their tokens to a key, the key of the
current login, the nonces its servers gave, and which tokens are bound; the proofs it adds to token requests and to
MCP requests, and a server's request for a nonce answered once. Every choice, proof and nonce is told to the
login's narrator as a ``dpop`` step.

The SDK knows nothing of DPoP (its token model takes ``token_type`` Bearer only, and it writes ``Authorization:
Bearer``), so this sits between it and the wire: a token answer of type DPoP is remembered as bound and handed to
the SDK as Bearer; a request the SDK (or the transport) gives a bound token is sent as ``Authorization: DPoP`` with
a fresh proof. The key is made per login and lives in this process only; so a bound token is never stored
(``storage.StagedStorage.keep_in_memory``): without the key it is worth nothing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from inspector.protocol.oauth_dpop import (
    DPOP_HEADER,
    NONCE_HEADER,
    SIGNING_ALG,
    TOKEN_TYPE,
    DpopMode,
    Offer,
    advertised,
    choose,
    htu,
    origin,
    resource_asks_nonce,
    server_asks_nonce,
)

if TYPE_CHECKING:
    import httpx

    from inspector.protocol.oauth import Challenge, Step
    from inspector.transport.oauth.dpop_key import DpopKey
    from inspector.transport.oauth.narrator import Narrator

BOUND_WHY = (
    "RFC 9449: a bound token is presented as 'Authorization: DPoP', each request with a fresh proof signed by the "
    "key (its hash in ath); a copy of the token is worth nothing without the key"
)
IN_MEMORY = "it is DPoP-bound, and its key is made per login and never leaves this process"


class DpopBinding:
    """One transport's DPoP (see the module docstring)."""

    def __init__(self, mode: DpopMode) -> None:
        self.mode: DpopMode = mode
        self._key: DpopKey | None = None
        """The current login's key (None: its token is not bound)."""
        self._nonces: dict[str, str] = {}
        """The latest ``DPoP-Nonce`` each server (origin) gave."""
        self._bound: set[str] = set()
        """The access tokens issued as DPoP to a key of ours."""
        self._server_algs: tuple[str, ...] | None = None
        self._resource_algs: tuple[str, ...] | None = None
        self._resource_requires = False

    # ------------------------------------------------------------------------------------------------ the login
    def observe(self, step: Step, status: int, body: bytes) -> None:
        """What a metadata answer says about DPoP (the SDK's metadata model drops the authorization server's
        ``dpop_signing_alg_values_supported``, so it is read off the answer itself)."""
        if status != 200 or step not in ("authorization-server-metadata", "protected-resource-metadata"):
            return
        try:
            value = json.loads(body)
        except (ValueError, RecursionError):
            return
        if not isinstance(value, dict):
            return
        if step == "authorization-server-metadata":
            self._server_algs = advertised(value)
        else:
            self._resource_algs = advertised(value)
            self._resource_requires = value.get("dpop_bound_access_tokens_required") is True

    def before_token(self, step: Step, request: httpx.Request, challenge: Challenge | None, narrator: Narrator) -> bool:
        """A token request is about to leave. A new login's (``token``) decides whether to bind, with a new key;
        then, bound, the request carries a proof (a refresh too: a public client's refresh token is bound to the
        key). Returns whether it carries one."""
        if step == "token":
            self._key = None
            self._bound.clear()  # (a new login's token replaces them, and the key that proved them is gone)
            offer = Offer(
                self._server_algs,
                self._resource_algs,
                self._resource_requires,
                challenge.schemes if challenge is not None else frozenset(),
            )
            choice = choose(self.mode, offer)
            if choice.bind:
                from inspector.transport.oauth.dpop_key import DpopKey

                self._key = DpopKey()
                narrator.decision(
                    "dpop",
                    "ok",
                    f"the token is to be bound to a new {SIGNING_ALG} key (thumbprint {self._key.thumbprint}): "
                    "each token request and each request to the server carries a proof signed with it",
                    f"{choice.why}; the key lives in this process only, so this login's token is not stored",
                )
            elif choice.said:
                narrator.decision("dpop", "info", f"no DPoP: {choice.why}")
        if self._key is None:
            return False
        url = str(request.url)
        nonce = self._nonces.get(origin(url))
        request.headers[DPOP_HEADER] = self._key.proof(request.method, url, nonce=nonce)
        carried = ", carrying the authorization server's nonce" if nonce else ""
        narrator.decision("dpop", "info", f"a fresh proof for {request.method} {htu(url)}{carried}")
        return True

    def server_asked_nonce(self, request: httpx.Request, response: httpx.Response, body: bytes) -> bool:
        """Did the token endpoint ask for a nonce (then the request is given a new proof carrying it, to be sent
        again once)? Any nonce it gave is kept either way."""
        nonce = self._learn(str(request.url), response.headers)
        if self._key is None or DPOP_HEADER not in request.headers:
            return False
        if not server_asks_nonce(response.status_code, body, nonce):
            return False
        url = str(request.url)
        request.headers[DPOP_HEADER] = self._key.proof(request.method, url, nonce=nonce)
        return True

    def token_answer(self, status: int, body: bytes, narrator: Narrator) -> bytes:
        """A token answer: one of type DPoP to our proof is remembered as bound, and handed on (to the SDK, whose
        token model takes Bearer only) as Bearer; told either way when a proof was sent."""
        if status not in (200, 201) or self._key is None:
            return body
        try:
            value = json.loads(body)
        except (ValueError, RecursionError):
            return body
        if not isinstance(value, dict) or not isinstance(value.get("access_token"), str):
            return body
        kind = value.get("token_type")
        if isinstance(kind, str) and kind.lower() == TOKEN_TYPE.lower():
            self._bound.add(value["access_token"])
            narrator.decision(
                "dpop",
                "ok",
                f"the token is DPoP-bound (token_type DPoP) to key {self._key.thumbprint}: it is presented as "
                "'Authorization: DPoP' with a fresh proof on each request",
                BOUND_WHY,
            )
            return json.dumps({**value, "token_type": "Bearer"}).encode()
        narrator.decision(
            "dpop",
            "info",
            f"the authorization server answered token_type {kind!r}, not DPoP, despite the proof: the token is not "
            "bound, and is sent as Bearer",
        )
        return body

    # ------------------------------------------------------------------------------------------------ requests
    def bound(self, token: str) -> bool:
        """Is this access token bound to our key (so it must go as DPoP, with a proof)?"""
        return self._key is not None and token in self._bound

    def why_in_memory(self, token: str) -> str | None:
        """Why this token must not be stored (None: it may be)."""
        return IN_MEMORY if token in self._bound else None

    def credentials(self, method: str, url: str, token: str) -> dict[str, str]:
        """The headers that present ``token`` on a request: ``Authorization: DPoP`` and a fresh proof when it is
        bound, else ``Authorization: Bearer``."""
        key = self._key
        if key is None or token not in self._bound:
            return {"Authorization": f"Bearer {token}"}
        proof = key.proof(method, url, access_token=token, nonce=self._nonces.get(origin(url)))
        return {"Authorization": f"{TOKEN_TYPE} {token}", DPOP_HEADER: proof}

    def present(self, request: httpx.Request, token: str | None) -> None:
        """Put ``token`` on ``request`` the way it must go (no token: neither header)."""
        request.headers.pop("authorization", None)
        request.headers.pop(DPOP_HEADER, None)
        if token is not None:
            request.headers.update(self.credentials(request.method, str(request.url), token))

    def tell_presented(self, request: httpx.Request, narrator: Narrator) -> None:
        """Say how the login's retry presents its token, when it is bound."""
        if DPOP_HEADER in request.headers and self._key is not None:
            narrator.decision(
                "dpop",
                "info",
                f"the request goes as 'Authorization: DPoP' with a fresh proof for {request.method} "
                f"{htu(str(request.url))} (its ath: the token's hash; key {self._key.thumbprint})",
            )

    async def send(self, client: httpx.AsyncClient, request: httpx.Request, narrator: Narrator) -> httpx.Response:
        """Send an MCP request (streaming) and keep any nonce the server gives; a server that asks for a nonce
        (RFC 9449 §9: 401, ``use_dpop_nonce``) gets the request again, once, with a new proof carrying it."""
        response = await client.send(request, stream=True)
        nonce = self._learn(str(request.url), response.headers)
        asked = resource_asks_nonce(response.status_code, response.headers.get("www-authenticate"), nonce)
        if not asked or DPOP_HEADER not in request.headers or self._key is None:
            return response
        await response.aclose()
        narrator.decision(
            "dpop",
            "info",
            "the server asks for a DPoP nonce (401, use_dpop_nonce): the request is sent again, once, with a new "
            "proof carrying it",
            "RFC 9449 §9: a resource server may require a nonce it chose in each proof",
        )
        token = request.headers.get("authorization", "").partition(" ")[2]
        self.present(request, token or None)
        response = await client.send(request, stream=True)
        self._learn(str(request.url), response.headers)
        return response

    def still_asks_nonce(self, response: httpx.Response) -> bool:
        """After the one retry: does the server still ask for a nonce (so no login would help)?"""
        nonce = response.headers.get(NONCE_HEADER)
        return self._key is not None and resource_asks_nonce(
            response.status_code, response.headers.get("www-authenticate"), nonce
        )

    def _learn(self, url: str, headers: httpx.Headers) -> str | None:
        """Keep the nonce a server gave (RFC 9449 §8.2: any answer may carry a new one)."""
        nonce: str | None = headers.get(NONCE_HEADER)
        if nonce:
            self._nonces[origin(url)] = nonce
        return nonce
