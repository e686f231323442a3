"""DPoP (RFC 9449) in the login, in process: the proofs a login's key signs (verified with PyJWT from the public key
in their own header, as a server does), when a login binds its token (``protocol.oauth_dpop.choose``), how a bound
token goes on a request, the token endpoint's nonce, and a bound token never written to the credential store.

The same against real servers (the conformance suite's DPoP scenarios, through the adapter and through the CLI's
``--dpop``): ``tests/interop/test_conformance_dpop_wif.py``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

import httpx
import jwt
import pytest
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

from inspector.protocol.oauth import Challenge, auth_schemes
from inspector.protocol.oauth_dpop import Offer, b64url, choose, htu, resource_asks_nonce
from inspector.transport.base import AuthEvent, TransportEvent
from inspector.transport.oauth.config import Credentials
from inspector.transport.oauth.dpop import DpopBinding
from inspector.transport.oauth.dpop_key import DpopKey
from inspector.transport.oauth.narrator import CURRENT, Narrator
from inspector.transport.oauth.storage import StagedStorage
from inspector.transport.oauth.token_store import open_store

SERVER = "https://mcp.example/mcp"
TOKEN_URL = "https://as.example/token"
NOW = 1_800_000_000.0


@dataclass
class Told:
    """A narrator's events, kept."""

    events: list[TransportEvent] = field(default_factory=list)

    def narrator(self) -> Narrator:
        return Narrator(self.events.append, lambda: 0.0, 1, SERVER)

    def steps(self) -> list[tuple[str, str, str]]:
        return [(e.step, e.outcome, e.what) for e in self.events if isinstance(e, AuthEvent)]


