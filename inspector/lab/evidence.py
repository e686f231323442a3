"""What a failed stateless check points to, from what the timeline shows (never a guess stated as a fact).

The causes seed 004 and SEP-2322 name, each read off the rounds of the failing call:

- capabilities taken from an earlier request: the instance answered -32021 although the request's own ``_meta``
  declared what it asks for;
- state kept in process memory: after a crossing, the instance asked again a question an earlier round had been
  answered (the answer never reached it through requestState);
- a state sealed with a key each instance makes for itself: the instance refused, with an error, an opaque state
  the other one minted (or, when the requests carried credentials, a state bound to a login that differs between
  the instances);
- another version of the tool on that instance (seed 000's rolling upgrade): it asked for a key the all-on-A run
  never asked, or could not read a readable state;
- a 2025-era protocol session: the instance never saw the ``initialize`` the other one answered.

The lab looks at a requestState's *form* only to word these explanations; the session never decodes one.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any, Final

from inspector.protocol.sanitize import one_line
from inspector.replay.diff import Difference
from inspector.timeline.model import Call, Round

MISSING_CAPABILITY: Final = -32021
SEALED_PREFIX: Final = "v1."
READABLE: Final = "which anyone can read and change"
"""The official Python SDK's sealed format (``RequestStateBoundary``: AES-256-GCM)."""

SHARE_A_KEY: Final = (
    "give every instance the same sealing key (the Python SDK: MCPServer(request_state_security="
    "RequestStateSecurity(keys=[a shared secret])); its default key is made by each process for itself"
)
ONE_LOGIN: Final = (
    "and have every instance trust one authorization server, so one login is the same client and user on each"
)
ROLLING_UPGRADE: Final = (
    "if B runs another version, run the lab with --server OLD --server NEW (seed 000's rolling upgrade): a new "
    "version must read the old one's state and ask only what it still misses"
)
KEEP_IT_IN_STATE: Final = (
    "put everything a later round needs into requestState (sealed with a key every instance shares), never in "
    "process memory behind a handle"
)
SHARED_TASKS: Final = (
    "keep tasks in a store every instance reads, and return the taskId only once the task is stored there "
    "(seed 004); a client must be able to ask any instance"
)
PER_REQUEST_CAPABILITIES: Final = (
    "read io.modelcontextprotocol/clientCapabilities from each request's _meta (2026-07-28: a server MUST NOT "
    "infer capabilities from prior requests)"
)


def _logged_in(round_: Round) -> bool:
    """Did the round's request carry credentials (an Authorization header, recorded redacted)?"""
    http = round_.request.http
    return http is not None and any(name.lower() == "authorization" for name in http.request_headers)


def _b64(text: str) -> bytes | None:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def _is_json(data: str | bytes) -> bool:
    try:
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return False
    return isinstance(value, dict | list)


def state_form(value: str) -> str:
    """What a requestState looks like from outside: readable (plaintext or base64 JSON), sealed, or opaque."""
    if _is_json(value):
        return f"plaintext JSON, {READABLE}"
    decoded = _b64(value)
    if decoded is not None and _is_json(decoded):
        return f"base64 of JSON, {READABLE}"
    if value.startswith(SEALED_PREFIX) and len(_b64(value[len(SEALED_PREFIX) :]) or b"") >= 32:
        return "sealed in the Python SDK's v1. AES-GCM format"
    if len(value) < 48:
        return "a short opaque token: a handle to server memory?"
    return "opaque: sealed or encrypted"


def readable(value: str) -> bool:
    """A state anyone can read: plaintext or base64 JSON."""
    return state_form(value).endswith(READABLE)


def describe(differences: list[Difference], limit: int = 2) -> str:
    """``content[0].text: 'a' → 'b'`` for the first differences."""

    def value(v: Any) -> str:
        return one_line(json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else repr(v), 70)

    seen: list[tuple[str, str]] = []
    unique: list[Difference] = []
    for found in differences:
        # (the same change found twice, as in a text block and the structuredContent it mirrors, is told once)
        key = (
            json.dumps(found.recorded, sort_keys=True, default=str),
            json.dumps(found.live, sort_keys=True, default=str),
        )
        if key not in seen:
            seen.append(key)
            unique.append(found)
    parts = []
    for found in unique[:limit]:
        if found.kind == "added":
            parts.append(f"{found.path}: added {value(found.live)}")
        elif found.kind == "removed":
            parts.append(f"{found.path}: {value(found.recorded)} missing")
        else:
            parts.append(f"{found.path}: {value(found.recorded)} → {value(found.live)}")
    more = (
        f" (+{len(differences) - min(limit, len(unique))} more)" if len(differences) > min(limit, len(unique)) else ""
    )
    return "; ".join(parts) + more


def _error(round_: Round) -> str:
    error = round_.error or {}
    return one_line(f"{error.get('code')} {error.get('message', '')}", 120)


