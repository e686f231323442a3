"""What a result says about caching, checked as the builder applies it (digest §1.4, seed 004): the hints a complete
list, read or discover result must carry, the hints an ``input_required`` must not, a ``public`` result the
traffic shows is not the same for everyone, and a list that comes back in another order. Functions over the
builder's ``BuildState``, so a replay raises the same findings.
"""

from __future__ import annotations

from typing import Final

from inspector.protocol.caching import CACHEABLE_METHODS, HINT_FIELDS, PUBLIC, CacheHints, order_changed
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import LIST_METHODS
from inspector.protocol.sanitize import one_line
from inspector.timeline.build.state import BuildState
from inspector.timeline.model import Call, Round

PER_LOGIN_VARY: Final = frozenset({"authorization", "cookie", "*"})
"""``Vary`` names that make an HTTP answer depend on who asked."""
NEW_TOKEN_STEPS: Final = frozenset({"token", "refresh"})
NAMES_SHOWN: Final = 6


def check_result(state: BuildState, call: Call, round_: Round, result: JsonObject, *, modern: bool) -> None:
    """The caching findings of one result (``round_.result_type`` already set): hints missing or misplaced, a
    ``public`` result that varies by login, a list whose order changed."""
    method = round_.method
    if not modern or method not in CACHEABLE_METHODS:
        return
    result_type = round_.result_type
    if result_type == "input_required":
        carried = [name for name in HINT_FIELDS if name in result]
        if carried:
            said = " and ".join(f"{name} {result[name]!r}" for name in carried)
            state.on_round(
                "cache-hints-on-input-required", f"{method} answered input_required with {said}", call, round_
            )
        return
    if result_type != "complete":
        return
    missing = [name for name in HINT_FIELDS if name not in result]
    if missing:
        state.on_round("cache-hints-missing", f"{method} result has no {' and no '.join(missing)}", call, round_)
    if CacheHints.of(result).scope == PUBLIC:
        _public_but_per_login(state, call, round_, result)
    if method in LIST_METHODS and not isinstance(result.get("nextCursor"), str):
        _order_kept(state, call, round_)


def _public_but_per_login(state: BuildState, call: Call, round_: Round, result: JsonObject) -> None:
    """A ``public`` result the traffic shows depends on the login: its HTTP answer says it varies by the
    Authorization header (or is private to a browser's cache), or the same request answered otherwise once the
    session had another token."""
    http = round_.response.http if round_.response is not None else None
    if http is not None:
        headers = {name.lower(): value for name, value in http.response_headers.items()}
        vary = {part.strip().lower() for part in headers.get("vary", "").split(",")} & PER_LOGIN_VARY
        private = "private" in {part.strip().lower() for part in headers.get("cache-control", "").split(",")}
        if vary or private:
            said = f"Vary: {headers['vary']}" if vary else f"Cache-Control: {headers['cache-control']}"
            message = f"{round_.method} is cacheScope public, but its HTTP answer says {one_line(said, 80)}"
            state.on_round("cache-scope-public-varies", message, call, round_)
            return
    earlier = _same_request_before(state, call, round_)
    if earlier is None:
        return
    before, before_round = earlier
    assert before_round.response is not None
    logins = [
        step
        for step in state.timeline.auth
        if step.step in NEW_TOKEN_STEPS and step.outcome == "ok" and before_round.response.at < step.at
        and step.at <= round_.request.at
    ]  # fmt: skip
    if logins and _without_meta(before_round.result) != _without_meta(result):
        message = (
            f"{round_.method} is cacheScope public, but it answered otherwise than #{before.index} once the session "
            f"had a new token ({logins[-1].step} at {logins[-1].at:.1f} s): a result that varies by login"
        )
        state.on_round("cache-scope-public-varies", message, call, round_)


def _same_request_before(state: BuildState, call: Call, round_: Round) -> tuple[Call, Round] | None:
    """The latest earlier round that asked the same (method and params that shape the result) and completed."""
    if not any(step.step in NEW_TOKEN_STEPS for step in state.timeline.auth):
        return None  # (no token ever changed: nothing to compare, and no need to walk the session)
    asked = sent_params(round_)
    for earlier in reversed(state.timeline.calls):
        for other in reversed(earlier.rounds):
            if other is round_ or other.response is None or other.result_type != "complete":
                continue
            if other.method == round_.method and sent_params(other) == asked:
                return earlier, other
    return None


def _without_meta(result: JsonObject | None) -> JsonObject:
    return {k: v for k, v in (result or {}).items() if k != "_meta"}


def _order_kept(state: BuildState, call: Call, round_: Round) -> None:
    """The list just completed (its last page): the same names as the session's previous list of this kind, in
    another order, is a finding (seed 004: a host's prompt cache matches the catalog byte for byte)."""
    names = list_names(call)
    if names is None:
        return
    for earlier in reversed(state.timeline.calls):
        if earlier is call or earlier.method != call.method or earlier.status != "complete":
            continue
        before = list_names(earlier)
        if before is None:
            continue
        if order_changed(before, names):
            message = f"{call.method} came in another order than #{earlier.index}'s: {_names(before)} → {_names(names)}"
            state.on_round("list-order-changed", message, call, round_)
        return


def list_names(call: Call) -> list[str] | None:
    """The names (or URIs) a list call listed, page after page, in order; None when it holds no complete list
    (a call answered from the cache, or one with a page that failed)."""
    listing = LIST_METHODS.get(call.method)
    pages = [r for r in call.rounds if r.kind == "request"]
    if listing is None or not pages or any(r.result_type != "complete" for r in pages):
        return None
    names: list[str] = []
    for page in pages:
        items = (page.result or {}).get(listing.items_field)
        if isinstance(items, list):
            names.extend(str(item.get(listing.key_field)) for item in items if isinstance(item, dict))
    return names


def _names(names: list[str]) -> str:
    shown = ", ".join(one_line(name, 40) for name in names[:NAMES_SHOWN])
    return shown + (f" … ({len(names)})" if len(names) > NAMES_SHOWN else "")


def sent_params(round_: Round) -> JsonObject:
    """The params a round's request carried, without ``_meta``."""
    message = round_.request.message
    params = message.get("params") if message is not None else None
    return {k: v for k, v in params.items() if k != "_meta"} if isinstance(params, dict) else {}
