"""The demo's task tools driven by the real `InspectorSession`, over stdio and Streamable HTTP, in both eras.

The session follows each task to its end on the call that created it: the MRTR round that asks the environment sits
on the `tools/call` before the task span (2025: the server request does), then the creation, the polls, the one
answer to `approve_release`, the end. Every recording replays into the very timeline the live session built.

The demo runs its task flows at half their durations, poll hint included: the work after the approval still lasts
four poll hints, so the session sees `working` again before `completed` even on a loaded machine. Nothing here
sleeps: the session waits for the server, the tests wait for the session (a cancel waits on a timeline event).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Final

import pytest
from demo_support import demo_http_server

from inspector.answers.build import build_answer_source
from inspector.cli.demo_flows import example_answers_path
from inspector.demo.task_model import SCALE_ENV
from inspector.session.recorder import Recorder
from inspector.session.session import EraMode, InspectorSession
from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline
from inspector.timeline.model import Call, RoundUpdated, Timeline, TimelineEvent
from inspector.transport.http import StreamableHttpTransport
from inspector.transport.stdio import StdioTransport

pytestmark = pytest.mark.external  # (these tests open sockets and start processes: not in --fast-lane)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator
    from pathlib import Path

    from inspector.answers.source import AnswerSource
    from inspector.timeline.outcome import Outcome

TASK_ENV: Final = {SCALE_ENV: "0.5"}
DEMO: Final = [sys.executable, "-m", "inspector.demo"]
BOUND_S: Final = 60.0
"""Upper bound on one test's traffic: a hang fails the test, not the suite."""
RELATED: Final = "io.modelcontextprotocol/related-task"
STATUSES: Final = ["working", "input_required", "working", "completed"]
RELEASED: Final = "Released v1.2 to production (approved)."
LEGACY_ANSWERS: Final[dict[str, Any]] = {
    # Legacy server requests have no key: the answers file answers them by method, in the order asked.
    "elicitation/create": [
        {"action": "accept", "content": {"environment": "production"}},
        {"action": "accept", "content": {"approved": True}},
    ]
}


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    with demo_http_server(TASK_ENV) as url:
        yield url


@pytest.fixture(params=["stdio", "http"])
def target(request: pytest.FixtureRequest) -> str:
    """ "stdio", or the demo's URL over HTTP (started once for the module)."""
    return "stdio" if request.param == "stdio" else str(request.getfixturevalue("http_url"))


def answers_file(era: str, tmp_path: Path) -> AnswerSource:
    """The demo's own answers file (by key) for 2026; one answering by method, in order, for 2025."""
    if era == "modern":
        return build_answer_source(example_answers_path())
    path = tmp_path / "legacy-answers.json"
    path.write_text(json.dumps(LEGACY_ANSWERS), encoding="utf-8")
    return build_answer_source(path)


@asynccontextmanager
async def session_on(
    target: str, era: EraMode, answers: AnswerSource, recording: Path, *, tasks: bool = True
) -> AsyncIterator[InspectorSession]:
    """A connected, recorded session on the demo (stdio, or `target` as a URL), closed at the end."""
    transport = StdioTransport(DEMO, env=TASK_ENV) if target == "stdio" else StreamableHttpTransport(target)
    header = records.header(transport.describe(), transport.kind, era, started="test", inspector_version="test")
    session = InspectorSession(
        transport,
        answers,
        era=era,
        recorder=Recorder(recording, header),
        tasks=tasks,
        timeout=20,
    )
    try:
        async with asyncio.timeout(BOUND_S):
            await session.connect()
            await session.list_all("tools")  # 2025: a tool's execution.taskSupport decides params.task
            yield session
    finally:
        await session.close()


def comparable(timeline: Timeline) -> dict[str, Any]:
    """The timeline as plain data, minus what only the live session knows."""
    data = dataclasses.asdict(timeline)
    for key in ("listeners", "target", "transport"):
        data.pop(key)
    return data


def replays_the_same(session: InspectorSession, recording: Path) -> None:
    lines = [json.loads(line) for line in recording.read_text(encoding="utf-8").splitlines()]
    assert comparable(build_timeline(lines[1:])) == comparable(session.timeline)