def _capabilities_cause(round_: Round) -> tuple[str, str]:
    where = round_.instance or "the server"
    return (
        f"{where} answered {_error(round_)} although this request's _meta declared the capabilities: it takes the "
        "client's capabilities from an earlier request (server/discover on A), not from each request",
        PER_REQUEST_CAPABILITIES,
    )


def _new_questions(round_: Round, asked_on_a: set[str]) -> tuple[str, str] | None:
    """A round that asked for keys the all-on-A run never asked (the same answers were given): another version."""
    new = sorted(set(round_.input_requests) - asked_on_a)
    if round_.result_type != "input_required" or not new:
        return None
    here = round_.instance or "the server"
    return (
        f"{here} asked for {', '.join(map(repr, new))}, which the all-on-A run never asked: another version of the "
        f"tool on {here}",
        ROLLING_UPGRADE,
    )


def alone_cause(live: Call, legacy: bool, detail: str, baseline: Call | None = None) -> tuple[str, str] | None:
    """Why a call all on B failed where all on A it did not (None: nothing on the wire says more than the diff)."""
    asked_on_a = {key for r in baseline.rounds for key in r.input_requests} if baseline is not None else None
    for round_ in live.rounds:
        if round_.kind == "request" and round_.error and round_.error.get("code") == MISSING_CAPABILITY:
            return _capabilities_cause(round_)
        found = _new_questions(round_, asked_on_a) if asked_on_a is not None else None
        if found is not None:
            return found
    if legacy:
        return (
            f"a 2025-era protocol session: B never saw the initialize A answered ({detail})",
            "serve 2026-07-28 (no initialize, no Mcp-Session-Id: every request carries its version and capabilities)",
        )
    if live.status == "failed":
        return f"B: {one_line(live.status_detail, 200)}", "see B's stderr (the console lines marked [B])"
    return None


def crossing_cause(live: Call, baseline: Call) -> tuple[str, str] | None:
    """Why a call whose retries crossed instances failed: the first crossing that went wrong, and what it shows."""
    rounds = [r for r in live.rounds if r.kind == "request"]
    asked_on_a = {key for r in baseline.rounds for key in r.input_requests}
    for round_ in rounds:
        if round_.error and round_.error.get("code") == MISSING_CAPABILITY:
            return _capabilities_cause(round_)
        found = _new_questions(round_, asked_on_a)
        if found is not None:
            return found
    answered_in: dict[str, int] = {}
    for j, round_ in enumerate(rounds):
        previous = rounds[j - 1] if j else None
        crossed = previous is not None and round_.instance != previous.instance
        if crossed and previous is not None:
            found = _at_crossing(round_, previous, answered_in)
            if found is not None:
                return found
        for given in round_.answers:
            if given.key is not None:
                answered_in.setdefault(given.key, round_.index)
    if live.status == "failed":
        return f"the call failed: {one_line(live.status_detail, 200)}", "see the stderr of the instance that failed"
    return None


def _at_crossing(round_: Round, previous: Round, answered_in: dict[str, int]) -> tuple[str, str] | None:
    here, there = round_.instance or "?", previous.instance or "?"
    carried = round_.echoed_state
    if round_.result_type == "error" and round_.error is not None:
        if round_.method.startswith("tasks/"):
            return (
                f"{here} does not know the task {there} made ({_error(round_)}): the task lives where only the "
                "instance that made it finds it",
                SHARED_TASKS,
            )
        if carried is None:
            return f"{here} answered {_error(round_)} to the retry of a round {there} had answered", ROLLING_UPGRADE
        form = state_form(carried)
        if readable(carried):
            return (
                f"{here} could not use the {form.split(',')[0]} state {there} wrote ({_error(round_)}): another "
                f"version of the tool on {here}?",
                ROLLING_UPGRADE,
            )
        if _logged_in(round_) and _logged_in(previous):
            return (
                f"{here} refused the requestState {there} minted ({_error(round_)}), {form}: a state sealed with a "
                "key each instance makes for itself, or bound to a login that differs between them (behind OAuth "
                "the Python SDK binds a sealed state to the token's client, issuer and subject)",
                f"{SHARE_A_KEY}; {ONE_LOGIN}",
            )
        return (
            f"{here} refused the requestState {there} minted ({_error(round_)}), {form}: a state sealed with a key "
            "each instance makes for itself",
            SHARE_A_KEY,
        )
    if round_.result_type == "input_required":
        again = sorted(key for key in round_.input_requests if key in answered_in)
        if again:
            first = again[0]
            carried_text = (
                f"the retry carried a {len(carried)}-character requestState, {state_form(carried)}"
                if carried is not None
                else "the round before carried no requestState at all"
            )
            return (
                f"{here} asked again for {first!r}, answered in round {answered_in[first]}: the answer never reached "
                f"{here} through requestState; state kept in process memory instead of requestState ({carried_text})",
                KEEP_IT_IN_STATE,
            )
    return None
