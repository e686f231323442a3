"""Auth events (what the transport's OAuth driver tells) as records: the one place the session turns them into the
recording's ``auth`` lines (``timeline.build.login_records`` reads them back onto the timeline, with no transport in
sight).
"""

from __future__ import annotations

from inspector.timeline.records import Record, instant
from inspector.transport.base import AuthEvent


def record(t: float, event: AuthEvent) -> Record:
    """The record of an auth event: the step as told (its secrets stay out: they go to the redactor)."""
    return {"t": instant(t), "dir": "auth", **event.to_json()}
