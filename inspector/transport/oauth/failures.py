"""A login that did not succeed, said as the step that failed, what the server said, and what to try.

The SDK raises exceptions with messages of its own; some name the wrong step (metadata that is not JSON makes it
fall back to ``{origin}/register`` and report *that* 404), and some hold the whole body of an error answer (a
token endpoint's 70 KB stack trace). The exchanges the narrator saw tell the real story, cut to a line with the
body's size (the recording keeps it whole), so they take precedence; an SDK message is never shown longer than
``MESSAGE_CHARS``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcp.client.auth import OAuthFlowError, OAuthRegistrationError, OAuthTokenError

from inspector.protocol.login_urls import LoginRisksRefused
from inspector.protocol.oauth import (
    METADATA_STEPS,
    STEP_TITLES,
    LoginNotAllowed,
    LoginStopped,
    Outcome,
    Step,
    redact_text,
)
from inspector.transport.http_faults import FaultText, sized_excerpt

if TYPE_CHECKING:
    from inspector.transport.oauth.narrator import Narrator, Problem

MESSAGE_CHARS = 400
"""The most of an SDK message a failure shows (one that quotes a whole error answer is cut, with its size)."""


@dataclass(frozen=True, slots=True)
class ExchangeFailed(Exception):
    """An exchange of the flow got no answer (refused connection, timeout): the server never said anything."""

    step: Step
    url: str
    detail: str


@dataclass(frozen=True, slots=True)
class Failure:
    """How the login ended, for the timeline (a decision) and the request (a fault)."""

    step: Step
    outcome: Outcome
    message: str
    hint: str
    kind: str

    def fault(self) -> FaultText:
        return FaultText(self.kind, self.message, self.hint)


_REFUSALS: tuple[tuple[str, Step, str], ...] = (
    (
        r"^Protected resource .* does not match expected",
        "protected-resource-metadata",
        "the resource metadata names another server than the one asked (RFC 9728 §3.3): a misconfigured or "
        "impersonating server; nothing was sent to its authorization server. Check the URL",
    ),
    (
        r"^Authorization server metadata issuer mismatch",
        "authorization-server-metadata",
        "the metadata claims another issuer than the one it was fetched for (RFC 8414 §3.3): none of its endpoints "
        "was used. The authorization server is misconfigured, or not who it says",
    ),
    (
        r"^No authorization server metadata discovered for configured issuer",
        "authorization-server-metadata",
        "the server leads to another authorization server than the --issuer the client belongs to",
    ),
    (
        r"^State parameter mismatch",
        "callback",
        "the redirect is not the answer to this login (an old browser tab, or a forged redirect): log in again",
    ),
    (
        r"^Authorization response iss mismatch",
        "callback",
        "the redirect says another issuer sent it (RFC 9207 mix-up defence): nothing was exchanged. Log in again; "
        "if it repeats, the authorization server is misconfigured",
    ),
    (
        r"^Authorization response missing iss",
        "callback",
        "the authorization server advertises iss on redirects but this one has none (RFC 9207): refused",
    ),
    (r"^No authorization code received", "callback", "the redirect carried no code: log in again"),
)


def explain(exc: BaseException, narrator: Narrator, server: str) -> Failure:
    """The failure ``exc`` means, with the narrator's exchanges taken into account."""
    if isinstance(exc, LoginNotAllowed):
        return Failure("authorization", "refused", exc.message, exc.hint, "auth-required")
    if isinstance(exc, LoginRisksRefused):
        return _failure("addresses", "refused", exc.message, exc.hint)
    if isinstance(exc, LoginStopped):
        return Failure("authorization", "failed", f"login stopped: {exc.message}", exc.hint, "auth-authorization")
    if isinstance(exc, ExchangeFailed):
        message = f"{STEP_TITLES[exc.step]} failed: no answer from {exc.url}: {exc.detail}"
        hint = "the authorization server is down or unreachable from here; try again later, or check the network"
        return _failure(exc.step, "failed", message, hint)
    whole = str(exc)
    text = redact_text(sized_excerpt(whole, len(whole.encode()), MESSAGE_CHARS))
    for pattern, step, hint in _REFUSALS:
        if re.search(pattern, text):
            return _failure(step, "refused", f"{STEP_TITLES[step]} refused: {text}", hint)
    earlier = _first_problem(narrator)
    if earlier is not None:
        return earlier
    if isinstance(exc, OAuthRegistrationError):
        hint = (
            "the authorization server did not register us: pass --client-id (and --client-secret-env) of a client "
            "registered with it, or --client-metadata-url where it supports Client ID Metadata Documents"
        )
        told = _refused_answer(narrator, ("registration",))
        return _failure("registration", "failed", f"registration failed: {told.message if told else text}", hint)
    if isinstance(exc, OAuthTokenError):
        told = _refused_answer(narrator, ("token", "refresh"))
        if told is not None:  # what the endpoint answered, cut; the SDK's message holds the whole body
            title = STEP_TITLES[told.step]
            return _failure(told.step, "failed", f"{title} failed: {told.message}", "log in again; if it repeats, "
                            "see the whole answer in the recording")  # fmt: skip
        if "Invalid token response" in text:
            text = "the token answer is not a usable token (no access_token, or malformed): " + text
        return _failure("token", "failed", f"token failed: {text}", "log in again; if it repeats, see the answer")
    if isinstance(exc, OAuthFlowError):
        return _failure(
            "authorization", "failed", f"login failed: {text}", f"log in again: inspector auth login {server}"
        )
    return _failure("authorization", "failed", f"login failed: {type(exc).__name__}: {text}", "log in again")


def _first_problem(narrator: Narrator) -> Failure | None:
    """A metadata step whose answer was unusable (not JSON, a server error) explains what the SDK did next."""
    for problem in narrator.problems:
        if problem.step in METADATA_STEPS and not narrator.found(problem.step):
            hint = "the server publishes broken OAuth metadata: tell its operator; a login cannot start without it"
            return _failure(problem.step, "failed", f"{STEP_TITLES[problem.step]} failed: {problem.message}", hint)
    return None


def _refused_answer(narrator: Narrator, steps: tuple[Step, ...]) -> Problem | None:
    """The last exchange of ``steps`` that an endpoint answered with an error status (its answer said, cut)."""
    for problem in reversed(narrator.problems):
        if problem.step in steps and problem.message.startswith("HTTP "):
            return problem
    return None


def _failure(step: Step, outcome: Outcome, message: str, hint: str) -> Failure:
    return Failure(step, outcome, message, hint, f"auth-{step}")
