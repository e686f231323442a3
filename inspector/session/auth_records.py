"""Auth events (what the transport's OAuth driver tells) as records: the one place the session turns them into the
recording's ``auth`` lines (``session.auth_steps`` reads them back onto the timeline, with no transport in sight).
"""

from __future__ import annotations

from inspector.session.auth_steps import AuthExchange, AuthStep
from inspector.session.records import Record
from inspector.transport.base import AuthEvent, AuthHttp


def record(t: float, event: AuthEvent) -> Record:
    """The record of an auth event (its secrets stay out: they go to the redactor)."""
    http = exchange_of(event.http) if event.http is not None else None
    step = AuthStep(t, event.step, event.outcome, event.what, event.why, event.hint, event.request_id, http)
    return {"t": round(t, 6), "dir": "auth", **step.to_json()}


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
