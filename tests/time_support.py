"""Timelines with known times, built from records (as a recording is read back), for the tests of the time figures:
the server's time for a call apart from whose the rest was (the person's, a model's, the client's)."""

from __future__ import annotations

import json
from typing import Any, Final

from inspector.answers.source import Answer
from inspector.protocol.jsonrpc import JsonObject
from inspector.timeline import records
from inspector.timeline.build.builder import TimelineBuilder
from inspector.timeline.model import Timeline

LOGIN: Final[JsonObject] = {
    "method": "elicitation/create",
    "params": {
        "message": "Please provide your GitHub username",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
    },
}
ACCEPTED: Final[JsonObject] = {"action": "accept", "content": {"name": "octocat"}}
DONE: Final[JsonObject] = {"resultType": "complete", "content": [{"type": "text", "text": "ok"}]}


def _send(builder: TimelineBuilder, t: float, message: dict[str, Any], call: int | None = None) -> None:
    builder.apply(records.wire(t, "c2s", json.dumps(message), call=call))


def _receive(builder: TimelineBuilder, t: float, message: dict[str, Any]) -> None:
    builder.apply(records.wire(t, "s2c", json.dumps(message)))


def modern_weather(transport: str = "stdio", *, pending: bool = False) -> Timeline:
    """server/discover (1.2 s: the server was starting), then get_weather in two rounds of 14 ms and 65 ms with
    9.7 s between them, while the person typed the answer; ``pending`` adds slow_count, still waiting on the
    server."""
    builder = TimelineBuilder()
    builder.timeline.transport = transport
    builder.apply(records.call_started(0.0, 1, "server/discover", {}))
    _send(builder, 0.0, {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}, call=1)
    _receive(builder, 1.2, {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "supportedVersions": []}})
    builder.apply(records.call_ended(1.2, 1, "complete"))
    params: JsonObject = {"name": "get_weather", "arguments": {"location": "Paris"}}
    builder.apply(records.call_started(2.0, 2, "tools/call", params))
    _send(builder, 2.0, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": params}, call=2)
    asked = {"resultType": "input_required", "inputRequests": {"github_login": LOGIN}}
    _receive(builder, 2.014, {"jsonrpc": "2.0", "id": 2, "result": asked})
    builder.apply(records.answer_given(11.714, 2, "github_login", Answer(ACCEPTED, "you", "person")))
    retry = {**params, "inputResponses": {"github_login": ACCEPTED}}
    _send(builder, 11.714, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": retry}, call=2)
    _receive(builder, 11.779, {"jsonrpc": "2.0", "id": 3, "result": DONE})
    builder.apply(records.call_ended(11.779, 2, "complete"))
    if pending:
        slow: JsonObject = {"name": "slow_count", "arguments": {"n": 5}}
        builder.apply(records.call_started(20.0, 3, "tools/call", slow))
        _send(builder, 20.0, {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": slow}, call=3)
    return builder.timeline


def legacy_weather() -> Timeline:
    """A legacy get_weather: one tools/call request open for 10.1 s, during which the server asked the login
    (elicitation/create) and the person took 9.7 s to answer it."""
    builder = TimelineBuilder()
    builder.timeline.transport = "http"
    params: JsonObject = {"name": "get_weather", "arguments": {"location": "Paris"}}
    builder.apply(records.call_started(0.0, 1, "tools/call", params))
    _send(builder, 0.0, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}, call=1)
    _receive(builder, 0.2, {"jsonrpc": "2.0", "id": 0, **LOGIN})
    builder.apply(records.answer_given(9.9, 1, None, Answer(ACCEPTED, "you", "person"), server_request_id=0))
    _send(builder, 9.9, {"jsonrpc": "2.0", "id": 0, "result": ACCEPTED})
    _receive(builder, 10.1, {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "ok"}]}})
    builder.apply(records.call_ended(10.1, 1, "complete"))
    return builder.timeline


