"""Login steps on the timeline: an auth record lands on the round of the request it names, else on the call still
in flight, else on the session; a recording with them loads and replays to the same timeline; a secret an auth
event brings is redacted from that very record and every later one; a login waiting on a person holds the
request's timeout."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from inspector.protocol.oauth import AuthHttp
from inspector.protocol.redact import Redactor
from inspector.replay.loader import load_recording
from inspector.session.connection import Connection
from inspector.session.errors import RequestFailed
from inspector.session.recorder import Recorder
from inspector.session.session_log import SessionLog
from inspector.timeline import records
from inspector.timeline.auth_records import record as auth_record
from inspector.timeline.build.builder import TimelineBuilder, build_timeline
from inspector.transport.base import AuthEvent, EventSink, OutgoingMessage, Sent, TransportKind

REQUEST = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami"}}'


def event(step: str, outcome: str = "info", request_id: int | None = 1, **fields: Any) -> AuthEvent:
    return AuthEvent(step, outcome, f"{step} said", 0.5, request_id=request_id, **fields)


def lines() -> list[dict[str, Any]]:
    exchange = AuthHttp("GET", "https://as/.well-known/x", {"Accept": "*/*"}, None, 200, {}, '{"issuer":"x"}', 3.0)
    return [
        records.call_started(0.1, 1, "tools/call", {"name": "whoami"}),
        records.wire(0.2, "c2s", REQUEST, call=1),
        auth_record(0.3, event("challenge")),
        auth_record(0.4, event("authorization-server-metadata", "ok", http=exchange)),
        auth_record(0.45, event("refresh", request_id=7)),  # an id not in flight: the call in flight
        records.wire(0.5, "s2c", '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}'),
        auth_record(0.6, event("token", request_id=None)),  # no call in flight: the session's
    ]


def test_steps_land_on_their_round_their_call_or_the_session() -> None:
    timeline = build_timeline(lines())
    [call] = timeline.calls
    assert [(s.step, s.call_index, s.round_index) for s in call.auth] == [
        ("challenge", 1, 1),
        ("authorization-server-metadata", 1, 1),
        ("refresh", 1, None),
    ]
    assert call.auth[1].http is not None and call.auth[1].http.response_body == '{"issuer":"x"}'
    assert [(s.step, s.call_index) for s in timeline.auth] == [
        ("challenge", 1), ("authorization-server-metadata", 1), ("refresh", 1), ("token", None),
    ]  # fmt: skip


def test_a_recording_with_steps_loads_and_replays_the_same(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    header = records.header("https://mcp/mcp", "http", "modern", started="t", inspector_version="t")
    path.write_text("".join(json.dumps(line) + "\n" for line in [header, *lines()]), encoding="utf-8")
    loaded = load_recording(path)
    assert loaded.problems == []
    builder = TimelineBuilder()
    for line in loaded.records:
        builder.apply(line)
    assert builder.timeline == build_timeline(lines())


class Wire:
    """A transport that only remembers its sink: the test plays the transport's events."""

    kind: TransportKind = "http"

    def __init__(self) -> None:
        self.sink: EventSink | None = None

    def describe(self) -> str:
        return "https://mcp/mcp"

    async def start(self, sink: EventSink) -> None:
        self.sink = sink

    async def send(self, message: OutgoingMessage) -> None:
        assert self.sink is not None
        self.sink(Sent(message.raw, 0.1, message.request_id, None, message.owner))

    session_expired = False

    async def open_server_stream(self) -> None:
        return None

    async def cancel(self, request_id: int | str) -> bool:
        return False

    async def close(self) -> None:
        return None


async def test_a_secret_from_a_login_is_redacted_from_its_own_record_on(tmp_path: Path) -> None:
    redactor = Redactor()
    path = tmp_path / "r.jsonl"
    recorder = Recorder(path, {"recording": "inspector", "version": 1})
    log = SessionLog(lambda: 0.0, recorder, redactor=redactor)
    wire = Wire()
    connection = Connection(wire, log)
    await connection.start()
    assert wire.sink is not None
    wire.sink(AuthEvent("token", "ok", "got T0KEN-VALUE-123", 0.2, secrets=("T0KEN-VALUE-123",)))
    wire.sink(AuthEvent("retry", "ok", "sent Bearer T0KEN-VALUE-123 again", 0.3))
    log.flush()
    recorder.close()
    text = path.read_text()
    assert "T0KEN-VALUE-123" not in text and text.count("[redacted]") == 2
    assert redactor.found("T0KEN-VALUE-123"), "the session's redactor (what faces print through) has it too"


async def test_a_login_waiting_on_a_person_holds_the_request_timeout() -> None:
    log = SessionLog(lambda: 0.0)
    wire = Wire()
    connection = Connection(wire, log)
    await connection.start()
    assert wire.sink is not None
    sink = wire.sink
    request = asyncio.create_task(connection.request(1, "tools/call", {}, timeout=0.05, protocol_version=None))
    await asyncio.sleep(0)  # the request is sent and its deadline set
    pending = connection._pending[1]
    assert pending.deadline is not None
    sink(AuthEvent("authorization", "waiting", "waiting for the browser", 0.1, request_id=1))
    assert pending.deadline is None, "no deadline while a person logs in: slow is not the server's fault"
    sink(AuthEvent("callback", "info", "redirect received", 0.3, request_id=1))
    assert pending.deadline is not None, "the whole timeout again, from the login's next step"
    try:
        await asyncio.wait_for(request, 5)
    except RequestFailed as failure:
        assert failure.kind == "timeout"
    assert connection.waited_on_person >= 0