def text_of(outcome: Outcome) -> str:
    result = outcome.result or {}
    return "\n".join(block.get("text", "") for block in result.get("content", []) if isinstance(block, dict))


def unexplained(session: InspectorSession) -> list[tuple[str, str]]:
    return [(f.code, f.message) for f in session.timeline.findings if f.code != "era"]


# ------------------------------------------------------------------------------------------------ the whole flow


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_deploy_release_runs_as_a_task(target: str, era: EraMode, tmp_path: Path) -> None:
    recording = tmp_path / "session.jsonl"
    async with session_on(target, era, answers_file(era, tmp_path), recording) as session:
        outcome = await session.call_tool("deploy_release", {"version": "1.2"})
    assert outcome.status == "complete", (outcome.status, outcome.detail)
    assert text_of(outcome) == RELEASED
    call = session.call(outcome.call_index)
    task = call.task
    assert task is not None and task.shape == ("ext-2026" if era == "modern" else "legacy-2025")
    assert task.changes() == STATUSES
    assert task.summary() == f"{task.polls} poll{'s' if task.polls != 1 else ''} · " + " → ".join(STATUSES)
    if era == "modern":
        modern_rounds(call)
    else:
        legacy_rounds(call)
    assert unexplained(session) == []
    replays_the_same(session, recording)


def modern_rounds(call: Call) -> None:
    """The environment asked by MRTR on the tools/call, then the task; the approval answered once, by key."""
    task = call.task
    assert task is not None
    asking, creating = call.rounds[0], call.rounds[1]
    assert (asking.method, asking.result_type, list(asking.input_requests)) == (
        "tools/call",
        "input_required",
        ["environment"],
    )
    assert (creating.method, creating.result_type) == ("tools/call", "task")
    assert task.created_round == creating.index
    assert {r.method for r in call.rounds[2:]} == {"tasks/get", "tasks/update"}
    given = [(a.key, a.source) for r in call.rounds for a in r.answers]
    assert given == [("environment", "answers file"), ("approve_release", "answers file")]
    (update,) = [r for r in call.rounds if r.method == "tasks/update"]
    assert update.request.message is not None
    assert list(update.request.message["params"]["inputResponses"]) == ["approve_release"]
    assert list(task.asked) == ["approve_release"]


def legacy_rounds(call: Call) -> None:
    """The environment asked by a server request during the tools/call (before its reply created the task), the
    approval by one asked on the blocking tasks/result, tied to the task by its related-task _meta."""
    task = call.task
    assert task is not None
    creating = call.rounds[0]
    assert (creating.method, creating.result_type, task.created_round) == ("tools/call", "task", creating.index)
    asked = [r for r in call.rounds if r.kind == "server-request"]
    assert [r.method for r in asked] == ["elicitation/create", "elicitation/create"]
    environment, approval = asked
    assert creating.response is not None and environment.started_at < creating.response.at
    assert [a.response for r in asked for a in r.answers] == LEGACY_ANSWERS["elicitation/create"]
    assert approval.request.message is not None
    assert approval.request.message["params"]["_meta"] == {RELATED: {"taskId": task.task_id}}
    assert [r.method for r in call.rounds if r.method == "tasks/result"] == ["tasks/result"]


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_on_missing_defaults_completes_it_headless(era: EraMode, tmp_path: Path) -> None:
    """Nothing but the forms' defaults: staging, approved (what `--on-missing defaults` does)."""
    async with session_on("stdio", era, build_answer_source(on_missing="defaults"), tmp_path / "s.jsonl") as session:
        outcome = await session.call_tool("deploy_release", {"version": "1.2"})
    assert outcome.status == "complete" and text_of(outcome) == "Released v1.2 to staging (approved)."
    call = session.call(outcome.call_index)
    sources = [a.source for r in call.rounds for a in r.answers]
    assert sources == ["policy: defaults", "policy: defaults"]
    assert call.task is not None and call.task.changes() == STATUSES
    replays_the_same(session, tmp_path / "s.jsonl")