def state_only() -> Timeline:
    """heavy_report: a state-only input_required (no question) retried after a 250 ms back-off."""
    builder = TimelineBuilder()
    params: JsonObject = {"name": "heavy_report", "arguments": {}}
    builder.apply(records.call_started(0.0, 1, "tools/call", params))
    _send(builder, 0.0, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}, call=1)
    queued = {"resultType": "input_required", "requestState": "ticket-1"}
    _receive(builder, 0.010, {"jsonrpc": "2.0", "id": 1, "result": queued})
    retry = {**params, "requestState": "ticket-1"}
    _send(builder, 0.260, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": retry}, call=1)
    _receive(builder, 0.280, {"jsonrpc": "2.0", "id": 2, "result": DONE})
    builder.apply(records.call_ended(0.280, 1, "complete"))
    return builder.timeline


CAPITAL: Final[JsonObject] = {
    "method": "sampling/createMessage",
    "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "capital of France?"}}]},
}
PARIS: Final[JsonObject] = {
    "role": "assistant",
    "content": {"type": "text", "text": "Paris"},
    "model": "inspector-stub",
    "stopReason": "endTurn",
}


def stub_after_dialog(answer: dict[str, Any] | None = None) -> Timeline:
    """ask_capital: the server asks for a sampling reply (14 ms); the person reads the dialog for 2.0 s and hands it
    to the stub model, which takes 0.5 s; the retry is answered in 30 ms. ``answer``: the answer record's own
    fields instead (an older recording's, say)."""
    builder = TimelineBuilder()
    params: JsonObject = {"name": "ask_capital", "arguments": {}}
    builder.apply(records.call_started(0.0, 1, "tools/call", params))
    _send(builder, 0.0, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}, call=1)
    asked = {"resultType": "input_required", "inputRequests": {"capital": CAPITAL}}
    _receive(builder, 0.014, {"jsonrpc": "2.0", "id": 1, "result": asked})
    given = records.answer_given(2.514, 1, "capital", Answer(PARIS, "stub model", "person", 500.0))
    builder.apply({**given, **answer} if answer is not None else given)
    retry = {**params, "inputResponses": {"capital": PARIS}}
    _send(builder, 2.514, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": retry}, call=1)
    _receive(builder, 2.544, {"jsonrpc": "2.0", "id": 2, "result": DONE})
    builder.apply(records.call_ended(2.544, 1, "complete"))
    return builder.timeline


def _auth(t: float, step: str, outcome: str, what: str, ms: float | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {"t": t, "dir": "auth", "step": step, "outcome": outcome, "what": what, "for": 1}
    if ms is not None:
        record["http"] = {"method": "POST", "url": f"http://127.0.0.1:9/{step}", "status": 200, "elapsed_ms": ms}
    return record


def logged_in() -> Timeline:
    """server/discover over HTTP, which needed a login: the server's 401 and the authorization server's discovery,
    registration and token (15 + 10 + 49 + 30 ms), and between them 7.0 s on the consent page in the browser; the
    retry is answered 160 ms after the request first left, once the person's 7.0 s are taken out."""
    builder = TimelineBuilder()
    builder.timeline.transport = "http"
    builder.apply(records.call_started(0.0, 1, "server/discover", {}))
    _send(builder, 0.0, {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}, call=1)
    for record in (
        _auth(0.010, "challenge", "info", "HTTP 401, error invalid_token"),
        _auth(0.030, "protected-resource-metadata", "ok", "found", 15),
        _auth(0.045, "authorization-server-metadata", "ok", "found", 10),
        _auth(0.100, "registration", "ok", "HTTP 201", 49),
        _auth(0.101, "scope", "info", "scope 'demo:read'"),
        _auth(0.102, "authorization", "waiting", "waiting for the authorization to come back"),
        _auth(7.102, "callback", "info", "redirect received (browser)"),
        _auth(7.140, "token", "ok", "HTTP 200", 30),
        _auth(7.141, "retry", "ok", "the request was sent again"),
    ):
        builder.apply(record)
    _receive(builder, 7.160, {"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", "supportedVersions": []}})
    builder.apply(records.call_ended(7.160, 1, "complete"))
    return builder.timeline
