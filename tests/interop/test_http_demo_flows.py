"""Every demo flow over Streamable HTTP, in both eras, through ``InspectorSession``, against the demo server built on
the official Python SDK (``python -m inspector.demo --http --port 0``).

2026-07-28: each flow is MRTR rounds answered by key from the demo's answers file. Legacy (2025-11-25): the same
flows arrive as server->client requests on the POST's event stream; there is no key, so the scripted answers are
matched by method, and ``elicitation/create`` is a list used in the order the flows ask. Either way each answer
becomes part of the call (a round of its own in legacy) and the result text shows it was used.

Also: a legacy session the server forgets (DELETE from elsewhere, seen on a POST or first on the GET stream) is
re-initialized and the call completes.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from http_interop_support import demo_http_server, read_jsonl

from inspector.answers.chain import AnswerChain
from inspector.answers.policies import Policy
from inspector.answers.scripted import parse_answers
from inspector.cli.demo_flows import DEMO_FLOWS, example_answers_path, run_demo_flows
from inspector.session.recorder import Recorder
from inspector.session.session import EraMode, InspectorSession
from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline
from inspector.timeline.model import Call, Timeline
from inspector.timeline.outcome import Outcome
from inspector.transport.http import StreamableHttpTransport

pytestmark = pytest.mark.external  # (these tests open sockets and start processes: not in --fast-lane)

BOUND_S = 60.0
"""Upper bound on a whole test's traffic: a hang fails the test instead of the suite."""

MODERN_ANSWERS: dict[str, Any] = json.loads(example_answers_path().read_text(encoding="utf-8"))
SAMPLED = MODERN_ANSWERS["sampling/createMessage"]  # SEP-2322's own CreateMessageResult
ROOTS = {"roots": [{"uri": "file:///home/demo/projects/inspector", "name": "inspector"}]}
LEGACY_ELICITATIONS: list[dict[str, Any]] = [
    {"action": "accept", "content": {"name": "octocat"}},  # get_weather: who are you on GitHub
    {"action": "accept", "content": {"resolution": "Duplicate"}},  # update_work_item, question 1
    {"action": "accept", "content": {"duplicateOfId": 4301}},  # update_work_item, question 2
    {"action": "accept", "content": {"name": "hubber"}},  # rolling_login: GitHub
    {"action": "accept", "content": {"email": "hubber@gmail.com"}},  # rolling_login: Google
    {"action": "accept", "content": {"email": "hubber@outlook.com"}},  # rolling_login: Microsoft
    MODERN_ANSWERS["meeting"],  # book_meeting
    {"action": "accept"},  # open_dashboard (URL mode)
    {"action": "accept", "content": {"language": "python"}},  # code_review
    {"action": "accept", "content": {"confirm": True}},  # demo://report
    {"action": "accept", "content": {"environment": "staging"}},  # deploy_release, before its task
    {"action": "accept", "content": {"approved": True}},  # deploy_release, asked by its task (tasks/result)
]
LEGACY_ANSWERS: dict[str, Any] = {
    "elicitation/create": LEGACY_ELICITATIONS,
    "sampling/createMessage": SAMPLED,
    "roots/list": ROOTS,
}

WEATHER = "Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy"
WORK_ITEM = "Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created."
CAPITAL = "The model (claude-3-sonnet-20240307) says: The capital of France is Paris."
"""SEP-2322's sentences (its weather, its work item; its sampling reply, quoted by the tool)."""

# flow -> (text in the result per era, MRTR input-request keys per round (modern), server requests (legacy))
FLOWS: dict[str, tuple[dict[str, str], list[list[str]], list[str]]] = {
    "add": ({"modern": "5", "legacy": "5"}, [], []),
    "get_weather": (
        {"modern": WEATHER, "legacy": WEATHER},
        [["github_login"]],
        ["elicitation/create"],
    ),
    "update_work_item": (
        {"modern": WORK_ITEM, "legacy": WORK_ITEM},
        [["resolution"], ["duplicate_of"]],
        ["elicitation/create", "elicitation/create"],
    ),
    "ask_capital": (
        {"modern": CAPITAL, "legacy": CAPITAL},
        [["capital_of_france"]],
        ["sampling/createMessage"],
    ),
    "rolling_login": (
        {
            "modern": "Signed in: GitHub @octocat, Google octocat@gmail.com, Microsoft octocat@outlook.com.",
            "legacy": "Signed in: GitHub @hubber, Google hubber@gmail.com, Microsoft hubber@outlook.com.",
        },
        [["github_login", "google_login"], ["microsoft_login"]],
        ["elicitation/create"] * 3,
    ),
    "heavy_report": (
        {"modern": "resumed from ticket heavy-report-1", "legacy": "built at once: legacy clients cannot be asked"},
        [[]],  # load shedding: input_required with requestState only
        [],
    ),
    "show_roots": (
        {"modern": "- inspector: file:///home/demo/projects/inspector"} | {"legacy": "- inspector: file:///home/demo"},
        [["roots"]],
        ["roots/list"],
    ),
    "book_meeting": ({"modern": "room='Everest'", "legacy": "room='Everest'"}, [["meeting"]], ["elicitation/create"]),
    "open_dashboard": (
        {"modern": "Dashboard connected via https://dashboard.example.com/", "legacy": "Dashboard connected via"},
        [["dashboard"]],
        ["elicitation/create"],
    ),
    "slow_count": ({"modern": "Counted to 5.", "legacy": "Counted to 5."}, [], []),
    "code_review": (
        {"modern": "review this python code", "legacy": "review this python code"},
        [["language"]],
        ["elicitation/create"],
    ),
    "demo://report": (
        {"modern": "# Quarterly report (summary)", "legacy": "# Quarterly report (summary)"},
        [["confirm"]],
        ["elicitation/create"],
    ),
    # Tasks: the MRTR keys asked on the tools/call before the task, then the keys the task asked.
    "deploy_release": (
        {"modern": "Released v1.2 to production (approved).", "legacy": "Released v1.2 to staging (approved)."},
        [["environment"], ["approve_release"]],
        ["elicitation/create", "elicitation/create"],
    ),
    "nightly_build": ({"modern": "Nightly build passed", "legacy": "Nightly build passed"}, [], []),
}


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    with demo_http_server() as url:
        yield url


