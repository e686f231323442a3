"""The client's cache of lists and reads (``session.result_cache``, digest §1.4) through the real session, against the
demo served in process: a fresh list or read is a call with no request, said as such live and in a replay of the
recording; an entry lives for its ``ttlMs`` on an injected clock (nobody waits); a list change and a resource
update make what they name stale; an MRTR retry's result is never kept; a private result is never served to
another session, a public one is; a session without a cache (``--no-cache``) asks every time. And the demo keeps
the caching rules: hints on every cacheable result, lists in a stable order (no caching finding in its flows)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import Context, MCPServer

from inspector.answers.build import build_answer_source
from inspector.cli.demo_flows import example_answers_path, run_demo_flows
from inspector.cli.tui import make_session_factory
from inspector.demo.in_process import NAME, demo_peer, serve
from inspector.demo.server import build_server
from inspector.replay.loader import timeline_from_recording
from inspector.session.recorder import Recorder
from inspector.session.result_cache import ResultCache
from inspector.session.session import InspectorSession
from inspector.targets.target import Target
from inspector.timeline import records
from inspector.timeline.model import Call, Timeline
from inspector.transport.memory import MemoryTransport, Peer, StepClock

CACHING_CODES = {
    "cache-hints-missing",
    "cache-hints-on-input-required",
    "cache-scope-public-varies",
    "list-order-changed",
}


class Clock:
    """The cache's clock, moved by the test (an entry expires without anyone waiting)."""

    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def session_on(
    peer: Peer, cache: ResultCache | None, recording: Path | None = None, clock: Clock | None = None
) -> InspectorSession:
    """A session on ``peer`` whose transport, session and cache read one clock (``clock``, else a step clock): a
    result is kept the moment it came, and the test moves time."""
    step: Callable[[], float] = clock if clock is not None else StepClock()
    recorder = None
    if recording is not None:
        recorder = Recorder(recording, records.header(NAME, "stdio", "auto", started="", inspector_version="test"))
    answers = build_answer_source(example_answers_path(), "fail", stub_model=True)
    return InspectorSession(
        MemoryTransport(peer, name=NAME, clock=step), answers, clock=step, cache=cache, recorder=recorder
    )


def sent(timeline: Timeline, method: str) -> int:
    """How many requests of ``method`` went to the server."""
    return sum(1 for call in timeline.calls for r in call.rounds if r.kind == "request" and r.method == method)


def last(timeline: Timeline) -> Call:
    return timeline.calls[-1]


async def test_a_fresh_list_and_read_are_served_with_no_request_and_the_replay_says_so(tmp_path: Path) -> None:
    clock = Clock()
    recording = tmp_path / "session.jsonl"
    session = session_on(demo_peer(), ResultCache(clock), recording, clock)
    try:
        await session.connect()
        listed = await session.list_all("tools")
        clock.advance(12)
        again = await session.list_all("tools")
        await session.read_resource("demo://about")
        clock.advance(2)
        read_again = await session.read_resource("demo://about")
    finally:
        await session.close()
    timeline = session.timeline
    assert sent(timeline, "tools/list") == 1 and sent(timeline, "resources/read") == 1, "nothing sent for a hit"
    assert again.ok and again.result == listed.result, "the same items and hints as the list it came from"
    hit = timeline.call(again.call_index)
    assert hit is not None and hit.rounds == [] and hit.status == "complete" and hit.cached is not None
    assert hit.cached.said() == f"from cache, 12 s old (#{listed.call_index}'s result; no request sent)"
    assert hit.cached.hints.fresh_ms == 60_000 and session.tools, "the tools are known as after a real list"
    read = timeline.call(read_again.call_index)
    assert read is not None and read.cached is not None and read.cached.said().startswith("from cache, 2.0 s old")
    assert read_again.result is not None and read_again.result["contents"][0]["uri"] == "demo://about"
    replayed, problems = timeline_from_recording(recording)
    assert problems == []
    assert [(c.index, c.cached) for c in replayed.calls] == [(c.index, c.cached) for c in timeline.calls]
    said = [r for r in records_of(recording) if r.get("event") == "cached"]
    assert [(r["call"], r["of"], r["age_ms"]) for r in said] == [(again.call_index, listed.call_index, 12000.0),
                                                                  (read_again.call_index, read_again.call_index - 1,
                                                                   2000.0)]  # fmt: skip


def records_of(path: Path) -> list[dict[str, Any]]:
    import json

    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


async def test_an_entry_expires_at_its_ttl() -> None:
    clock = Clock()
    session = session_on(demo_peer(), ResultCache(clock), clock=clock)
    try:
        await session.connect()
        await session.read_resource("demo://about")  # the demo: 5 s, private
        clock.advance(4.999)
        assert (await session.read_resource("demo://about")).ok
        assert last(session.timeline).cached is not None, "fresh while now < received + ttlMs"
        clock.advance(0.001)
        await session.read_resource("demo://about")
        assert last(session.timeline).cached is None and sent(session.timeline, "resources/read") == 2
        await session.list_all("prompts")  # 60 s, public
        clock.advance(59.9)
        await session.list_all("prompts")
        assert last(session.timeline).cached is not None
        clock.advance(0.1)
        await session.list_all("prompts")
        assert last(session.timeline).cached is None and sent(session.timeline, "prompts/list") == 2
    finally:
        await session.close()


def with_changes() -> MCPServer[Any]:
    """The demo plus ``change_tools`` (a tools list change) and ``touch(uri)`` (a resource update), each told to the
    subscriptions that asked for it."""
    server = build_server()

    async def change_tools(ctx: Context) -> str:
        """Say that the tools changed."""
        await ctx.notify_tools_changed()
        return "tools changed"

    async def touch(uri: str, ctx: Context) -> str:
        """Say that ``uri`` was updated."""
        await ctx.notify_resource_updated(uri)
        return f"touched {uri}"

    server.add_tool(change_tools)
    server.add_tool(touch)
    server.resource("demo://other", name="other", mime_type="text/plain")(lambda: "another static resource")
    return server


