"""What a login tells the timeline: every exchange of the flow (redacted here, where the raw values are), every
decision (what was decided and why, read off the SDK's context as the flow moves), and a failure as the step that
failed, what the server said and what to try.

One narrator per request that needed a login; the events carry that request's id.
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import httpx

from inspector.protocol.oauth import (
    METADATA_STEPS,
    STEP_TITLES,
    AuthHttp,
    Challenge,
    Landing,
    Outcome,
    Step,
    redact_body,
    redact_headers,
    redact_text,
    redact_url,
)
from inspector.protocol.redact import REDACTED
from inspector.transport.base import BODY_CAP, AuthEvent, RequestKey, TransportEvent, decode_wire
from inspector.transport.http_faults import excerpt, media_type, sized_excerpt

if TYPE_CHECKING:
    from mcp.client.auth.oauth2 import OAuthContext

SAID_CHARS = 200
"""How much of what an answer said a step or an error shows; the rest, up to ``BODY_CAP``, is kept whole with the
exchange (the recording, ``--json``): a 70 KB error page is one line on the screen, once."""
SENT_SECRETS = frozenset(
    {"code", "code_verifier", "refresh_token", "client_secret", "assertion", "client_assertion", "subject_token"}
)
"""The fields of a request the flow sends whose values go to the session's redactor (a workload's assertion read
from its file included: nothing else knew it)."""
CODE_CHARS = 60
"""How much of an OAuth ``error`` code an exchange's line shows (a code is a word; a hostile one is not)."""


@dataclass(slots=True)
class Problem:
    """A step whose answer could not be used, kept so a later, vaguer error can be traced back to it (and say what
    the answer said, which the exchange's own line leaves out: it is told once, by the failure)."""

    step: Step
    message: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """An exchange judged: its outcome, its line (``what``: the status and what it means), what the answer said
    when it failed (``said``, cut with its size: the failure that follows tells it), and the secrets it carried."""

    outcome: Outcome
    what: str
    said: str = ""
    secrets: tuple[str, ...] = ()


@dataclass(slots=True)
class _Seen:
    """Which parts of the SDK's context were already told of (by identity), so each decision is told once."""

    prm: object = None
    metadata: object = None
    client: object = None
    tokens: object = None
    known: tuple[object, ...] = ()
    """What the context held when the flow began (the stored login): told as such, not as news."""


