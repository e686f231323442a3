"""A login's records put on the timeline: on the call (and round) whose request needed the login."""

from __future__ import annotations

from typing import Any

from inspector.protocol.oauth import AUTH_HTTP_TEXT, AuthHttp
from inspector.timeline.build.state import BuildState
from inspector.timeline.http_info import exchange_fields
from inspector.timeline.login_steps import AuthStep
from inspector.timeline.model import Call, Round, RoundUpdated, SessionChanged
from inspector.timeline.records import Record


def exchange_of(data: Any) -> AuthHttp | None:
    """A recorded login exchange read back; a field missing or of the wrong type keeps its default (a damaged
    recording, or one from another version)."""
    if not isinstance(data, dict):
        return None
    return AuthHttp(**{"method": "", "url": "", "request_headers": {}, **exchange_fields(data, AUTH_HTTP_TEXT)})


def apply(state: BuildState, rec: Record, t: float) -> None:
    """Put an auth record on the timeline: on the call (and round) of the request it names, else on the newest
    call still in flight, else on the session."""
    named = rec.get("for")
    request_id = named if isinstance(named, int | str) else None
    flight = state.in_flight.get(request_id) if request_id is not None else None
    call: Call | None
    round_: Round | None
    if flight is not None:
        call, round_ = flight.call, flight.round
    else:
        pending = [c for c in state.timeline.calls if c.in_flight]
        call, round_ = (pending[-1] if pending else None), None
    step = AuthStep(
        step=str(rec.get("step", "")),
        outcome=str(rec.get("outcome", "info")),
        what=str(rec.get("what", "")),
        at=t,
        why=str(rec.get("why", "")),
        hint=str(rec.get("hint", "")),
        request_id=request_id,
        http=exchange_of(rec.get("http")),
        call_index=call.index if call is not None else None,
        round_index=round_.index if round_ is not None else None,
    )
    state.timeline.auth.append(step)
    if call is None:
        state.timeline.emit(SessionChanged())
        return
    call.auth.append(step)
    shown = round_ or (call.rounds[-1] if call.rounds else None)
    if shown is not None:
        state.timeline.emit(RoundUpdated(call, shown))