async def test_a_list_change_and_a_resource_update_make_what_they_name_stale() -> None:
    session = session_on(serve(with_changes), ResultCache(Clock()))
    stop = asyncio.Event()
    heard = {"acked": asyncio.Event(), "two": asyncio.Event()}

    def watch(_: object) -> None:
        span = next((c.listen for c in session.timeline.calls if c.listen is not None), None)
        if span is not None and span.honoured is not None:
            heard["acked"].set()
        if span is not None and span.events.count >= 2:
            heard["two"].set()

    try:
        async with asyncio.timeout(30):
            await session.connect()
            for kind in ("tools", "prompts"):
                await session.list_all(kind)
            await session.read_resource("demo://about")
            await session.read_resource("demo://other")
            session.timeline.subscribe(watch)
            asked = {"toolsListChanged": True, "resourceSubscriptions": ["demo://about"]}
            listening = asyncio.ensure_future(session.listen(asked, stop))
            await heard["acked"].wait()
            await session.call_tool("change_tools", {})
            await session.call_tool("touch", {"uri": "demo://about"})
            await heard["two"].wait()
            stop.set()
            await listening
        tools = await session.list_all("tools")
        prompts = await session.list_all("prompts")
        about = await session.read_resource("demo://about")
        other = await session.read_resource("demo://other")
    finally:
        await session.close()
    served = {o.call_index: session.call(o.call_index).cached is not None for o in (tools, prompts, about, other)}
    assert served == {tools.call_index: False, prompts.call_index: True, about.call_index: False,
                      other.call_index: True}, "only what the notifications named went stale"  # fmt: skip


async def test_a_retrys_result_is_never_cached() -> None:
    session = session_on(demo_peer(), ResultCache(Clock()))
    try:
        await session.connect()
        first = await session.read_resource("demo://report")  # input_required, then the retry completes (5 s ttl)
        second = await session.read_resource("demo://report")
    finally:
        await session.close()
    assert first.ok and second.ok
    call = session.call(second.call_index)
    assert call.cached is None and [r.result_type for r in call.rounds] == ["input_required", "complete"]
    assert session.cache is not None and len(session.cache) == 0, "nothing of an MRTR flow was kept"


async def test_a_resend_asks_the_server_whatever_the_cache_holds() -> None:
    session = session_on(demo_peer(), ResultCache(Clock()))
    try:
        await session.connect()
        first = await session.read_resource("demo://about")
        resent = await session.read_resource("demo://about", resends=first.call_index)
        fresh = await session.read_resource("demo://about", fresh=True)
        refreshed = await session.list_all("tools", fresh=True)
    finally:
        await session.close()
    for outcome in (resent, fresh, refreshed):
        assert session.call(outcome.call_index).cached is None
    assert sent(session.timeline, "resources/read") == 3


async def test_without_a_cache_every_list_and_read_asks_the_server() -> None:
    session = session_on(demo_peer(), None)
    try:
        await session.connect()
        for _ in range(2):
            await session.list_all("tools")
            await session.read_resource("demo://about")
    finally:
        await session.close()
    assert sent(session.timeline, "tools/list") == 2 and sent(session.timeline, "resources/read") == 2
    assert all(call.cached is None for call in session.timeline.calls)


async def test_a_public_list_serves_the_next_session_and_a_private_read_does_not() -> None:
    cache = ResultCache(Clock())
    first = session_on(demo_peer(), cache)
    second = session_on(demo_peer(), cache)
    try:
        await first.connect()
        await first.list_all("tools")  # public
        await first.read_resource("demo://about")  # private: this session's authorization only
        await second.connect()
        listed = await second.list_all("tools")
        read = await second.read_resource("demo://about")
    finally:
        await first.close()
        await second.close()
    cached = second.call(listed.call_index).cached
    assert cached is not None and cached.of is None
    assert cached.said().startswith("from cache, 0.0 s old (a result of an earlier session with this server")
    assert second.call(read.call_index).cached is None, "a private result is never served to another session"


def test_the_tuis_factory_gives_each_server_one_cache_and_no_cache_with_no_cache() -> None:
    answers = build_answer_source()
    target = Target.from_spec("python -m inspector.demo")
    made = make_session_factory(None)
    one, two = made(target, answers), made(target, answers)
    other = made(Target.from_spec("python -m inspector.demo --flaw own-key"), answers)
    assert one.cache is not None and one.cache is two.cache and other.cache is not one.cache
    assert make_session_factory(None, cache=False)(target, answers).cache is None


async def test_the_demo_keeps_the_caching_rules_in_every_flow() -> None:
    session = session_on(demo_peer(), None)
    try:
        await session.connect()
        outcomes = await run_demo_flows(session)
        for kind in ("tools", "prompts", "resources", "templates"):
            await session.list_all(kind)  # a second list of each: in the same order
    finally:
        await session.close()
    assert all(outcome.ok for outcome in outcomes)
    found = [f"{f.code}: {f.message}" for f in session.timeline.findings if f.code in CACHING_CODES]
    assert found == [], found
    cacheable = [r for c in session.timeline.calls for r in c.rounds if r.result_type == "complete"]
    hinted = [r.method for r in cacheable if r.method in ("server/discover", "resources/read") or "list" in r.method]
    assert {"server/discover", "tools/list", "resources/read"} <= set(hinted)
    assert all({"ttlMs", "cacheScope"} <= (r.result or {}).keys() for r in cacheable if r.method in hinted)