# ------------------------------------------------------------------------------------------------ the required tool


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_nightly_build_is_a_task_or_nothing(era: EraMode, tmp_path: Path) -> None:
    answers = build_answer_source(on_missing="fail")
    async with session_on("stdio", era, answers, tmp_path / "on.jsonl") as session:
        built = await session.call_tool("nightly_build", {})
    assert built.status == "complete" and text_of(built).startswith("Nightly build passed")
    task = session.call(built.call_index).task
    assert task is not None and task.changes() == ["working", "completed"]
    assert unexplained(session) == []
    replays_the_same(session, tmp_path / "on.jsonl")

    async with session_on("stdio", era, answers, tmp_path / "off.jsonl", tasks=False) as session:
        refused = await session.call_tool("nightly_build", {})
    assert refused.status == "error" and refused.error is not None
    assert session.call(refused.call_index).task is None
    if era == "modern":
        assert refused.error["code"] == -32021
        assert refused.error["data"] == {"requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}}
        assert refused.hint == "the server wants the Tasks extension: drop --no-tasks (or turn Tasks on in the TUI)"
    else:
        assert refused.error["code"] == -32601  # 2025: a required task tool called without params.task
        assert "requires task augmentation" in refused.error["message"]
    replays_the_same(session, tmp_path / "off.jsonl")


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_without_tasks_deploy_release_runs_inline(era: EraMode, tmp_path: Path) -> None:
    """An optional task tool, for a session with tasks off: the same questions, asked on the call itself."""
    async with session_on("stdio", era, answers_file(era, tmp_path), tmp_path / "s.jsonl", tasks=False) as session:
        outcome = await session.call_tool("deploy_release", {"version": "1.2"})
    assert outcome.status == "complete" and text_of(outcome) == RELEASED
    call = session.call(outcome.call_index)
    assert call.task is None
    if era == "modern":
        assert [(r.method, r.result_type) for r in call.rounds] == [
            ("tools/call", "input_required"),
            ("tools/call", "input_required"),
            ("tools/call", "complete"),
        ]
        assert [list(r.input_requests) for r in call.rounds[:2]] == [["environment"], ["approve_release"]]
        carried = call.rounds[1].request_state
        assert carried is not None and carried.echoed is True  # the work done so far rode in requestState
    else:
        assert [(r.kind, r.method) for r in call.rounds] == [
            ("request", "tools/call"),
            ("server-request", "elicitation/create"),
            ("server-request", "elicitation/create"),
        ]
        assert call.rounds[0].request.message is not None
        assert "task" not in call.rounds[0].request.message["params"]
    progress = [n for r in call.rounds for n in r.notifications if "notifications/progress" in n.raw]
    assert [json.loads(n.raw)["params"]["message"] for n in progress] == ["building", "testing", "releasing"]
    assert unexplained(session) == []
    replays_the_same(session, tmp_path / "s.jsonl")


# ------------------------------------------------------------------------------------------------ cancelling


@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_cancel_mid_task_ends_cancelled(target: str, era: EraMode, tmp_path: Path) -> None:
    recording = tmp_path / "session.jsonl"
    async with session_on(target, era, answers_file(era, tmp_path), recording) as session:
        created = asyncio.Event()
        calls: list[int] = []

        def on_event(event: TimelineEvent) -> None:
            if isinstance(event, RoundUpdated) and event.call.name == "deploy_release" and event.call.task is not None:
                calls.append(event.call.index)
                created.set()

        unsubscribe = session.timeline.subscribe(on_event)
        # The environment is given, so the first round creates the task; it then works 1 s before it asks.
        running = asyncio.ensure_future(
            session.call_tool("deploy_release", {"version": "1.2", "environment": "staging"})
        )
        await asyncio.wait_for(created.wait(), BOUND_S)
        assert await session.cancel(calls[0]) is True
        outcome = await running
        unsubscribe()
    assert outcome.status == "cancelled", (outcome.status, outcome.detail)
    call = session.call(outcome.call_index)
    task = call.task
    assert task is not None and task.changes() == ["working", "cancelled"]
    (cancelling,) = [r for r in call.rounds if r.index == task.cancel_round]
    assert cancelling.method == "tasks/cancel"
    assert [r.method for r in call.rounds].count("tasks/cancel") == 1
    assert [r.kind for r in call.rounds].count("server-request") == 0  # cancelled before it asked
    if era == "legacy":
        assert (cancelling.result or {}).get("status") == "cancelled"  # 2025: the Task, already cancelled
    assert unexplained(session) == []
    replays_the_same(session, recording)
