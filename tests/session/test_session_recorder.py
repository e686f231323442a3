"""The recorder: every record is on disk the moment it is written (a killed process loses at most the line being
written), and values marked secret never reach the file, however the wire escapes them."""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from session_support import BAD_SERVER, live_session, read_jsonl

from inspector.answers.build import build_answer_source
from inspector.cli.wiring import build_session, open_recorder
from inspector.protocol.redact import REDACTED, Redactor
from inspector.session.recorder import Recorder
from inspector.session.session_log import SessionLog
from inspector.targets.target import Target
from inspector.timeline import records
from inspector.timeline.model import CallFinished, RoundStarted, TimelineEvent
from inspector.timeline.records import raw_text

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)


def on_disk(path: Path) -> list[dict[str, Any]]:
    """The file as another reader sees it right now (a fresh handle, not the recorder's)."""
    with path.open("rb") as other:
        data = other.read().decode("utf-8")
    assert data.endswith("\n"), "a record is on disk only in part"
    return [json.loads(line) for line in data.split("\n")[:-1]]


def test_each_record_is_on_disk_as_soon_as_it_is_written(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    header = records.header("cmd", "stdio", "auto", started="now", inspector_version="test")
    recorder = Recorder(path, header)
    assert on_disk(path) == [header]
    written: list[dict[str, Any]] = [header]
    for i, record in enumerate(
        [
            records.wire(0.001, "c2s", '{"jsonrpc":"2.0","id":1,"method":"x"}', call=1),
            records.wire(0.002, "s2c", "garbage «é»\t"),
            records.stderr(0.003, "a log line"),
            records.call_ended(0.004, 1, "complete"),
        ]
    ):
        recorder.write(record)
        written.append(record)
        assert on_disk(path) == written, f"record {i} was not flushed"
    recorder.close()
    recorder.write(records.stderr(0.005, "after close"))
    assert on_disk(path) == written


async def test_the_timeline_never_sees_a_record_that_is_not_on_disk(tmp_path: Path) -> None:
    """Record first, then apply: whenever the timeline announces something, its line is already in the file."""
    seen: list[str] = []
    async with live_session(
        tmp_path, "ok", answers={"github_login": {"action": "accept", "content": {"name": "a"}}}
    ) as live:

        def check(event: TimelineEvent) -> None:
            lines = on_disk(live.recording)
            if isinstance(event, RoundStarted):
                assert raw_text(lines[-1]) == event.round.request.raw
                seen.append("round")
            elif isinstance(event, CallFinished):
                # the call ends on its final response (the wire says so) or on an end record (the session says so)
                last = lines[-1]
                final = event.call.rounds[-1].response
                by_wire = last["dir"] == "s2c" and final is not None and raw_text(last) == final.raw
                by_event = last.get("event") == "end" and last["call"] == event.call.index
                assert by_wire or by_event
                seen.append("end")

        live.timeline.subscribe(check)
        async with asyncio.timeout(20):
            outcome = await live.session.call_tool("login", {})
    assert outcome.status == "complete"
    assert seen == ["round", "round", "end"]
    live.verify()


async def test_secret_env_values_and_bearer_tokens_never_reach_the_recording(tmp_path: Path) -> None:
    token = 'tok"en\\with-quote-é-0042'
    bearer = "bearer-abcdef-123456"
    transcript = tmp_path / "transcript.jsonl"
    target = Target.from_spec(
        shlex.join([sys.executable, str(BAD_SERVER), "ok"]),
        env={"BAD_SERVER_TOKEN": token, "BAD_SERVER_TRANSCRIPT": str(transcript)},
        headers={"Authorization": f"Bearer {bearer}"},
        secret_names={"BAD_SERVER_TOKEN"},
    )
    assert {token, bearer} <= set(target.secrets())
    path = tmp_path / "secret.jsonl"
    session = build_session(target, build_answer_source(), record=path)
    try:
        await session.connect()
        async with asyncio.timeout(20):
            whoami = await session.call_tool("whoami", {})
            echoed = await session.call_tool("echo", {"bearer": bearer, "token": token})
    finally:
        await session.close()
    assert whoami.result is not None and whoami.result["content"][0]["text"] == f"token={REDACTED}", "shown redacted"
    assert echoed.status == "complete"
    escaped = json.dumps(token, ensure_ascii=False)[1:-1]
    assert any(escaped in t["raw"] for t in read_jsonl(transcript)), "the secret really crossed the pipe"

    text = path.read_text(encoding="utf-8")
    assert REDACTED in text
    for line in read_jsonl(path):
        for value in strings_in(line):
            assert token not in value and bearer not in value, f"a secret leaked into {line}"


def strings_in(value: Any) -> list[str]:
    """Every string in a record, with the ``raw`` wire text decoded too (a secret may hide two escapes deep)."""
    if isinstance(value, str):
        found = [value]
        try:
            decoded = json.loads(value)
        except ValueError:
            return found
        return found + (strings_in(decoded) if not isinstance(decoded, str) else [decoded])
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings_in(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings_in(v)]
    return []


def test_marked_headers_and_env_are_redacted_from_every_record(tmp_path: Path) -> None:
    target = Target.from_spec(
        "https://example.com/mcp?key=url-key-5555",
        headers={"X-Team-Key": "team-key-9999", "X-Plain": "visible-value"},
        env={"API_TOKEN": "env-token-7777", "URL_KEY": "url-key-5555"},
        secret_names={"x-team-key", "API_TOKEN", "url_key"},
    )
    path = tmp_path / "r.jsonl"
    recorder = open_recorder(path, target, "auto", "http")
    assert recorder is not None
    log = SessionLog(time.monotonic, recorder, redactor=Redactor(target.secrets()))
    log.write(records.stderr(0.1, "team-key-9999 env-token-7777 visible-value"))
    log.write(records.wire(0.2, "s2c", json.dumps({"echo": "team-key-9999", "env": "env-token-7777"})))
    recorder.close()
    text = path.read_text(encoding="utf-8")
    assert "team-key-9999" not in text and "env-token-7777" not in text and "url-key-5555" not in text
    assert "visible-value" in text and "https://example.com/mcp?key=[redacted]" in text
    assert [line.text for line in log.timeline.console] == ["[redacted] [redacted] visible-value"]


async def test_a_secret_the_server_echoes_encoded_never_reaches_the_recording_the_json_or_the_errors(
    tmp_path: Path,
) -> None:
    from rich.console import Console

    from inspector.headless.json_document import outcome_document
    from inspector.headless.printed_timeline import print_timeline

    token = "tok-0123456789-secret"
    target = Target.from_spec(
        shlex.join([sys.executable, str(BAD_SERVER), "ok"]),
        env={"BAD_SERVER_TOKEN": token},
        secret_names={"BAD_SERVER_TOKEN"},
    )
    path = tmp_path / "leak.jsonl"
    session = build_session(target, build_answer_source(), record=path)
    try:
        await session.connect()
        async with asyncio.timeout(20):
            leaked = await session.call_tool("leak", {})
            refused = await session.call_tool("leak-error", {})
    finally:
        await session.close()
    assert leaked.status == "complete" and refused.status == "error"
    console = Console(record=True, width=400, color_system=None)
    print_timeline(console, session.timeline)
    shown = {
        "recording": path.read_text(encoding="utf-8"),
        "printed timeline": console.export_text(),
        "--json": json.dumps(outcome_document(leaked, session.timeline)) + json.dumps(refused.error),
        "error detail": refused.detail,
        "stderr on the console": "\n".join(line.text for line in session.timeline.console),
    }
    forms = leaked_forms(token)
    for where, text in shown.items():
        assert REDACTED in text, where
        for form in forms:
            assert form not in text, f"{form!r} reached the {where}"


def leaked_forms(token: str) -> list[str]:
    """What the fixture's ``leak`` tool sends (its own list, so the test and the server agree)."""
    sys.path.insert(0, str(BAD_SERVER.parent))
    from bad_server import leaked_forms as forms

    return forms(token)
