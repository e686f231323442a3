"""Auth events (what the transport's OAuth driver tells) as records: the one place the session turns them into the
recording's ``auth`` lines (``session.auth_steps`` reads them back onto the timeline, with no transport in sight).
"""

from __future__ import annotations

from inspector.session.auth_steps import AuthExchange
from inspector.session.records import Record
from inspector.transport.base import AuthEvent, AuthHttp


def record(t: float, event: AuthEvent) -> Record:
    """The record of an auth event (its secrets stay out: they go to the redactor)."""
    out: Record = {"t": round(t, 6), "dir": "auth", "step": event.step, "outcome": event.outcome, "what": event.what}
    if event.why:
        out["why"] = event.why
    if event.hint:
        out["hint"] = event.hint
    if event.request_id is not None:
        out["for"] = event.request_id
    if event.http is not None:
        out["http"] = exchange_of(event.http).to_json()
    return out


def exchange_of(http: AuthHttp) -> AuthExchange:
    return AuthExchange(
        http.method,
        http.url,
        dict(http.request_headers),
        http.request_body,
        http.status,
        dict(http.response_headers),
        http.response_body,
        http.elapsed_ms,
        http.error,
    )
