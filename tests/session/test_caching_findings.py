"""The caching and result findings against ``tests/fixtures/cache_rules_server.py``, a server that breaks one rule a
mode (the demo and the SDK servers keep them all: ``test_result_cache.py::test_the_demo_keeps_the_caching_rules``):
a complete result without the hints, an ``input_required`` that carries them (and whose final result is never
cached), a list whose order changes within one session, a ``public`` result whose HTTP answer varies by the
Authorization header, a text block that tells another story than ``structuredContent``. Each finding is raised
from the wire, so the replay of the recording raises it too; the well-behaved mode raises none."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from inspector.answers.build import build_answer_source
from inspector.replay.loader import timeline_from_recording
from inspector.session.recorder import Recorder
from inspector.session.result_cache import ResultCache
from inspector.session.session import InspectorSession
from inspector.timeline import records
from inspector.timeline.model import Finding, Timeline
from inspector.transport.base import Transport
from inspector.transport.http import StreamableHttpTransport
from inspector.transport.stdio import StdioTransport

pytestmark = pytest.mark.external  # (the fixture server is a process, or an HTTP server on 127.0.0.1)

FIXTURES = Path(__file__).parents[1] / "fixtures"
sys.path.insert(0, str(FIXTURES))
import cache_rules_server  # noqa: E402  (the fixture, for its HTTP face)

CODES = ("cache-hints-missing", "cache-hints-on-input-required", "cache-scope-public-varies", "list-order-changed",
         "two-stories")  # fmt: skip
Steps = Callable[[InspectorSession], Awaitable[object]]


def stdio(mode: str) -> Transport:
    return StdioTransport([sys.executable, str(FIXTURES / "cache_rules_server.py"), mode])


async def run(transport: Transport, steps: Steps, recording: Path, cache: ResultCache | None = None) -> Timeline:
    """Connect, run ``steps``, close; checks that the replay of the recording raises the same findings."""
    header = records.header(transport.describe(), transport.kind, "auto", started="", inspector_version="test")
    session = InspectorSession(
        transport,
        build_answer_source(on_missing="defaults"),
        recorder=Recorder(recording, header),
        timeout=30,
        cache=cache,
    )
    try:
        await session.connect()
        await steps(session)
    finally:
        await session.close()
    replayed, problems = timeline_from_recording(recording)
    assert problems == []
    assert said(replayed) == said(session.timeline), "a replay raises the same findings"
    return session.timeline


def said(timeline: Timeline) -> list[tuple[str, str, str, int | None, int | None]]:
    return [(f.code, f.severity, f.message, f.call_index, f.round_index) for f in ours(timeline)]


def ours(timeline: Timeline) -> list[Finding]:
    return [f for f in timeline.findings if f.code in CODES]


async def every_kind(session: InspectorSession) -> None:
    await session.list_all("tools")
    await session.read_resource("note://a")
    await session.call_tool("weather", {})


async def test_a_server_that_keeps_the_rules_raises_none_of_these(tmp_path: Path) -> None:
    async def twice(session: InspectorSession) -> None:
        await every_kind(session)
        await every_kind(session)

    timeline = await run(stdio("ok"), twice, tmp_path / "ok.jsonl")
    assert ours(timeline) == []


async def test_a_complete_result_without_the_hints(tmp_path: Path) -> None:
    timeline = await run(stdio("no-hints"), every_kind, tmp_path / "no-hints.jsonl")
    found = [(f.message, f.severity) for f in ours(timeline)]
    assert found == [
        ("server/discover result has no ttlMs and no cacheScope", "warning"),
        ("tools/list result has no cacheScope", "warning"),
        ("resources/read result has no ttlMs and no cacheScope", "warning"),
    ]
    assert "client reads ttlMs 0 and caches nothing" in ours(timeline)[0].hint


async def test_an_input_required_that_carries_hints_and_its_final_result_never_cached(tmp_path: Path) -> None:
    async def read_twice(session: InspectorSession) -> None:
        await session.read_resource("note://a")
        await session.read_resource("note://a")

    cache = ResultCache()
    timeline = await run(stdio("hints-on-input-required"), read_twice, tmp_path / "ir.jsonl", cache)
    found = ours(timeline)
    assert [(f.code, f.round_index) for f in found] == [("cache-hints-on-input-required", 1)] * 2
    assert found[0].message == "resources/read answered input_required with ttlMs 60000 and cacheScope 'public'"
    reads = [c for c in timeline.calls if c.method == "resources/read"]
    assert [c.cached for c in reads] == [None, None] and len(cache) == 0, "a retry's result is never kept"
    assert [len(c.rounds) for c in reads] == [2, 2]


async def test_a_list_whose_order_changes_within_one_session(tmp_path: Path) -> None:
    async def list_twice(session: InspectorSession) -> None:
        await session.list_all("tools")
        await session.list_all("tools")

    timeline = await run(stdio("reorder"), list_twice, tmp_path / "reorder.jsonl")
    (found,) = ours(timeline)
    first, second = (c for c in timeline.calls if c.method == "tools/list")
    assert (found.code, found.call_index) == ("list-order-changed", second.index)
    assert found.message == (
        f"tools/list came in another order than #{first.index}'s: alpha, bravo, charlie, delta, weather, "
        "weather_error → bravo, charlie, delta, weather, weather_error, alpha"
    )
    assert "prompt cache" in found.hint and "Sort by name" in found.hint


async def test_a_public_result_whose_http_answer_varies_by_login(tmp_path: Path) -> None:
    async def list_and_read(session: InspectorSession) -> None:
        await session.list_all("tools")
        await session.read_resource("note://a")

    with cache_rules_server.serve_http("public-vary") as url:
        timeline = await run(StreamableHttpTransport(url), list_and_read, tmp_path / "vary.jsonl")
    found = [(f.code, f.message) for f in ours(timeline)]
    said = "is cacheScope public, but its HTTP answer says Vary: Authorization"
    assert found == [
        ("cache-scope-public-varies", f"tools/list {said}"),
        ("cache-scope-public-varies", f"resources/read {said}"),
    ]


async def test_a_text_that_tells_another_story_than_structured_content(tmp_path: Path) -> None:
    async def weather(session: InspectorSession) -> None:
        await session.call_tool("weather", {})
        await session.call_tool("weather_error", {})

    timeline = await run(stdio("two-stories"), weather, tmp_path / "stories.jsonl")
    (found,) = ours(timeline)
    assert (found.code, found.severity) == ("two-stories", "info")
    assert (
        found.message == "content[0].text and structuredContent disagree: temperature: structuredContent 22.5, text 23"
    )
    assert "program reads one value and the model the other" in found.hint