def answers_for(era: str) -> AnswerChain:
    """The scripted answers (then ``fail``: nothing may be answered by a policy by accident)."""
    return AnswerChain(parse_answers(MODERN_ANSWERS if era == "modern" else LEGACY_ANSWERS), Policy("fail"))


def text_of(result: dict[str, Any] | None) -> str:
    """The text of a tool result, a prompt's messages or a resource's contents."""
    if result is None:
        return ""
    blocks = [*result.get("content", []), *result.get("contents", [])]
    blocks += [m.get("content", {}) for m in result.get("messages", [])]
    return "\n".join(b["text"] for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str))


def comparable(timeline: Timeline) -> dict[str, Any]:
    data = dataclasses.asdict(timeline)
    for key in ("listeners", "target", "transport"):
        data.pop(key)
    return data


async def session_on(url: str, era: EraMode, recording: Path | None = None) -> InspectorSession:
    transport = StreamableHttpTransport(url)
    recorder = None
    if recording is not None:
        header = records.header(url, "http", era, started="test", inspector_version="test")
        recorder = Recorder(recording, header)
    session = InspectorSession(transport, answers_for(str(era)), era=era, recorder=recorder, timeout=20)
    await session.connect()
    return session


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_every_demo_flow_over_http(demo_url: str, era: EraMode, tmp_path: Path) -> None:
    recording = tmp_path / "flows.jsonl"
    session = await session_on(demo_url, era, recording)
    try:
        async with asyncio.timeout(BOUND_S):
            outcomes = await run_demo_flows(session)
    finally:
        await session.close()
    timeline = session.timeline
    assert timeline.era is not None and timeline.era.era == era
    assert timeline.era.version == ("2026-07-28" if era == "modern" else "2025-11-25")
    assert timeline.server_info is not None and timeline.server_info["name"] == "inspector-demo"
    assert [session.call(o.call_index).name for o in outcomes] == [name for _, name, _ in DEMO_FLOWS]
    for outcome in outcomes:
        check_flow(session.call(outcome.call_index), outcome, str(era))
    assert [(f.code, f.message) for f in timeline.findings if f.code != "era"] == []
    assert not timeline.unmatched
    if era == "legacy":
        transport = session.transport
        assert isinstance(transport, StreamableHttpTransport)
        assert transport.server_stream_state in ("open", "ended")  # the SDK offers the GET stream; closed at the end
    # The recording replays into the very same timeline, HTTP exchanges included.
    body = read_jsonl(recording)[1:]
    assert comparable(build_timeline(body)) == comparable(timeline)
    assert all("http" in r and r["http"]["url"] == demo_url for r in body if r["dir"] == "c2s")
    assert all("http" in r and "status" in r["http"] for r in body if r["dir"] == "s2c")


def check_flow(call: Call, outcome: Outcome, era: str) -> None:
    name = call.name or ""
    texts, keys, server_requests = FLOWS[name]
    assert outcome.status == "complete", (name, outcome.status, outcome.detail)
    assert texts[era] in text_of(outcome.result), (name, text_of(outcome.result))
    if call.task is not None:
        check_task_flow(call, era, keys, server_requests)
        return
    if era == "modern":
        requests = [r for r in call.rounds if r.kind == "request"]
        assert [r for r in call.rounds if r.kind != "request"] == []
        assert [sorted(r.input_requests) for r in requests[:-1]] == keys, name
        assert requests[-1].result_type == "complete"
        for before, after in itertools.pairwise(requests):
            assert before.result_type == "input_required"
            assert sorted(a.key or "" for a in before.answers) == sorted(before.input_requests)
            if before.request_state is not None:
                assert before.request_state.echoed is True and after.echoed_state == before.request_state.value
    else:
        first, *interruptions = call.rounds
        assert first.kind == "request" and first.result_type == "complete"
        assert [(r.kind, r.method) for r in interruptions] == [("server-request", m) for m in server_requests], name
        for round_ in interruptions:
            (given,) = round_.answers
            assert given.key is None and given.source == "answers file"
            assert round_.response is not None and round_.response.message is not None
            assert round_.response.message.get("result") == given.response  # exactly what was scripted went back
            assert round_.result_type == "complete"
    if name == "slow_count":
        progress = [n for r in call.rounds for n in r.notifications if "notifications/progress" in n.raw]
        assert len(progress) == 5
    if name == "open_dashboard" and era == "legacy":
        notes = [n.raw for r in call.rounds for n in r.notifications]
        assert any("notifications/elicitation/complete" in raw for raw in notes), notes