@dataclass(slots=True)
class Narrator:
    """Turns one flow's exchanges and the SDK's context into ``AuthEvent``s for ``request_id``."""

    emit: Callable[[TransportEvent], None]
    clock: Callable[[], float]
    request_id: RequestKey | None
    server: str
    problems: list[Problem] = field(default_factory=list)
    exchanged: bool = False
    """Did the flow send anything of its own (so the MCP request that follows is a retry)?"""
    challenge: Challenge | None = None
    """What the server's answer asked for (None: the flow runs because a stored token expired)."""
    _seen: _Seen = field(default_factory=_Seen)

    # ------------------------------------------------------------------------------------------------ events
    def decision(
        self,
        step: Step,
        outcome: Outcome,
        what: str,
        why: str = "",
        hint: str = "",
        *,
        secrets: tuple[str, ...] = (),
        http: AuthHttp | None = None,
    ) -> None:
        self.emit(
            AuthEvent(
                step, outcome, what, self.clock(), why, hint, self.request_id, http, tuple(s for s in secrets if s)
            )
        )

    def exchange(
        self,
        step: Step,
        request: httpx.Request,
        response: httpx.Response | None,
        body: bytes,
        started: float,
        *,
        error: str | None = None,
        carried: tuple[str, ...] = (),
        cut: bool = False,
        verdict: Verdict | None = None,
    ) -> None:
        """An exchange of the flow: judged, redacted, and told; the secrets it carried go with it (``carried``: ones
        the caller found where no field name says so, like the code in a redirect's Location; ``cut``: the body
        was longer than the ``BODY_CAP`` bytes read; ``verdict``: the caller's own, for an answer that only looks
        like a failure, such as a server asking for a DPoP nonce)."""
        self.exchanged = True
        status = response.status_code if response is not None else None
        kept = body[:BODY_CAP]
        text = decode_wire(kept)[0] if response is not None else ""
        kind = response.headers.get("content-type") if response is not None else None
        judged = judge(step, status, text, kind, error, size=len(kept), cut=cut or len(body) > BODY_CAP)
        if verdict is not None:
            verdict = Verdict(verdict.outcome, verdict.what, verdict.said, verdict.secrets + judged.secrets)
        else:
            verdict = judged
        outcome, what, secrets = verdict.outcome, verdict.what, verdict.secrets
        if outcome == "failed":
            self.problems.append(Problem(step, verdict.said or what))
        request_text = decode_wire(request.content)[0] if request.content else None
        http = AuthHttp(
            method=request.method,
            url=redact_url(str(request.url)),
            request_headers=redact_headers(_pairs(request.headers)),
            request_body=redact_body(request_text, request.headers.get("content-type")) if request_text else None,
            status=status,
            response_headers=redact_headers(_pairs(response.headers)) if response is not None else {},
            response_body=redact_body(text, kind) if text else None,
            elapsed_ms=round((self.clock() - started) * 1000, 3),
            error=error,
        )
        sent = _form(request_text, request.headers.get("content-type"))
        secrets += carried + tuple(v for k, v in sent.items() if k in SENT_SECRETS)
        self.decision(step, outcome, what, secrets=secrets, http=http)

    def retry(self, response: httpx.Response) -> None:
        """The MCP request sent again once the flow had a token."""
        status = response.status_code
        ok = 200 <= status < 300
        what = f"the request was sent again with the new token: HTTP {status}"
        self.decision("retry", "ok" if ok else "refused", what)

    def begin(self, context: OAuthContext | None) -> None:
        """The flow starts: what the context holds now is the stored login's, not this flow's doing."""
        if context is None:
            return
        seen = self._seen
        seen.tokens = context.current_tokens
        seen.known = (context.protected_resource_metadata, context.oauth_metadata, context.client_info)

    def _origin(self, value: object) -> str:
        return " (from the stored login)" if any(value is known for known in self._seen.known) else ""

    def no_metadata(self) -> bool:
        """Did every place for OAuth metadata answer "not here" (no resource metadata, no authorization server
        metadata, nothing broken either)? Then the server is not one we can log in to."""
        return not any(self.found(step) for step in METADATA_STEPS) and not any(
            problem.step in METADATA_STEPS for problem in self.problems
        )

    def found(self, step: Step) -> bool:
        """Did this flow end up with a usable answer for a metadata step (after any failed places)?"""
        if step == "protected-resource-metadata":
            return self._seen.prm is not None
        if step == "authorization-server-metadata":
            return self._seen.metadata is not None
        return False

    # ------------------------------------------------------------------------------------------------ decisions
    def follow_context(self, context: OAuthContext, *, settled: bool = False) -> None:
        """Tell what the SDK decided since the last look: the resource, the issuer, the client. What the stored
        login brought is told only once it is ``settled`` that the flow uses it (the authorization is next: a
        401 rediscovers everything, a step-up may not)."""
        seen = self._seen
        prm = context.protected_resource_metadata
        if prm is not None and prm is not seen.prm and (settled or not self._origin(prm)):
            seen.prm = prm
            supported = f"; scopes_supported {' '.join(prm.scopes_supported)!r}" if prm.scopes_supported else ""
            self.decision(
                "protected-resource-metadata",
                "ok",
                f"resource {prm.resource} is this server; authorization server {context.auth_server_url}{supported}"
                + self._origin(prm),
                "RFC 9728: the resource named must be the server we talk to (else nothing is sent to its AS)",
            )
        metadata = context.oauth_metadata
        if metadata is not None and metadata is not seen.metadata and (settled or not self._origin(metadata)):
            seen.metadata = metadata
            what = describe_metadata(metadata) + self._origin(metadata)
            self.decision("authorization-server-metadata", "ok", what, _ISSUER_WHY)
        client = context.client_info
        if client is not None and client is not seen.client and (settled or not self._origin(client)):
            seen.client = client
            method = client.token_endpoint_auth_method or "chosen by the server's offer"
            cimd = context.client_metadata_url is not None and client.client_id == context.client_metadata_url
            what = (
                f"client {client.client_id}: a Client ID Metadata Document, no registration"
                if cimd
                else f"client {client.client_id} (token endpoint auth: {method})"
            )
            self.decision("registration", "ok", what + self._origin(client), secrets=(client.client_secret or "",))

    def authorization(self, context: OAuthContext) -> None:
        """Just before the browser is sent: the client (told above when registered) and the scope, with why."""
        self.follow_context(context, settled=True)
        self.scope(context)

    def scope(self, context: OAuthContext) -> None:
        """The scope asked for, with why (the MCP scope rules)."""
        scope = context.client_metadata.scope
        challenge = self.challenge
        why = scope_why(scope, challenge.scope if challenge else None, context, bool(challenge and challenge.step_up))
        self.decision("scope", "info", f"scope {scope!r}" if scope else "no scope parameter", why)

    def landed(self, landing: Landing, expected_iss: str | None, iss_advertised: bool) -> None:
        """The redirect came back: what it carries (the code only as a secret to redact)."""
        if landing.error:
            self.decision("callback", "refused", landing.describe(), secrets=(landing.code or "",))
            return
        if landing.iss is None:
            iss = "no iss (the server advertises it: refused)" if iss_advertised else "no iss (not advertised)"
        elif landing.iss == expected_iss:
            iss = f"iss {landing.iss} is the issuer asked"
        else:
            iss = f"iss {landing.iss} is NOT the issuer asked ({expected_iss})"
        self.decision(
            "callback",
            "info",
            f"redirect received ({landing.how}): {landing.describe()}; {iss}",
            "RFC 9207: the iss on the redirect must be the issuer the request went to; the state must be ours",
            secrets=(landing.code or "",),
        )

    def tokens(self, context: OAuthContext, bound: Callable[[str], bool] = lambda _: False) -> None:
        """The token step's verdict (never the values; ``bound``: is this access token DPoP-bound? The SDK's model
        calls every token Bearer)."""
        tokens = context.current_tokens
        if tokens is None or tokens is self._seen.tokens:
            return
        self._seen.tokens = tokens
        expires = f"expires in {tokens.expires_in} s" if tokens.expires_in else "no expiry given"
        refresh = "a refresh token" if tokens.refresh_token else "no refresh token"
        kind = "DPoP-bound" if bound(tokens.access_token) else tokens.token_type
        self.decision(
            "token",
            "ok",
            f"{kind} token, scope {tokens.scope!r}, {expires}, {refresh}",
            secrets=(tokens.access_token, tokens.refresh_token or ""),
        )


