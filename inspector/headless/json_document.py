"""The ``--json`` document of a call: one object a script or CI job can read."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from inspector.protocol.jsonrpc import JsonObject
from inspector.timeline.listen_span import ListenSpan
from inspector.timeline.model import Call, Finding, GivenAnswer, Round, Timeline
from inspector.timeline.outcome import Outcome
from inspector.timeline.server_requests import ServerRequests
from inspector.timeline.task_span import TaskSpan
from inspector.timeline.time_split import TimeSplit
from inspector.timeline.wire import WireMessage
from inspector.timeline.wording import includes_startup


def finding_json(found: Finding) -> JsonObject:
    """A finding as JSON."""
    out: JsonObject = {"code": found.code, "severity": found.severity, "message": found.message}
    if found.hint:
        out["hint"] = found.hint
    if found.call_index is not None:
        out["call"] = found.call_index
    if found.round_index is not None:
        out["round"] = found.round_index
    return out


def findings_json(found: Iterable[Finding], by_code: Mapping[str, int]) -> JsonObject:
    """``findings``: the kept findings (``timeline.kept_findings``: the first few of each code); when some were let
    go (a flood), ``findingCount`` how many came and ``findingsByCode`` how many of each code."""
    listed = [finding_json(f) for f in found]
    out: JsonObject = {"findings": listed}
    count = sum(by_code.values())
    if count > len(listed):
        out["findingCount"] = count
        out["findingsByCode"] = dict(by_code)
    return out


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


def split_json(times: TimeSplit) -> JsonObject:
    """A time split by whose it was (``timeline.time_split``): ``serverMs`` the server's; ``personMs`` the person's
    (dialogs, forms, a login's consent page), ``modelMs`` a model's (``models`` names it), ``clientMs`` the client's
    own answers (``clients``); ``waitMs`` the three together. None: no part was that one's."""
    return {
        "serverMs": _ms(times.server_ms),
        "waitMs": _ms(times.waited_ms),
        "personMs": _ms(times.person_ms),
        "modelMs": _ms(times.model_ms),
        "clientMs": _ms(times.client_ms),
        "models": list(times.models),
        "clients": list(times.clients),
    }


def round_json(round_: Round, times: TimeSplit | None = None, *, startup: bool = False) -> JsonObject:
    """One round: id, resultType, input request keys, requestState facts, times, answers. ``ms`` is the round's
    latency on the wire, and ``times`` (``Call.round_times``; a session row's own: ``Round.reply_times``) whose
    it was (``split_json``); ``includesStartup`` marks the first request over stdio."""
    out: JsonObject = {
        "kind": round_.kind,
        "id": round_.request_id,
        "method": round_.method,
        "resultType": round_.result_type,
        "inputRequests": list(round_.input_requests) if round_.kind == "request" else [],
        "ms": _ms(round_.latency_ms),
        **split_json(times if times is not None else round_.reply_times),
    }
    if round_.instance is not None:
        out["instance"] = round_.instance
    if startup:
        out["includesStartup"] = True
    if round_.request_state is not None:
        out["requestState"] = {
            "length": round_.request_state.length,
            "sha256": round_.request_state.sha256,
            "echoed": round_.request_state.echoed,
        }
    if round_.answers:
        out["answers"] = [answer_json(a) for a in round_.answers]
    if round_.error is not None:
        out["error"] = round_.error
    notes = round_.notifications
    if notes:  # (the newest kept, and how many came: a flood's every one is in the recording)
        out["notificationCount"] = notes.count
        out["notificationsByMethod"] = dict(notes.by_method)
        out["notifications"] = [notification_json(n) for n in notes]
    if round_.abandoned is not None:
        out["abandoned"] = round_.abandoned
    if round_.late:
        out["late"] = True
    if round_.inferred_owner:
        out["inferredOwner"] = True
    return out


def answer_json(answer: GivenAnswer) -> JsonObject:
    """An answer: its key, who gave it, whose time it took (``party``; ``modelMs`` the part a model computed)."""
    out: JsonObject = {"key": answer.key, "source": answer.source, "party": answer.party, "response": answer.response}
    if answer.model_ms is not None:
        out["modelMs"] = _ms(answer.model_ms)
    return out


def notification_json(message: WireMessage) -> JsonObject:
    """One notification on a round: when it came, its method and its params."""
    parsed = message.message or {}
    return {"t": round(message.at, 6), "method": parsed.get("method"), "params": parsed.get("params")}


def task_json(span: TaskSpan) -> JsonObject:
    """A call's task: its id, its shape, the hints, and every status it was seen in (when, how, what it asked)."""
    return {
        "taskId": span.task_id,
        "shape": span.shape,
        "status": span.status,
        "ttlMs": span.ttl_ms,
        "pollIntervalMs": span.poll_interval_ms,
        "polls": span.polls,
        "statusHistory": [
            {
                "t": round(state.at, 6),
                "status": state.status,
                "message": state.message,
                "via": state.via,
                "round": state.round_index,
                "inputRequests": list(state.input_keys),
            }
            for state in span.history
        ],
        "cancelRound": span.cancel_round,
    }


def listen_json(span: ListenSpan) -> JsonObject:
    """A call's subscription: what was asked and honoured, when it was acknowledged, how many events came (by
    method) and the newest of them, how it ended."""
    return {
        "subscriptionId": span.subscription_id,
        "asked": span.asked,
        "honoured": span.honoured,
        "ackT": None if span.ack_at is None else round(span.ack_at, 6),
        "eventCount": span.events.count,
        "eventsByMethod": dict(span.events.by_method),
        "events": [notification_json(e) for e in span.events],
        "end": span.end,
    }


def call_times_json(call: Call) -> JsonObject:
    """A call's times: ``ms`` from its first request to its end, then whose they were (``split_json`` of
    ``Call.times``: the sum of its rounds', and a login's wait outside them), and ``answeredBy`` who answered."""
    return {"ms": _ms(call.total_ms), **split_json(call.times), "answeredBy": call.answer_sources}


def rounds_json(call: Call, timeline: Timeline | None = None) -> list[JsonObject]:
    """Each round of ``call`` with its times; ``timeline`` tells which round includes the server's start-up."""
    times = call.round_times
    return [
        round_json(r, times[i], startup=timeline is not None and includes_startup(timeline, call, r))
        for i, r in enumerate(call.rounds)
    ]


def server_requests_json(requests: ServerRequests[Round], prefix: str) -> JsonObject:
    """How many server requests came and of which method (``{prefix}Count``, ``{prefix}sByMethod``)."""
    return {f"{prefix}Count": requests.count, f"{prefix}sByMethod": dict(requests.by_method)}


def later_requests_json(call: Call) -> JsonObject:
    """A flooded call's server requests past its rounds: the newest kept, and how many came."""
    requests = call.server_requests
    if not requests.kept:
        return {}
    return {**server_requests_json(requests, "serverRequest"), "laterServerRequests": [round_json(r) for r in requests]}


def session_json(timeline: Timeline) -> JsonObject:
    """The session rows (server requests of no call) kept, the newest, and how many came when not all are kept."""
    rows = timeline.session
    counts = server_requests_json(rows, "sessionRequest") if rows.left_out else {}
    return {"session": [round_json(r) for r in rows], **counts}


def call_json(call: Call, timeline: Timeline | None = None) -> JsonObject:
    """A call and its rounds."""
    return {
        "call": call.index,
        "method": call.method,
        "name": call.name,
        "resends": call.resends,
        "status": call.status,
        "detail": call.status_detail or None,
        **call_times_json(call),
        "rounds": rounds_json(call, timeline),
        **later_requests_json(call),
        **findings_json(call.all_findings(), call.findings_by_code()),
        "task": task_json(call.task) if call.task is not None else None,
        "listen": listen_json(call.listen) if call.listen is not None else None,
        **({"auth": [s.to_json() for s in call.auth]} if call.auth else {}),
        **from_cache_json(call),
    }


def from_cache_json(call: Call | None) -> JsonObject:
    """``fromCache`` for a call answered from the client's cache (nothing sent): how old, whose result, how many
    pages; nothing for any other call."""
    cached = call.cached if call is not None else None
    if cached is None:
        return {}
    return {"fromCache": {"ageMs": round(cached.age_ms, 3), "of": cached.of, "pages": cached.pages}}


def outcome_document(outcome: Outcome, timeline: Timeline, **extra: Any) -> JsonObject:
    """The whole ``--json`` answer for one call."""
    era = timeline.era
    call = timeline.call(outcome.call_index)
    doc: JsonObject = {
        "status": outcome.status,
        "exitCode": outcome.exit_code,
        "detail": outcome.detail or None,
        "hint": outcome.hint or None,
        "result": outcome.result,
        "error": outcome.error,
        "era": era.era if era else None,
        "protocolVersion": era.version if era else None,
        "eraWhy": era.why if era else None,
        "server": timeline.server_info,
        "transport": timeline.transport,
        **(call_times_json(call) if call is not None else {}),
        "rounds": rounds_json(call, timeline) if call is not None else [],
        **(later_requests_json(call) if call is not None else {}),
        **from_cache_json(call),
        "task": task_json(call.task) if call is not None and call.task is not None else None,
        "listen": listen_json(call.listen) if call is not None and call.listen is not None else None,
        **session_json(timeline),
        **findings_json(timeline.findings, timeline.findings.by_code),
    }
    if timeline.auth:
        doc["auth"] = [s.to_json() for s in timeline.auth]
    doc.update(extra)
    return doc
