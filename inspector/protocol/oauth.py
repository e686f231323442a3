"""OAuth facts the inspector needs without any I/O: the challenge a server sends, the steps of a login, their
names and how each is told, which fields and headers hold secrets (and how to take them out of URLs, forms, JSON and
text), the redirect a browser lands on, and the interface a face implements to let a person log in.

The login itself runs in ``transport/oauth`` (it needs the HTTP client); everything here is pure so that every layer,
the TUI included, can name a step, read a challenge or parse a pasted redirect.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol, get_args
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from inspector.protocol.hinted import HintedError
from inspector.protocol.redact import REDACTED

FAULT_PREFIX: Final = "auth-"
"""Transport faults of a login are named ``auth-<step>`` (and ``auth-required``: a login that may not run)."""


def is_auth_fault(kind: str | None) -> bool:
    """Did a login end this request (rather than the server or the network)?"""
    return kind is not None and kind.startswith(FAULT_PREFIX)


Step = Literal[
    "challenge",
    "protected-resource-metadata",
    "authorization-server-metadata",
    "registration",
    "scope",
    "addresses",
    "authorization",
    "callback",
    "dpop",
    "token",
    "refresh",
    "retry",
]
"""The steps of a login, in the order they happen (``scope``, ``addresses``, ``callback`` and ``dpop`` are decisions
with no request of their own; ``addresses`` is told only when an address the login would open or send secrets to is
worth a warning: ``protocol.login_urls``; ``dpop`` when a token is bound to a key, RFC 9449: the choice, the proofs,
a nonce asked for; ``refresh`` replaces the rest when a refresh token still works)."""
STEPS: Final[tuple[Step, ...]] = get_args(Step)
METADATA_STEPS: Final[tuple[Step, ...]] = ("protected-resource-metadata", "authorization-server-metadata")
"""The steps that look for OAuth metadata, each trying its places in turn (a "not here" moves to the next)."""
STEP_TITLES: Final[dict[Step, str]] = {
    "challenge": "challenge",
    "protected-resource-metadata": "protected resource metadata",
    "authorization-server-metadata": "authorization server metadata",
    "registration": "client",
    "scope": "scope",
    "addresses": "addresses",
    "authorization": "authorization",
    "callback": "redirect",
    "dpop": "DPoP",
    "token": "token",
    "refresh": "refresh",
    "retry": "retry",
}
NOT_STORED: Final = "the token is kept for this process only, never stored"
"""How a login's ``token`` step begins when its token may not be written (DPoP-bound, or a workload's): what
``auth login`` tells instead of "stored in"."""
Outcome = Literal["ok", "refused", "failed", "waiting", "info"]
"""ok: the step did what it should; refused: we refused what the server sent (a check failed); failed: the server
failed or did not answer; waiting: a person must act (the browser); info: a decision with nothing to judge."""

AUTH_HTTP_TEXT: Final = ("method", "url", "request_body", "response_body", "error")
"""The fields of ``AuthHttp`` that hold text."""


@dataclass(frozen=True, slots=True)
class AuthHttp:
    """One HTTP exchange of a login, every secret already taken out (the redaction below): what the request and
    the response said, bodies included (a login's bodies are small: metadata, forms, tokens)."""

    method: str
    url: str
    request_headers: dict[str, str]
    request_body: str | None = None
    status: int | None = None
    """None: no answer came (``error`` says why: a refused connection, a timeout)."""
    response_headers: dict[str, str] = field(default_factory=dict)
    response_body: str | None = None
    elapsed_ms: float | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The exchange as a recording's ``auth`` line spells it (empty parts left out)."""
        out: dict[str, Any] = {k: getattr(self, k) for k in (*AUTH_HTTP_TEXT, "status", "elapsed_ms")}
        out["request_headers"] = self.request_headers
        out["response_headers"] = self.response_headers
        return {k: v for k, v in out.items() if v not in (None, {})}


@dataclass(frozen=True, slots=True)
class LoginStep:
    """One step of a login as it is told: an exchange (``http``) or a decision, with what was decided, why, and
    what to try when it failed. The transport's ``AuthEvent`` and the timeline's ``AuthStep`` are one each."""

    step: str
    """A ``Step``."""
    outcome: str
    """An ``Outcome``."""
    what: str
    at: float
    why: str = ""
    hint: str = ""
    request_id: int | str | None = None
    """The JSON-RPC request whose HTTP answer asked for the login (None: no request, e.g. a logout)."""
    http: AuthHttp | None = None

    def to_json(self) -> dict[str, Any]:
        """The step as the recording's ``auth`` lines and the ``--json`` documents spell it (empty parts left out;
        ``for`` is the request's id)."""
        out: dict[str, Any] = {"step": self.step, "outcome": self.outcome, "what": self.what}
        if self.why:
            out["why"] = self.why
        if self.hint:
            out["hint"] = self.hint
        if self.request_id is not None:
            out["for"] = self.request_id
        if self.http is not None:
            out["http"] = self.http.to_json()
        return out


SECRET_FIELDS: Final = frozenset(
    {
        "access_token",
        "refresh_token",
        "id_token",
        "client_secret",
        "code",
        "code_verifier",
        "assertion",
        "client_assertion",
        "subject_token",
        "actor_token",
        "registration_access_token",
        "password",
        "token",
    }
)
"""Form, JSON and query fields whose values are credentials (``token`` is what RFC 7009 revocation sends)."""
SECRET_HEADERS: Final = frozenset({"authorization", "cookie", "set-cookie", "proxy-authorization", "dpop"})

_SCHEME_NAMES: Final = {"bearer": "Bearer", "dpop": "DPoP", "basic": "Basic"}
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_SCHEME = re.compile(r"(?:^|,)\s*([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)(?=\s+[^\s=,]|\s*,|\s*$)")
_PAIR = re.compile(r'([A-Za-z0-9_\-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s,]+)')
_TEXT_FIELD = re.compile(
    r"(?<![A-Za-z0-9_])(" + "|".join(sorted(SECRET_FIELDS, key=len, reverse=True)) + r")(=|%3D)([^&\s\"'<>;]+)",
    re.IGNORECASE,
)
_JSON_FIELD = re.compile(
    r'("(?:' + "|".join(sorted(SECRET_FIELDS, key=len, reverse=True)) + r')"\s*:\s*)"(?:[^"\\]|\\.)*"'
)


# ---------------------------------------------------------------------------------------------------- challenge
def auth_params(www_authenticate: str | None) -> dict[str, str]:
    """``Bearer resource_metadata="…", scope="a b", error="…"`` -> its parameters (names lowercased)."""
    if not www_authenticate:
        return {}
    params: dict[str, str] = {}
    for match in _PAIR.finditer(www_authenticate):
        value = match.group(2)
        if value.startswith('"'):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        params.setdefault(match.group(1).lower(), value)
    return params


def auth_schemes(www_authenticate: str | None) -> frozenset[str]:
    """``Bearer realm="x", DPoP algs="ES256"`` -> ``{"bearer", "dpop"}``: each challenge's scheme is a token that
    is not a parameter's name (no ``=`` after it), at the start or after a comma, outside quotes."""
    if not www_authenticate:
        return frozenset()
    unquoted = _QUOTED.sub('""', www_authenticate)
    return frozenset(m.group(1).lower() for m in _SCHEME.finditer(unquoted))


@dataclass(frozen=True, slots=True)
class Challenge:
    """What a 401 or 403 asked for (RFC 6750 §3, RFC 9728 §5.1)."""

    status: int
    scope: str | None = None
    error: str | None = None
    error_description: str | None = None
    resource_metadata: str | None = None
    schemes: frozenset[str] = frozenset()
    """The authentication schemes offered, lowercased (``bearer``, ``dpop``: RFC 9449 §7.1)."""

    @classmethod
    def of(cls, status: int, www_authenticate: str | None) -> Challenge:
        params = auth_params(www_authenticate)
        return cls(
            status,
            params.get("scope"),
            params.get("error"),
            params.get("error_description"),
            params.get("resource_metadata"),
            auth_schemes(www_authenticate),
        )

    @property
    def step_up(self) -> bool:
        """A 403 that asks for more scope (a step-up), not a plain refusal."""
        return self.status == 403 and self.error == "insufficient_scope"

    def describe(self) -> str:
        """One line: what the server said."""
        parts = [f"HTTP {self.status}"]
        if self.schemes and self.schemes != {"bearer"}:  # (Bearer is the usual: said only when it is not alone)
            parts.append("scheme " + "/".join(sorted(_SCHEME_NAMES.get(s, s) for s in self.schemes)))
        if self.error:
            parts.append(f"error {self.error}")
        if self.scope:
            parts.append(f"scope {self.scope!r}")
        if self.resource_metadata:
            parts.append(f"resource metadata at {self.resource_metadata}")
        if self.error_description:
            parts.append(repr(self.error_description))
        return ", ".join(parts)


def is_challenge(status: int, www_authenticate: str | None) -> bool:
    """Does this answer start (or continue) a login: a 401, or a 403 asking for more scope?"""
    if status == 401:
        return True
    return status == 403 and auth_params(www_authenticate).get("error") == "insufficient_scope"


def scopes(text: str | None) -> frozenset[str]:
    """A space-delimited scope string as a set."""
    return frozenset((text or "").split())


# ---------------------------------------------------------------------------------------------------- redaction
def redact_headers(headers: Iterable[tuple[str, str]], secret: Iterable[str] = ()) -> dict[str, str]:
    """Headers as a plain dict (repeated names joined by ``, ``), credentials replaced (the scheme of an
    ``Authorization`` is kept: ``Bearer [redacted]``), and a ``Location`` with its secret query values taken out."""
    extra = {name.lower() for name in secret}
    out: dict[str, str] = {}
    for name, value in headers:
        lower = name.lower()
        if lower in SECRET_HEADERS or lower in extra:
            scheme, sep, _ = value.partition(" ")
            shown = f"{scheme} {REDACTED}" if sep and lower in ("authorization", "proxy-authorization") else REDACTED
        elif lower in ("location", "content-location", "link"):
            shown = redact_text(value)
        else:
            shown = value
        out[name] = f"{out[name]}, {shown}" if name in out else shown
    return out


def redact_url(url: str) -> str:
    """A URL with the values of secret query fields replaced (the authorization code of a redirect, above all)."""
    parts = urlsplit(url)
    if not parts.query:
        return url
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if not any(key in SECRET_FIELDS for key, _ in pairs):
        return url
    shown = urlencode([(k, REDACTED if k in SECRET_FIELDS else v) for k, v in pairs], safe="[]")
    return urlunsplit(parts._replace(query=shown))


def redact_text(text: str) -> str:
    """Free text (an HTML page, ``Found. Redirecting to …?code=…``) with ``field=value`` and ``"field": "value"`` of
    every secret field replaced."""
    text = _TEXT_FIELD.sub(lambda m: f"{m.group(1)}{m.group(2)}{REDACTED}", text)
    return _JSON_FIELD.sub(lambda m: f'{m.group(1)}"{REDACTED}"', text)


def redact_value(value: Any) -> Any:
    """A JSON value with the values of secret fields replaced, at any depth."""
    if isinstance(value, dict):
        return {k: (REDACTED if k in SECRET_FIELDS and v is not None else redact_value(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    return value


def redact_body(text: str, content_type: str | None) -> str:
    """A request or response body of the flow, as it may be shown: a form or JSON with its secret fields replaced,
    anything else scanned as text."""
    kind = (content_type or "").partition(";")[0].strip().lower()
    if kind == "application/x-www-form-urlencoded":
        pairs = parse_qsl(text, keep_blank_values=True)
        return urlencode([(k, REDACTED if k in SECRET_FIELDS else v) for k, v in pairs], safe="[]")
    if kind.endswith("json") or text.lstrip().startswith(("{", "[")):
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return redact_text(text)
        return json.dumps(redact_value(value), ensure_ascii=False)
    return redact_text(text)


# ---------------------------------------------------------------------------------------------------- the redirect
@dataclass(frozen=True, slots=True)
class Landing:
    """Where the authorization ended: the query of the redirect (``code``, ``state``, ``iss``; or ``error``)."""

    params: dict[str, str] = field(repr=False)
    how: Literal["browser", "pasted", "followed"]

    @property
    def code(self) -> str | None:
        return self.params.get("code")

    @property
    def state(self) -> str | None:
        return self.params.get("state")

    @property
    def iss(self) -> str | None:
        return self.params.get("iss")

    @property
    def error(self) -> str | None:
        return self.params.get("error")

    def describe(self) -> str:
        """What arrived, with no secret: which parameters, and an error as the server put it."""
        if self.error:
            said = self.params.get("error_description")
            return f"the authorization server answered error {self.error!r}" + (f": {said!r}" if said else "")
        names = ", ".join(sorted(k for k in self.params if k != "code"))
        code = "a code" if self.code else "no code"
        return f"{code}" + (f", {names}" if names else "")


class BadRedirect(ValueError):
    """A pasted redirect URL that is not the one this login waits for; the message says why."""


def parse_landing(text: str, redirect_uri: str) -> Landing:
    """A redirect URL a person pasted (the whole URL, or only its query) as a Landing; ``BadRedirect`` when it
    points elsewhere or carries neither a code nor an error."""
    pasted = text.strip()
    if not pasted:
        raise BadRedirect("nothing was pasted")
    expected = urlsplit(redirect_uri)
    if "://" in pasted:
        given = urlsplit(pasted)
        if (given.scheme, given.netloc, given.path) != (expected.scheme, expected.netloc, expected.path):
            raise BadRedirect(
                f"that URL goes to {given.scheme}://{given.netloc}{given.path}, not to {redirect_uri}: "
                "paste the address the browser ended on"
            )
        query = given.query
    else:
        query = pasted.lstrip("?")
    params = dict(parse_qsl(query, keep_blank_values=True))
    if "code" not in params and "error" not in params:
        raise BadRedirect("the pasted address has neither a code nor an error: paste the whole address")
    return Landing(params, "pasted")


# ---------------------------------------------------------------------------------------------------- the faces
@dataclass(frozen=True, slots=True)
class AuthorizationPrompt:
    """What a person is asked to do: open ``url`` (it holds no secret) and let the browser come back to
    ``redirect_uri``."""

    url: str
    redirect_uri: str
    server: str
    """The MCP server the login is for."""
    issuer: str | None
    scope: str | None
    warnings: tuple[str, ...] = ()
    """What was said about its addresses and accepted before it was shown (``protocol.login_urls``): a face shows
    them beside the URL."""


class LoginHelpers(Protocol):
    """What the login machinery offers a face while it waits for the redirect."""

    def wait_for_browser(self) -> Awaitable[Landing]:
        """Start the loopback callback on 127.0.0.1 listening (now, before any browser is opened); the awaitable is
        the redirect it receives (it stops listening when that comes, or when the awaitable is cancelled)."""
        ...

    async def follow(self) -> Landing:
        """GET the authorization URL through the recorded client, without a browser, and read where its redirect
        goes (for servers that answer at once, like the conformance suite's)."""
        ...


class Login(Protocol):
    """A face's way of letting a person (or a script) authorize: open the browser, print the URL, read a pasted
    redirect. Raises ``LoginStopped`` when it gives up."""

    async def authorize(self, prompt: AuthorizationPrompt, helpers: LoginHelpers) -> Landing: ...


class LoginStopped(HintedError):
    """The login ended without a redirect: the user cancelled, it timed out, or no login is allowed here.
    ``hint`` says what to try."""


class LoginNotAllowed(LoginStopped):
    """A login would be needed but this run may not start one (``--no-login``, or nobody could answer it)."""
