"""The steps of an OAuth login on the timeline: one record per exchange and per decision, attached to the call
whose request needed the login, and replayed from a recording exactly as they were shown live.

A record is ``{"t", "dir": "auth", "step", "outcome", "what", "why"?, "hint"?, "for"?, "http"?}``: ``for`` is the
JSON-RPC id of the request the login was for; ``http`` the exchange, every secret already redacted by the
transport (and, like every record, scanned again by the session's redactor before it is written).
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.protocol.oauth import LoginStep


@dataclass(frozen=True, slots=True)
class AuthStep(LoginStep):
    """One step of a login on the timeline: the step as told, and where it was shown."""

    call_index: int | None = None
    """The call whose request needed the login (None: no call was in flight)."""
    round_index: int | None = None
    """Its round, when the request had already gone out (a refresh before the first send has none yet)."""