CURRENT: contextvars.ContextVar[Narrator] = contextvars.ContextVar("inspector_oauth_narrator")
"""The narrator of the request whose flow is running in this task (the SDK's lock serialises flows across
requests, so the handlers it calls find their request here rather than on a shared object)."""

_ISSUER_WHY = "RFC 8414 §3.3: the metadata's issuer must be the server it was fetched for (else it is not used)"


def describe_metadata(metadata: Any) -> str:
    """The parts of authorization server metadata a login depends on, in one line."""
    parts = [f"issuer {metadata.issuer}"]
    registration = metadata.registration_endpoint
    parts.append(f"registration at {registration}" if registration else "no dynamic registration")
    if metadata.client_id_metadata_document_supported:
        parts.append("Client ID Metadata Documents supported")
    methods = metadata.token_endpoint_auth_methods_supported
    if methods:
        parts.append("token endpoint auth " + "/".join(methods))
    iss = (
        "iss on redirects advertised"
        if metadata.authorization_response_iss_parameter_supported
        else "iss not advertised"
    )
    parts.append(iss)
    return "; ".join(parts)


def scope_why(scope: str | None, challenged: str | None, context: OAuthContext, step_up: bool) -> str:
    """Why this scope was asked for (the MCP scope rules, then the SDK's offline_access rule)."""
    prm = context.protected_resource_metadata
    metadata = context.oauth_metadata
    if step_up:
        base = f"step-up: the challenge asked for {challenged!r}, added to what was already asked and granted"
    elif challenged is not None:
        base = "from the WWW-Authenticate challenge"
    elif prm is not None and prm.scopes_supported is not None:
        base = "from the resource's scopes_supported (no scope in the challenge)"
    elif metadata is not None and metadata.scopes_supported is not None:
        base = "from the authorization server's scopes_supported (none from the challenge or the resource)"
    else:
        base = "neither the challenge nor the metadata name a scope: the parameter is left out"
    offered = metadata is not None and "offline_access" in (metadata.scopes_supported or [])
    if scope and "offline_access" in scope.split():
        base += "; offline_access added: the authorization server offers it (for a refresh token)"
    elif not offered:
        base += "; no offline_access: the authorization server does not offer it"
    return base


