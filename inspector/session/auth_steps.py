"""The steps of an OAuth login on the timeline: one record per exchange and per decision, attached to the call
whose request needed the login, and replayed from a recording exactly as they were shown live.

A record is ``{"t", "dir": "auth", "step", "outcome", "what", "why"?, "hint"?, "for"?, "http"?}``: ``for`` is the
JSON-RPC id of the request the login was for; ``http`` the exchange, every secret already redacted by the
transport (and, like every record, scanned again by the session's redactor before it is written).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.protocol.jsonrpc import RequestId
from inspector.session.build_state import BuildState
from inspector.session.http_info import read_exchange_fields
from inspector.session.records import Record
from inspector.session.timeline import Call, Round
from inspector.session.timeline_events import RoundUpdated, SessionChanged

_HTTP_TEXT = ("method", "url", "request_body", "response_body", "error")


@dataclass(slots=True)
class AuthExchange:
    """One HTTP exchange of a login, as recorded (secrets redacted)."""

    method: str = ""
    url: str = ""
    request_headers: dict[str, str] = field(default_factory=dict)
    request_body: str | None = None
    status: int | None = None
    response_headers: dict[str, str] = field(default_factory=dict)
    response_body: str | None = None
    elapsed_ms: float | None = None
    error: str | None = None
    """Why no answer came (refused connection, timeout)."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {k: getattr(self, k) for k in (*_HTTP_TEXT, "status", "elapsed_ms")}
        out["request_headers"] = self.request_headers
        out["response_headers"] = self.response_headers
        return {k: v for k, v in out.items() if v not in (None, {})}

    @classmethod
    def from_json(cls, data: Any) -> AuthExchange | None:
        if not isinstance(data, dict):
            return None
        found = cls()
        read_exchange_fields(data, found, _HTTP_TEXT)
        return found


@dataclass(slots=True)
class AuthStep:
    """One step of a login: an exchange (``http``) or a decision, with what was decided and why, and on failure
    what to try. ``step`` and ``outcome`` are ``protocol.oauth.Step`` and ``Outcome``."""

    at: float
    step: str
    outcome: str
    what: str
    why: str = ""
    hint: str = ""
    request_id: RequestId | None = None
    http: AuthExchange | None = None
    call_index: int | None = None
    """The call whose request needed the login (None: no call was in flight)."""
    round_index: int | None = None
    """Its round, when the request had already gone out (a refresh before the first send has none yet)."""

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


def apply(state: BuildState, rec: Record, t: float) -> None:
    """Put an auth record on the timeline: on the call (and round) of the request it names, else on the newest
    call still in flight, else on the session."""
    request_id = rec.get("for")
    step = AuthStep(
        at=t,
        step=str(rec.get("step", "")),
        outcome=str(rec.get("outcome", "info")),
        what=str(rec.get("what", "")),
        why=str(rec.get("why", "")),
        hint=str(rec.get("hint", "")),
        request_id=request_id if isinstance(request_id, int | str) else None,
        http=AuthExchange.from_json(rec.get("http")),
    )
    flight = state.in_flight.get(step.request_id) if step.request_id is not None else None
    call: Call | None
    round_: Round | None
    if flight is not None:
        call, round_ = flight.call, flight.round
    else:
        pending = [c for c in state.timeline.calls if c.in_flight]
        call, round_ = (pending[-1] if pending else None), None
    step.call_index = call.index if call is not None else None
    step.round_index = round_.index if round_ is not None else None
    state.timeline.auth.append(step)
    if call is None:
        state.timeline.emit(SessionChanged())
        return
    call.auth.append(step)
    shown = round_ or (call.rounds[-1] if call.rounds else None)
    if shown is not None:
        state.timeline.emit(RoundUpdated(call, shown))