def check_task_flow(call: Call, era: str, keys: list[list[str]], server_requests: list[str]) -> None:
    """A task flow: how often it was polled is timing, so only what was asked, where, and how it ended."""
    task = call.task
    assert task is not None and task.changes()[-1] == "completed", task
    if era == "modern":
        asked = [sorted(r.input_requests) for r in call.rounds if r.input_requests]
        assert asked == keys, call.name
        assert [r.method for r in call.rounds[: task.created_round]] == ["tools/call"] * (task.created_round or 0)
    else:
        asked_by_server = [r.method for r in call.rounds if r.kind == "server-request"]
        assert asked_by_server == server_requests, call.name


async def test_auto_era_settles_on_modern_over_http(demo_url: str) -> None:
    session = await session_on(demo_url, "auto")
    try:
        async with asyncio.timeout(BOUND_S):
            outcome = await session.call_tool("add", {"a": 40, "b": 2})
    finally:
        await session.close()
    assert session.timeline.era is not None and session.timeline.era.era == "modern"
    assert "server/discover lists" in session.timeline.era.why
    assert outcome.status == "complete" and text_of(outcome.result) == "42"


async def _forget_session(url: str, session_id: str) -> None:
    """End the session from elsewhere (another client, a server restart): DELETE with its id."""
    async with httpx.AsyncClient() as other:
        response = await other.delete(url, headers={"Mcp-Session-Id": session_id, "MCP-Protocol-Version": "2025-11-25"})
    assert response.status_code == 200


async def test_a_legacy_session_the_server_forgot_is_reinitialized_on_the_next_post(demo_url: str) -> None:
    session = await session_on(demo_url, "legacy")
    transport = session.transport
    assert isinstance(transport, StreamableHttpTransport)
    try:
        async with asyncio.timeout(BOUND_S):
            before = await session.call_tool("add", {"a": 1, "b": 1})
            old = transport.session_id
            assert old is not None
            await _forget_session(demo_url, old)
            outcome = await session.call_tool("get_weather", {"location": "Lisbon"})
    finally:
        await session.close()
    assert before.status == "complete"
    assert outcome.status == "complete", outcome.detail
    assert "Current weather in Lisbon:" in text_of(outcome.result)
    requests = [r for r in session.call(outcome.call_index).rounds if r.kind == "request"]
    if len(requests) == 2:  # the POST met the 404 (the GET stream had not noticed first)
        assert requests[0].error == {"code": -32600, "message": "Session not found"}
    assert requests[-1].result_type == "complete"
    assert [r.method for r in session.call(outcome.call_index).rounds if r.kind == "server-request"] == [
        "elicitation/create"
    ]
    findings = [f for f in session.timeline.findings if f.code != "era"]
    assert findings and all(f.code == "transport" and "session-expired" in f.message for f in findings)
    assert session.timeline.era is not None and "re-initialized" in session.timeline.era.why
    assert [c.method for c in session.timeline.calls].count("initialize") == 2


async def test_a_session_lost_on_the_get_stream_is_reinitialized_before_the_next_call(demo_url: str) -> None:
    session = await session_on(demo_url, "legacy")
    transport = session.transport
    assert isinstance(transport, StreamableHttpTransport)
    try:
        async with asyncio.timeout(BOUND_S):
            old = transport.session_id
            assert old is not None and transport.server_stream_state == "open"
            await _forget_session(demo_url, old)
            # The server closes the GET stream; reconnecting with the old id meets 404 (after the retry delay).
            expired = asyncio.Event()

            def on_event(_event: object) -> None:
                if transport.session_expired:
                    expired.set()

            unsubscribe = session.timeline.subscribe(on_event)
            if not transport.session_expired:
                await expired.wait()
            unsubscribe()
            outcome = await session.call_tool("add", {"a": 2, "b": 2})
            state = transport.server_stream_state
    finally:
        await session.close()
    assert outcome.status == "complete" and text_of(outcome.result) == "4"
    (only,) = session.call(outcome.call_index).rounds  # no request was wasted on the dead session
    assert only.result_type == "complete"
    assert transport.session_id != old
    assert state == "open", "a new GET stream was opened for the new session"
    (finding,) = [f for f in session.timeline.findings if f.code != "era"]
    assert "session-expired" in finding.message and finding.call_index is None