def judge(
    step: Step,
    status: int | None,
    text: str,
    content_type: str | None,
    error: str | None,
    *,
    size: int | None = None,
    cut: bool = False,
) -> Verdict:
    """An exchange's verdict (``size``: the body's bytes, when ``text`` was decoded from them; ``cut``: there were
    more than that). What a failed answer said is in ``said`` only, cut to ``SAID_CHARS`` with its size."""
    if status is None:
        return Verdict("failed", f"no answer: {error}")
    parsed = _json(text)
    kind = media_type(content_type) or "no content type"
    length = len(text.encode()) if size is None else size
    body = f"{kind}, {length:,} bytes" + (" and more" if cut else "") if text else "an empty body"
    if step in METADATA_STEPS:
        if status == 200 and isinstance(parsed, dict):
            return Verdict("ok", "found")
        if status == 200:
            said = sized_excerpt(text, length, 120, more=cut)
            return Verdict("failed", f"HTTP 200 but not JSON ({body})", f"HTTP 200 but not JSON ({kind}): {said}")
        if 300 <= status < 500:
            return Verdict("info", f"HTTP {status}: not here, trying the next place")
        said = sized_excerpt(text, length, 120, more=cut)
        return Verdict("failed", f"HTTP {status} ({body})", f"HTTP {status}: {said}")
    if step == "authorization":
        return Verdict("info", f"HTTP {status}")
    secrets = _secret_values(parsed)
    if status in (200, 201) and isinstance(parsed, dict):
        if step in ("token", "refresh") and not parsed.get("access_token"):
            return Verdict("failed", "the answer has no access_token", secrets=secrets)
        return Verdict("ok", f"HTTP {status}", secrets=secrets)
    said = redact_text(sized_excerpt(text, length, SAID_CHARS, more=cut)) if text else "(empty body)"
    what = f"HTTP {status} ({body})"
    if isinstance(parsed, dict) and isinstance(parsed.get("error"), str):
        code = excerpt(parsed["error"], CODE_CHARS)
        what = f"HTTP {status}: error {code!r} ({body})"
        description = parsed.get("error_description")
        said = f"error {code!r}" + (f": {excerpt(description, SAID_CHARS)!r}" if isinstance(description, str) else "")
    return Verdict("failed", what, f"HTTP {status}: {said}", secrets)


def step_of(method: str, url: httpx.URL, content_type: str | None, body: bytes, resource_metadata: str | None) -> Step:
    """Which step a request of the SDK's flow is (the SDK does not say; its order and shape do)."""
    if method == "GET":
        if "/.well-known/oauth-protected-resource" in url.path or str(url) == resource_metadata:
            return "protected-resource-metadata"
        return "authorization-server-metadata"
    if media_type(content_type) == "application/json":
        return "registration"
    grant = _form(decode_wire(body)[0], content_type).get("grant_type")
    return "refresh" if grant == "refresh_token" else "token"


def fault_title(step: Step) -> str:
    return STEP_TITLES[step]


def _secret_values(value: Any) -> tuple[str, ...]:
    if not isinstance(value, dict):
        return ()
    names = ("access_token", "refresh_token", "id_token", "client_secret", "registration_access_token")
    return tuple(str(value[k]) for k in names if isinstance(value.get(k), str) and value[k] != REDACTED)


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _form(text: str | None, content_type: str | None) -> dict[str, str]:
    if not text or media_type(content_type) != "application/x-www-form-urlencoded":
        return {}
    from urllib.parse import parse_qsl

    return dict(parse_qsl(text, keep_blank_values=True))


def _pairs(headers: httpx.Headers) -> list[tuple[str, str]]:
    encoding = headers.encoding
    return [(name.decode(encoding), value.decode(encoding, errors="replace")) for name, value in headers.raw]
