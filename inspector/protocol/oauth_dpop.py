"""DPoP (RFC 9449; SEP-1932 in MCP) facts a login needs without any I/O: the names on the wire, what a proof's
``htu`` and ``ath`` are, how a server asks for a nonce, and whether a login binds its token to a key.

The key and the signing live in ``transport/oauth`` (they need the crypto libraries); what is decided, and why,
is here, so it can be read and tested as a table.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from typing import Final, Literal
from urllib.parse import urlsplit, urlunsplit

from inspector.protocol.oauth import auth_params

DPOP_HEADER: Final = "DPoP"
NONCE_HEADER: Final = "DPoP-Nonce"
USE_NONCE: Final = "use_dpop_nonce"
SIGNING_ALG: Final = "ES256"
"""The one algorithm our keys sign with (P-256: every DPoP server takes it; SEP-1932 leaves the choice open)."""
TOKEN_TYPE: Final = "DPoP"

DpopMode = Literal["auto", "on", "off"]
"""``on``: ``--dpop`` (bind whenever the authorization server takes ES256 proofs); ``off``: ``--no-dpop`` (never);
``auto``, neither flag: bind only when the server requires it (see ``choose``)."""


def b64url(data: bytes) -> str:
    """Base64url without padding (RFC 7515 §2)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def htu(url: str) -> str:
    """The ``htu`` claim for a request to ``url``: the URL without its query and fragment (RFC 9449 §4.2)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def origin(url: str) -> str:
    """Whose nonce a request carries: nonces are per server (RFC 9449 §8, §9), and a server is an origin."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def ath(access_token: str) -> str:
    """The ``ath`` claim: the access token's SHA-256, base64url (RFC 9449 §4.2)."""
    return b64url(hashlib.sha256(access_token.encode("ascii")).digest())


def jwk_thumbprint(jwk: dict[str, str]) -> str:
    """The RFC 7638 SHA-256 thumbprint of an EC public JWK (what a bound token's ``cnf.jkt`` names)."""
    members = {name: jwk[name] for name in ("crv", "kty", "x", "y")}
    return b64url(hashlib.sha256(json.dumps(members, separators=(",", ":"), sort_keys=True).encode()).digest())


def resource_asks_nonce(status: int, www_authenticate: str | None, nonce: str | None) -> bool:
    """Is this MCP answer a resource server asking for a nonce (RFC 9449 §9: a 401 with ``error="use_dpop_nonce"``
    and a ``DPoP-Nonce`` header)?"""
    return status == 401 and bool(nonce) and auth_params(www_authenticate).get("error") == USE_NONCE


def server_asks_nonce(status: int, body: bytes, nonce: str | None) -> bool:
    """Is this token endpoint answer an authorization server asking for a nonce (RFC 9449 §8: a 400 whose error is
    ``use_dpop_nonce``, with a ``DPoP-Nonce`` header)?"""
    if status != 400 or not nonce:
        return False
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and value.get("error") == USE_NONCE


@dataclass(frozen=True, slots=True)
class Offer:
    """What the two servers said about DPoP before the first token request."""

    server_algs: tuple[str, ...] | None = None
    """The authorization server metadata's ``dpop_signing_alg_values_supported`` (None: not advertised)."""
    resource_algs: tuple[str, ...] | None = None
    """The protected resource metadata's ``dpop_signing_alg_values_supported`` (RFC 9728)."""
    resource_requires: bool = False
    """The protected resource metadata's ``dpop_bound_access_tokens_required``."""
    challenge_schemes: frozenset[str] = frozenset()
    """The schemes the server's challenge offered (lowercased): ``{"dpop"}`` alone means DPoP or nothing."""

    @property
    def required(self) -> str | None:
        """Why the resource takes DPoP-bound tokens only (None: it does not say so)."""
        if self.resource_requires:
            return "its resource metadata says dpop_bound_access_tokens_required"
        if self.challenge_schemes == {"dpop"}:
            return "its challenge offers the DPoP scheme only"
        return None


@dataclass(frozen=True, slots=True)
class Choice:
    """Whether this login binds its token to a key, and why (``said``: worth a step on the timeline)."""

    bind: bool
    why: str
    said: bool = True


def choose(mode: DpopMode, offer: Offer) -> Choice:
    """Bind the token to a key (DPoP) or not. ``off`` never. ``on`` whenever the authorization server advertises
    ES256 proofs (one that does not would issue a Bearer token anyway). ``auto`` only when the resource requires
    DPoP-bound tokens and the authorization server takes ES256: a bound token is worth nothing to a server that
    only knows Bearer, and the key (held by this process only) means the login is not stored."""
    algs = offer.server_algs
    takes = algs is not None and SIGNING_ALG in algs
    offered = f"the authorization server advertises DPoP ({', '.join(algs)})" if algs else ""
    if mode == "off":
        if offer.required:
            return Choice(False, f"--no-dpop was given, though the server requires DPoP ({offer.required})")
        return Choice(False, f"--no-dpop was given ({offered or 'DPoP is not advertised either'})", said=takes)
    if not takes:
        if algs:
            why = f"{offered}, not {SIGNING_ALG}, the only algorithm this client signs with"
        else:
            why = "the authorization server does not advertise DPoP (dpop_signing_alg_values_supported)"
        if mode == "on":
            return Choice(False, f"--dpop was given, but {why}: a Bearer token")
        if offer.required:
            return Choice(False, f"the server requires DPoP ({offer.required}), but {why}: a Bearer token")
        return Choice(False, why, said=bool(algs))
    if mode == "on":
        return Choice(True, f"--dpop was given and {offered}")
    if offer.required:
        return Choice(True, f"the server requires DPoP ({offer.required}) and {offered}")
    return Choice(False, f"{offered}; the server takes Bearer tokens too: pass --dpop to bind the token to a key")


def advertised(metadata: object, name: str = "dpop_signing_alg_values_supported") -> tuple[str, ...] | None:
    """A metadata document's list of algorithms (None: absent or not a list of strings)."""
    if not isinstance(metadata, dict):
        return None
    value = metadata.get(name)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None
    return tuple(value)
