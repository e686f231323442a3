"""Whether a login's addresses deserve a second look before anything is opened or sent to them: the one judge of
a login's URLs, and the interface a face implements to accept (or refuse) what it found.

A login opens the authorization endpoint in the person's browser and sends the code, the PKCE verifier and any
client secret to the token endpoint. Both come from metadata the server (or its authorization server) wrote, so
three things are worth a warning before either happens:

- **a user name before ``@``** (``http://accounts.google.com@127.0.0.1:8080/authorize``): the site it reaches is
  the host after the ``@``; what comes before is a disguise for whoever reads the address;
- **another origin** than the resource's and the authorization server metadata's: the code and the secrets go to
  a place neither of the two parties this login talks to vouched for by serving it;
- **plain http to anything but this machine**: the code and the secrets cross the network unencrypted.

Pure: no I/O. ``transport.oauth.gate`` holds a login at these points until a ``RiskConsent`` accepts.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal, Protocol, runtime_checkable
from urllib.parse import urlsplit, urlunsplit

from inspector.protocol.oauth import LoginStopped, Step

RiskKind = Literal["userinfo", "other-origin", "plain-http", "not-web"]
"""What is wrong with an address (``not-web``: not http(s) at all: never opened, whoever accepts)."""
Role = Literal["authorization endpoint", "token endpoint"]
WEB_SCHEMES: Final = ("http", "https")
DEFAULT_PORTS: Final = {"http": 80, "https": 443}
ACCEPT_FLAG: Final = "--accept-login-risks"
"""The command-line flag that accepts a login's warnings (``cli.options``; named here for every message)."""

_WHAT_GOES: Final[dict[Role, str]] = {
    "authorization endpoint": "your browser would log in there",
    "token endpoint": "the code, the PKCE verifier and any client secret would be sent there",
}


@dataclass(frozen=True, slots=True)
class LoginRisk:
    """One reason to look twice at one address of a login."""

    kind: RiskKind
    role: Role
    url: str
    """The address, without its query (an authorization URL's query is ours: state, PKCE challenge)."""
    message: str
    """One line for people: which address, what is wrong, and what would happen there."""

    @property
    def key(self) -> tuple[str, str]:
        """What accepting this risk covers: its kind at this place (the same token endpoint, asked about again when
        the code is exchanged, is not asked twice)."""
        parts = urlsplit(self.url)
        return self.kind, f"{parts.scheme.lower()}://{parts.netloc.lower()}"


@dataclass(frozen=True, slots=True)
class LoginCheck:
    """What a face is asked to accept before a login goes on."""

    server: str
    """The MCP server the login is for."""
    risks: tuple[LoginRisk, ...]
    url: str
    """The address about to be opened (the whole authorization URL) or sent to (the token endpoint)."""
    step: Step
    """``authorization`` (before the browser opens) or ``token`` (before a token request leaves)."""

    @property
    def said(self) -> str:
        """Every warning, in one line."""
        return "; ".join(risk.message for risk in self.risks)


@runtime_checkable
class RiskConsent(Protocol):
    """A face's way to accept a login's warnings: a person on the TUI's login screen, or a flag on the command
    line. Asked only when there is something to accept. (Checkable at run time: the composition root asks whether
    the face it was given asks a person itself.)"""

    @property
    def waits_for_a_person(self) -> bool:
        """Does ``accept`` wait for a person (so the request's timeout is held meanwhile)?"""
        ...

    @property
    def how_to_accept(self) -> str:
        """What to do to go on after a refusal (said as the failed login's hint)."""
        ...

    async def accept(self, check: LoginCheck) -> str | None:
        """How the warnings were accepted (said on the login's steps: "--accept-login-risks was given"), or None:
        refused."""
        ...


class LoginRisksRefused(LoginStopped):
    """The login stopped because its warnings were not accepted: nothing was opened or sent (its failed step is
    ``addresses``)."""


def origin(url: str) -> str:
    """``scheme://host:port`` of ``url``, lower case, the port always written and no user name: two spellings of
    one place give one origin."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return url
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}:{port or DEFAULT_PORTS.get(scheme, 0)}"


def is_loopback(host: str) -> bool:
    """Is ``host`` this machine (``localhost``, 127.0.0.0/8, ``::1``)?"""
    name = host.lower().strip("[]").rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def without_query(url: str) -> str:
    """``url`` without its query and fragment."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    return urlunsplit(parts._replace(query="", fragment=""))


class LoginUrlJudge:
    """Judges the addresses of one login against the places it already trusts: the resource (the MCP server, and
    the resource its metadata names), the authorization server whose metadata was read, and what the user gave on
    purpose (an identity provider's token endpoint)."""

    def __init__(self, resource: str, vouched: Iterable[str | None] = ()) -> None:
        self.resource = resource
        self.trusted: dict[str, str] = {}
        """Trusted origin -> the address it was trusted for (shown in a warning)."""
        for url in (resource, *vouched):
            if url:
                self.trusted.setdefault(origin(url), url)

    def judge(self, role: Role, url: str) -> tuple[LoginRisk, ...]:
        """Every reason to look twice at ``url`` before the login uses it as its ``role``."""
        shown = without_query(url)
        try:
            parts = urlsplit(url)
            host = parts.hostname or ""
        except ValueError:
            return (LoginRisk("not-web", role, shown, f"the {role} {shown} is not a valid URL: it is never used"),)
        scheme = parts.scheme.lower()
        if scheme not in WEB_SCHEMES or not host:
            said = f"the {role} {shown} is not a web address ({scheme or 'no scheme'}): it is never opened or used"
            return (LoginRisk("not-web", role, shown, said),)
        risks: list[LoginRisk] = []
        place = host if parts.port is None else f"{host}:{parts.port}"
        if "@" in parts.netloc:
            user = parts.netloc.rpartition("@")[0]
            said = (
                f"the {role} {shown} has a user name before '@' ({user!r}): it goes to {place}, not to "
                f"{user.partition(':')[0]}"
            )
            risks.append(LoginRisk("userinfo", role, shown, said))
        here = origin(url)
        if here not in self.trusted:
            vouched = ", ".join(_shown(trusted) for trusted in self.trusted)
            said = (
                f"the {role} {shown} is on another origin ({_shown(here)}) than the server and its authorization "
                f"server's metadata ({vouched}): {_WHAT_GOES[role]}"
            )
            risks.append(LoginRisk("other-origin", role, shown, said))
        if scheme == "http" and not is_loopback(host):
            said = (
                f"the {role} {shown} is plain http to {host}, which is not this machine: {_WHAT_GOES[role]} unencrypted"
            )
            risks.append(LoginRisk("plain-http", role, shown, said))
        return tuple(risks)


def _shown(origin_text: str) -> str:
    """An origin as people write it: its scheme's own port left out."""
    for scheme, port in DEFAULT_PORTS.items():
        if origin_text.startswith(f"{scheme}://") and origin_text.endswith(f":{port}"):
            return origin_text.removesuffix(f":{port}")
    return origin_text
