"""Subscriptions derived from the wire: a ``subscriptions/listen`` call's ``ListenSpan``, the acknowledgement checked
against what was asked and against its place (first for its subscription id), the notifications matched by
``io.modelcontextprotocol/subscriptionId``, and how the subscription ended. Functions over ``BuildState``."""

from __future__ import annotations

from inspector.protocol.json_values import json_id
from inspector.protocol.jsonrpc import JsonObject, RequestId
from inspector.timeline.build.state import BuildState
from inspector.timeline.listen_span import KIND_OF_NOTIFICATION, SUBSCRIPTION_ID, ListenSpan, asks_for
from inspector.timeline.model import Call, Round
from inspector.timeline.wire import WireMessage

ACKNOWLEDGED = "notifications/subscriptions/acknowledged"


def started(state: BuildState, call: Call, round_: Round, params: JsonObject) -> None:
    """A listen request left: the call's subscription, by its id."""
    asked = params.get("notifications")
    call.listen = ListenSpan(round_.request_id, asked if isinstance(asked, dict) else {})
    if round_.request_id is not None:
        state.listens[_key(round_.request_id)] = call


def subscribed(state: BuildState, call: Call, params: JsonObject) -> None:
    """2025: a ``resources/subscribe`` of the call; its span gathers the URIs (there is no acknowledgement)."""
    uri = params.get("uri")
    if call.listen is None:
        call.listen = ListenSpan(None, {"resourceSubscriptions": []})
        state.legacy_listen = call
    uris = call.listen.asked.setdefault("resourceSubscriptions", [])
    if isinstance(uri, str) and isinstance(uris, list):
        uris.append(uri)


def subscription_of(state: BuildState, params: JsonObject) -> Call | None:
    """The listen call a notification belongs to, by its subscription id."""
    meta = params.get("_meta")
    subscription = json_id(meta.get(SUBSCRIPTION_ID)) if isinstance(meta, dict) else None
    if subscription is None:
        return None
    return state.listens.get(_key(subscription))


def notified(state: BuildState, call: Call, method: str, params: JsonObject, wire: WireMessage) -> None:
    """A notification for ``call``'s subscription: the acknowledgement, or an event (checked against it)."""
    span = call.listen
    assert span is not None
    round_ = call.rounds[0]
    if span.subscription_id is None:  # 2025: no acknowledgement, every update an event
        span.events.append(wire)
        return
    if method == ACKNOWLEDGED:
        if span.honoured is not None:
            if not _told(round_, "listen-ack-twice"):  # (once: a server acknowledging in a loop is one finding)
                state.on_round("listen-ack-twice", "the subscription was acknowledged again", call, round_)
            return
        honoured = params.get("notifications")
        span.honoured = honoured if isinstance(honoured, dict) else {}
        span.ack_at = wire.at
        if span.events:
            state.on_round("listen-ack-not-first", f"{span.events.count} notification(s) came before it", call, round_)
        _compare(state, call, round_, span)
        return
    span.events.append(wire)
    if span.honoured is None and span.events.count == 1:
        state.on_round("listen-ack-not-first", f"{method} came before the acknowledgement", call, round_)
    kind = KIND_OF_NOTIFICATION.get(method)
    unrequested = span.honoured is not None and kind is not None and not span.honoured.get(kind)
    # (once a method: a storm of what was not asked for is one finding; its count is the subscription's)
    if unrequested and not _told(round_, "listen-unrequested", method):
        state.on_round("listen-unrequested", f"{method} came, which the subscription did not honour", call, round_)


def cancelled_by_server(state: BuildState, params: JsonObject) -> Call | None:
    """stdio: a server ends a subscription with ``notifications/cancelled`` naming the listen request."""
    request_id = json_id(params.get("requestId"))
    if request_id is None:
        return None
    call = state.listens.get(_key(request_id))
    if call is not None and call.listen is not None:
        call.listen.end = "server-cancelled"
    return call


def answered(call: Call) -> None:
    """The listen's own response: the graceful end of the subscription."""
    if call.listen is not None and call.listen.end is None:
        call.listen.end = "graceful"


def ended(call: Call) -> None:
    """The call ended without the listen's response: ended by us (the call completes: what was asked), or the
    subscription was lost."""
    span = call.listen
    if span is not None and span.end is None:
        span.end = "client-ended" if call.status == "complete" else "lost"


def _compare(state: BuildState, call: Call, round_: Round, span: ListenSpan) -> None:
    honoured = span.honoured or {}
    dropped = [kind for kind, wanted in span.asked.items() if asks_for(wanted) and not asks_for(honoured.get(kind))]
    narrowed = [
        kind
        for kind, wanted in span.asked.items()
        if isinstance(wanted, list) and isinstance(honoured.get(kind), list) and honoured[kind] != wanted
    ]
    extra = [kind for kind, given in honoured.items() if asks_for(given) and not asks_for(span.asked.get(kind))]
    if dropped or narrowed:
        what = ", ".join([*dropped, *(f"{k} (only {honoured[k]})" for k in narrowed)])
        state.on_round("listen-ack-differs", f"the server will not send {what}", call, round_)
    if extra:
        state.on_round("listen-ack-extra", f"acknowledged what was not asked: {', '.join(extra)}", call, round_)


def _told(round_: Round, code: str, about: str = "") -> bool:
    """Whether the listen's round has the finding ``code`` already (about ``about``, the start of its message)."""
    return any(found.code == code and found.message.startswith(about) for found in round_.findings)


def _key(request_id: RequestId) -> str:
    return f"{type(request_id).__name__}:{request_id}"
