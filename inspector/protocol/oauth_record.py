"""What a login leaves behind, as one record per server: who registered us and how, the tokens and when they
expire, and the metadata discovered on the way (so a later process refreshes at the right endpoint instead of
guessing). Split in two on storage: the secrets (tokens, client secret) go to the keyring or a private file, the
rest to an index that ``inspector auth status`` reads without touching a secret.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

Registration = Literal["dynamic", "cimd", "pre-registered"]
REGISTRATIONS: Final[tuple[Registration, ...]] = ("dynamic", "cimd", "pre-registered")
_SECRET_CLIENT_FIELDS: Final = ("client_secret", "registration_access_token")


@dataclass(frozen=True, slots=True)
class LoginRecord:
    """One server's login. ``client`` and ``tokens`` are the SDK's models as JSON (``OAuthClientInformationFull``,
    ``OAuthToken``); ``tokens`` is None once a refresh was refused (the registration is kept)."""

    server: str
    issuer: str | None
    registration: Registration
    client: dict[str, Any] = field(repr=False)
    tokens: dict[str, Any] | None = field(default=None, repr=False)
    expires_at: float | None = None
    """Wall-clock time (``time.time``) the access token expires; None: the server did not say."""
    as_metadata: dict[str, Any] | None = None
    prm: dict[str, Any] | None = None
    auth_server_url: str | None = None
    saved_at: float = 0.0

    @property
    def client_id(self) -> str:
        return str(self.client.get("client_id", ""))

    @property
    def scope(self) -> str | None:
        value = (self.tokens or {}).get("scope")
        return value if isinstance(value, str) else None

    @property
    def has_refresh_token(self) -> bool:
        return bool((self.tokens or {}).get("refresh_token"))

    @property
    def redirect_port(self) -> int | None:
        """The loopback port the registration names in its redirect URI (a later login must listen on it)."""
        from urllib.parse import urlsplit

        for uri in self.client.get("redirect_uris") or []:
            parts = urlsplit(str(uri))
            if parts.hostname == "127.0.0.1" and parts.port:
                return parts.port
        return None

    def expires_in(self, now: float | None = None) -> float | None:
        """Seconds until the access token expires (negative: expired); None when unknown or there is none."""
        if self.expires_at is None or self.tokens is None:
            return None
        return self.expires_at - (time.time() if now is None else now)

    def without_tokens(self) -> LoginRecord:
        """The same registration with the tokens dropped (a refresh was refused: they are worth nothing)."""
        return replace(self, tokens=None, expires_at=None, saved_at=time.time())

    def secrets(self) -> list[str]:
        """Every secret value the record holds (for redaction)."""
        values = [str(self.client[name]) for name in _SECRET_CLIENT_FIELDS if self.client.get(name)]
        for name in ("access_token", "refresh_token", "id_token"):
            value = (self.tokens or {}).get(name)
            if value:
                values.append(str(value))
        return values

    def split(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """(what may be written to the index, what must go to the secret store)."""
        client = {k: v for k, v in self.client.items() if k not in _SECRET_CLIENT_FIELDS}
        secret_client = {k: self.client[k] for k in _SECRET_CLIENT_FIELDS if k in self.client}
        public: dict[str, Any] = {
            "server": self.server,
            "issuer": self.issuer,
            "registration": self.registration,
            "client": client,
            "expires_at": self.expires_at,
            "scope": self.scope,
            "refresh_token": self.has_refresh_token,
            "tokens": self.tokens is not None,
            "as_metadata": self.as_metadata,
            "prm": self.prm,
            "auth_server_url": self.auth_server_url,
            "saved_at": self.saved_at,
        }
        return public, {"client": secret_client, "tokens": self.tokens}

    @classmethod
    def join(cls, public: Any, secret: Any) -> LoginRecord | None:
        """The record from its two halves (None when the public half is malformed); a missing secret half reads as
        no tokens and no client secret."""
        if not isinstance(public, dict) or not isinstance(public.get("server"), str):
            return None
        client = public.get("client") if isinstance(public.get("client"), dict) else {}
        secret = secret if isinstance(secret, dict) else {}
        secret_client = secret.get("client") if isinstance(secret.get("client"), dict) else {}
        tokens = secret.get("tokens") if isinstance(secret.get("tokens"), dict) else None
        registration = public.get("registration")
        expires_at = public.get("expires_at")
        saved_at = public.get("saved_at")
        return cls(
            server=public["server"],
            issuer=public.get("issuer") if isinstance(public.get("issuer"), str) else None,
            registration=registration if registration in REGISTRATIONS else "dynamic",
            client={**(client or {}), **(secret_client or {})},
            tokens=tokens,
            expires_at=float(expires_at) if isinstance(expires_at, int | float) and tokens is not None else None,
            as_metadata=_dict_or_none(public.get("as_metadata")),
            prm=_dict_or_none(public.get("prm")),
            auth_server_url=public.get("auth_server_url") if isinstance(public.get("auth_server_url"), str) else None,
            saved_at=float(saved_at) if isinstance(saved_at, int | float) else 0.0,
        )

    def to_json(self) -> dict[str, Any]:
        """Both halves in one object (the memory store, tests)."""
        public, secret = self.split()
        return {"public": public, "secret": secret}

    @classmethod
    def from_json(cls, data: Any) -> LoginRecord | None:
        if not isinstance(data, dict):
            return None
        return cls.join(data.get("public"), data.get("secret"))


def _dict_or_none(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None
