"""2025-11-25 URL-mode -32042 is surfaced as an input request, answered, and the call retried with a new id."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from inspector.answers.scripted import parse_answers
from inspector.session.recorder import Recorder
from inspector.session.session import InspectorSession
from inspector.timeline.build.builder import build_timeline
from inspector.timeline.outcome import Outcome
from inspector.transport.stdio import StdioTransport

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

SERVER = [sys.executable, str(Path(__file__).parents[1] / "fixtures" / "url_elicit_server.py")]


async def run(answers: dict[str, object], tmp_path: Path) -> tuple[InspectorSession, Outcome, Path]:
    path = tmp_path / "url.jsonl"
    session = InspectorSession(StdioTransport(SERVER), parse_answers(answers), recorder=Recorder(path, {}))
    try:
        await session.connect()
        outcome = await session.call_tool("repos", {})
    finally:
        await session.close()
    return session, outcome, path


async def test_consent_retries_the_call_and_the_url_shows_as_an_input_request(tmp_path: Path) -> None:
    session, outcome, path = await run({"link-github": {"action": "accept"}}, tmp_path)
    assert outcome.status == "complete"
    first, retry = session.call(outcome.call_index).rounds
    assert first.error is not None and first.error["code"] == -32042
    assert list(first.input_requests) == ["link-github"]
    assert first.input_requests["link-github"]["params"]["url"].startswith("https://github.example.com/")
    assert [a.key for a in first.answers] == ["link-github"]
    assert retry.request_id != first.request_id and retry.result_type == "complete"
    import json

    replayed = build_timeline([json.loads(line) for line in path.read_text().splitlines()[1:]])
    assert list(replayed.calls[-1].rounds[0].input_requests) == ["link-github"]


async def test_a_declined_url_ends_the_call_with_the_error(tmp_path: Path) -> None:
    session, outcome, _ = await run({"link-github": {"action": "decline"}}, tmp_path)
    assert outcome.status == "error"
    assert "decline" in outcome.detail
    assert len(session.call(outcome.call_index).rounds) == 1