def verified(proof: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The proof's header and claims, its signature checked with the key its own header carries (as a server does)."""
    header = jwt.get_unverified_header(proof)
    key = jwt.PyJWK(header["jwk"], algorithm="ES256").key
    claims = jwt.decode(proof, key, algorithms=["ES256"], options={"verify_iat": False})
    return header, claims


def rfc7638(jwk: dict[str, str]) -> str:
    """The thumbprint computed here from the RFC's words: the required members, sorted, no whitespace, SHA-256."""
    text = '{"crv":"%s","kty":"%s","x":"%s","y":"%s"}' % (jwk["crv"], jwk["kty"], jwk["x"], jwk["y"])  # noqa: UP031
    return b64url(hashlib.sha256(text.encode()).digest())


def test_a_proof_is_a_fresh_es256_jwt_carrying_the_public_key_only() -> None:
    key = DpopKey(wall_clock=lambda: NOW)
    first = key.proof("post", f"{SERVER}?tenant=a#frag", access_token="the-access-token", nonce="n-1")
    header, claims = verified(first)
    assert header["typ"] == "dpop+jwt" and header["alg"] == "ES256"
    assert set(header["jwk"]) == {"kty", "crv", "x", "y"}, "a public key only: no 'd'"
    assert rfc7638(header["jwk"]) == key.thumbprint
    assert claims["htm"] == "POST" and claims["htu"] == SERVER, "no query, no fragment (RFC 9449 §4.2)"
    assert claims["iat"] == int(NOW) and claims["nonce"] == "n-1"
    assert claims["ath"] == b64url(hashlib.sha256(b"the-access-token").digest())
    _, again = verified(key.proof("POST", SERVER))
    assert again["jti"] != claims["jti"] and "ath" not in again and "nonce" not in again
    assert "d" not in key.jwk and repr(key) == f"DpopKey(thumbprint={key.thumbprint!r})"
    assert verified(DpopKey().proof("GET", SERVER))[0]["jwk"] != header["jwk"], "a new key for each login"


ES256 = ("ES256",)
CHOICES = [
    # mode, what the servers said, binds?, told?
    ("on", Offer(ES256), True, True),
    ("on", Offer(None), False, True),  # --dpop, but the authorization server does not take it: said, Bearer
    ("on", Offer(("RS256",)), False, True),
    ("auto", Offer(ES256, challenge_schemes=frozenset({"dpop"})), True, True),  # the server offers DPoP alone
    ("auto", Offer(ES256, resource_requires=True), True, True),
    ("auto", Offer(ES256, challenge_schemes=frozenset({"bearer", "dpop"})), False, True),  # Bearer will do
    ("auto", Offer(None, challenge_schemes=frozenset({"bearer"})), False, False),  # nothing to say
    ("auto", Offer(None, challenge_schemes=frozenset({"dpop"})), False, True),  # required, but not possible
    ("off", Offer(ES256, challenge_schemes=frozenset({"dpop"})), False, True),
    ("off", Offer(None), False, False),
]


@pytest.mark.parametrize(("mode", "offer", "binds", "told"), CHOICES)
def test_when_a_login_binds_its_token(mode: Any, offer: Offer, binds: bool, told: bool) -> None:
    choice = choose(mode, offer)
    assert (choice.bind, choice.said) == (binds, told), choice.why


def test_a_challenge_names_its_schemes() -> None:
    assert auth_schemes('DPoP error="use_dpop_nonce", resource_metadata="https://x/y"') == {"dpop"}
    assert auth_schemes('Bearer realm="a, DPoP b", DPoP algs="ES256"') == {"bearer", "dpop"}
    assert auth_schemes("Bearer abc==") == {"bearer"} and auth_schemes(None) == frozenset()
    challenge = Challenge.of(401, 'DPoP resource_metadata="https://x/y"')
    assert challenge.schemes == {"dpop"} and "scheme DPoP" in challenge.describe()
    assert "scheme" not in Challenge.of(401, 'Bearer error="invalid_token"').describe()
    assert resource_asks_nonce(401, 'DPoP error="use_dpop_nonce"', "n")
    assert not resource_asks_nonce(401, 'DPoP error="use_dpop_nonce"', None), "no nonce given: nothing to retry with"
    assert htu("https://a.example:8443/p/q?x=1#f") == "https://a.example:8443/p/q"


def metadata(algs: list[str] | None) -> bytes:
    document: dict[str, Any] = {"issuer": "https://as.example/", "token_endpoint": TOKEN_URL}
    if algs is not None:
        document["dpop_signing_alg_values_supported"] = algs
    return json.dumps(document).encode()


def token_request() -> httpx.Request:
    return httpx.Request("POST", TOKEN_URL, data={"grant_type": "authorization_code", "code": "c"})


def bound_login(told: Told) -> tuple[DpopBinding, bytes]:
    """A login through the binding: the metadata offers ES256, --dpop, a DPoP token answer."""
    binding = DpopBinding("on")
    binding.observe("authorization-server-metadata", 200, metadata(["ES256"]))
    request = token_request()
    assert binding.before_token("token", request, None, told.narrator())
    _, claims = verified(request.headers["DPoP"])
    assert (claims["htm"], claims["htu"], "ath" in claims) == ("POST", TOKEN_URL, False)
    answer = json.dumps({"access_token": "bound-token", "token_type": "DPoP", "expires_in": 60}).encode()
    return binding, binding.token_answer(200, answer, told.narrator())


def test_a_dpop_token_goes_as_dpop_with_a_fresh_proof_and_the_sdk_is_handed_bearer() -> None:
    told = Told()
    binding, handed = bound_login(told)
    assert json.loads(handed)["token_type"] == "Bearer", "the SDK's token model takes Bearer only"
    assert binding.bound("bound-token") and not binding.bound("another")
    headers = binding.credentials("GET", f"{SERVER}?q=1", "bound-token")
    assert headers["Authorization"] == "DPoP bound-token"
    header, claims = verified(headers["DPoP"])
    assert (claims["htm"], claims["htu"]) == ("GET", SERVER)
    assert claims["ath"] == b64url(hashlib.sha256(b"bound-token").digest())
    assert rfc7638(header["jwk"]) in told.steps()[0][2], "the key's thumbprint is told (what cnf.jkt names)"
    assert binding.credentials("POST", SERVER, "another") == {"Authorization": "Bearer another"}
    assert binding.why_in_memory("bound-token") is not None and binding.why_in_memory("another") is None
    assert [(step, outcome) for step, outcome, _ in told.steps()] == [("dpop", "ok"), ("dpop", "info"), ("dpop", "ok")]


def test_the_token_endpoint_asking_for_a_nonce_gets_a_proof_carrying_it() -> None:
    told = Told()
    binding = DpopBinding("on")
    binding.observe("authorization-server-metadata", 200, metadata(["ES256"]))
    request = token_request()
    binding.before_token("token", request, None, told.narrator())
    first = request.headers["DPoP"]
    asked = httpx.Response(400, headers={"DPoP-Nonce": "as-nonce"}, json={"error": "use_dpop_nonce"})
    assert binding.server_asked_nonce(request, asked, asked.content)
    _, claims = verified(request.headers["DPoP"])
    assert request.headers["DPoP"] != first and claims["nonce"] == "as-nonce"
    refused = httpx.Response(400, headers={"DPoP-Nonce": "other"}, json={"error": "invalid_grant"})
    assert not binding.server_asked_nonce(request, refused, refused.content), "only use_dpop_nonce is retried"
    refresh = token_request()
    binding.before_token("refresh", refresh, None, told.narrator())
    assert verified(refresh.headers["DPoP"])[1]["nonce"] == "other", "the latest nonce the server gave"


def test_without_dpop_nothing_is_added_and_a_bearer_answer_stays_as_it_is() -> None:
    told = Told()
    binding = DpopBinding("off")
    binding.observe("authorization-server-metadata", 200, metadata(["ES256"]))
    request = token_request()
    assert not binding.before_token("token", request, Challenge.of(401, "DPoP"), told.narrator())
    assert "DPoP" not in request.headers
    answer = json.dumps({"access_token": "t", "token_type": "DPoP"}).encode()
    assert binding.token_answer(200, answer, told.narrator()) is answer
    [(step, outcome, what)] = told.steps()
    assert (step, outcome) == ("dpop", "info") and "--no-dpop" in what and "requires DPoP" in what


def test_a_bearer_answer_to_a_proof_is_said_and_not_bound() -> None:
    told = Told()
    binding = DpopBinding("on")
    binding.observe("authorization-server-metadata", 200, metadata(["ES256"]))
    binding.before_token("token", token_request(), None, told.narrator())
    answer = json.dumps({"access_token": "plain", "token_type": "Bearer"}).encode()
    assert binding.token_answer(200, answer, told.narrator()) is answer
    assert not binding.bound("plain") and binding.credentials("POST", SERVER, "plain")["Authorization"].startswith(
        "Bearer "
    )
    assert "not bound" in told.steps()[-1][2]


@pytest.mark.parametrize("registration", ["dynamic", "pre-registered"])
async def test_a_token_kept_in_memory_is_never_written(registration: str) -> None:
    store = open_store("memory")
    credentials = Credentials("pre-registered-id") if registration == "pre-registered" else Credentials()
    storage = StagedStorage(store, SERVER, credentials, None)
    storage.keep_in_memory = lambda tokens: "it is DPoP-bound" if tokens.access_token == "bound-token" else None
    if registration == "dynamic":
        await storage.set_client_info(OAuthClientInformationFull(client_id="registered", redirect_uris=None))
    told = Told()
    context = CURRENT.set(told.narrator())
    try:
        await storage.set_tokens(OAuthToken(access_token="bound-token", refresh_token="bound-refresh"))
    finally:
        CURRENT.reset(context)
    stored = store.load(SERVER)
    if registration == "dynamic":
        assert stored is not None and stored.client_id == "registered" and stored.tokens is None
    else:
        assert stored is None
    assert "bound-token" not in json.dumps(stored.to_json() if stored else {})
    assert (await storage.get_tokens()) is not None, "this process keeps it"
    [(step, _, what)] = told.steps()
    assert step == "token" and what.endswith("never stored: it is DPoP-bound")
