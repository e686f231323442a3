"""How a transport may log in: where logins are kept, who lets a person authorize, and what the client is known as.

Plain data, importing nothing of the SDK: a transport that never meets a challenge never loads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal, Protocol

if TYPE_CHECKING:
    from inspector.protocol.login_urls import RiskConsent
    from inspector.protocol.oauth import Login
    from inspector.protocol.oauth_dpop import DpopMode
    from inspector.protocol.oauth_record import LoginRecord

Grant = Literal["authorization_code", "client_credentials", "private_key_jwt", "identity_assertion", "jwt_bearer"]
LOGIN_TIMEOUT_S: Final = 300.0
"""How long a login waits for the browser to come back before giving up (``--login-timeout``)."""
EXCHANGE_TIMEOUT_S: Final = 30.0
MAX_STEP_UPS: Final = 2
"""Step-up authorizations for one set of scopes in one session; a server that keeps asking is refused after this."""
MAX_LOGINS: Final = 3
"""Interactive authorizations in one session: a server that refuses every fresh token does not get a fourth."""


class CredentialStore(Protocol):
    """Where logins are kept between processes (``session.token_store`` implements it: keyring, file, memory)."""

    @property
    def where(self) -> str:
        """A human name for the place: "the OS keyring", a file path, "memory"."""
        ...

    def load(self, server: str) -> LoginRecord | None: ...

    def save(self, record: LoginRecord) -> None:
        """Write the record at once and whole (a failed save leaves the old one)."""
        ...

    def delete(self, server: str) -> None: ...


@dataclass(frozen=True, slots=True)
class IdentityProvider:
    """An enterprise IdP for SEP-990 (identity assertion): its token endpoint and the user's ID token there."""

    token_endpoint: str
    client_id: str
    id_token: str = field(repr=False)
    issuer: str | None = None


@dataclass(frozen=True, slots=True)
class WorkloadAssertion:
    """Where a workload's JWT comes from for the jwt-bearer grant (RFC 7523 §2.1; SEP-1933 workload identity): a
    file, read again at each token request (platforms rotate it: a Kubernetes projected service-account token,
    ``AWS_WEB_IDENTITY_TOKEN_FILE``), or a value given once (an environment variable's, the conformance suite's)."""

    file: str | None = None
    value: str | None = field(default=None, repr=False)

    @property
    def where(self) -> str:
        """Where it is read, for people (never the value)."""
        return f"the file {self.file}" if self.file else "the value given"


@dataclass(frozen=True, slots=True)
class Credentials:
    """What the client is known as. Nothing given: dynamic registration (or CIMD when ``client_metadata_url`` is
    set and the server supports it). ``client_id`` given: a pre-registered client."""

    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    issuer: str | None = None
    """The authorization server the pre-registered client belongs to (SEP-2352 binding)."""
    client_metadata_url: str | None = None
    """An https URL of a Client ID Metadata Document, used as client_id where the server supports CIMD."""
    grant: Grant = "authorization_code"
    scope: str | None = None
    private_key_pem: str | None = field(default=None, repr=False)
    signing_algorithm: str | None = None
    idp: IdentityProvider | None = None
    assertion: WorkloadAssertion | None = None
    """The workload's JWT, for the ``jwt_bearer`` grant."""

    @property
    def needs_person(self) -> bool:
        """Does this grant need someone to authorize (a browser)? The others run wherever they are allowed to."""
        return self.grant == "authorization_code"

    def secrets(self) -> list[str]:
        """The secret values given (redacted from everything; an assertion read from a file is added when read)."""
        values = [
            self.client_secret,
            self.private_key_pem,
            self.idp.id_token if self.idp else None,
            self.assertion.value if self.assertion else None,
        ]
        return [v for v in values if v]


@dataclass(frozen=True, slots=True)
class AuthConfig:
    """Everything the OAuth driver of one HTTP transport needs."""

    store: CredentialStore
    login: Login | None
    """Who lets a person authorize; None: no interactive login here (``--no-login``): stored tokens and refresh
    only, and a login that would be needed becomes a fault saying what to run."""
    credentials: Credentials = field(default_factory=Credentials)
    callback_port: int | None = None
    """The loopback port for the redirect (None: the registered one, else a free one)."""
    login_timeout: float = LOGIN_TIMEOUT_S
    exchange_timeout: float = EXCHANGE_TIMEOUT_S
    """How long one exchange of the flow may take (the MCP channel has no read timeout; an authorization server
    that never answers must not hang a login)."""
    no_login_reason: str = "--no-login was given"
    client_name: str = "inspector"
    consent: RiskConsent | None = None
    """Who accepts the warnings about a login's addresses (``protocol.login_urls``) before the browser opens or
    a token request leaves; None: nobody here can, and such a login stops, saying so."""
    dpop: DpopMode = "auto"
    """Whether a login binds its token to a key (DPoP, RFC 9449): ``--dpop`` on, ``--no-dpop`` off, else auto
    (``protocol.oauth_dpop.choose`` says when)."""
