"""One login's proof-of-possession key (RFC 9449): an ES256 (P-256) key pair made for the login, held by this
process only, and the proofs it signs (``cryptography`` makes the key, ``PyJWT`` signs; both are the SDK's own
dependencies). The private key is never written anywhere, printed or recorded: nothing of it leaves this object
but its public JWK (in each proof's header) and that JWK's thumbprint (what a bound token's ``cnf.jkt`` names).
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Any

from inspector.protocol.oauth_dpop import SIGNING_ALG, ath, b64url, htu, jwk_thumbprint

if TYPE_CHECKING:
    from collections.abc import Callable

    from cryptography.hazmat.primitives.asymmetric.ec import EllipticCurvePrivateKey

PROOF_TYPE = "dpop+jwt"


class DpopKey:
    """A login's DPoP key and the proofs it signs (see the module docstring)."""

    def __init__(self, wall_clock: Callable[[], float] = time.time) -> None:
        from cryptography.hazmat.primitives.asymmetric import ec

        self._private: EllipticCurvePrivateKey = ec.generate_private_key(ec.SECP256R1())
        numbers = self._private.public_key().public_numbers()
        self.jwk: dict[str, str] = {
            "kty": "EC",
            "crv": "P-256",
            "x": b64url(numbers.x.to_bytes(32, "big")),
            "y": b64url(numbers.y.to_bytes(32, "big")),
        }
        """The public key as a JWK (RFC 7517), as each proof's header carries it."""
        self.thumbprint = jwk_thumbprint(self.jwk)
        self._now = wall_clock
        """``iat`` is wall-clock time: the server compares it with its own clock (a window of minutes)."""

    def proof(self, method: str, url: str, *, access_token: str | None = None, nonce: str | None = None) -> str:
        """A fresh proof for one request (RFC 9449 §4.2): a new ``jti``, the method and the URL without its query,
        the time, and ``ath`` (the token's hash) when it presents one, ``nonce`` when the server gave one."""
        import jwt

        claims: dict[str, Any] = {
            "jti": secrets.token_urlsafe(18),
            "htm": method.upper(),
            "htu": htu(url),
            "iat": int(self._now()),
        }
        if access_token is not None:
            claims["ath"] = ath(access_token)
        if nonce is not None:
            claims["nonce"] = nonce
        return jwt.encode(claims, self._private, algorithm=SIGNING_ALG, headers={"typ": PROOF_TYPE, "jwk": self.jwk})

    def __repr__(self) -> str:
        return f"DpopKey(thumbprint={self.thumbprint!r})"  # (never the private key)
