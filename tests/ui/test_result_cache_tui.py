"""The TUI's cache of lists and reads, its refresh key, and what the catalog and the detail say of caching and of the
catalog's weight, on the real session over the memory transport to the demo (a cache with an injected clock).

A read repeated within its ttl is a row that says ``from cache, N s old`` and ``cached`` where rounds are counted,
its detail whose result it is and that no request was sent; ``R`` empties the cache and lists the catalog again
from the server. Each catalog heading says what a host hands a model of its kind, in estimated tokens, and an
item's preview says its bytes and tokens (an estimate). A tool's error result is not held to its outputSchema."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from peers import demo
from textual.pilot import Pilot
from textual.widgets import Input
from ui_support import DEMO, SIZE, FixedAnswers, connected, detail_shows_now, wait_for

from inspector.demo.in_process import NAME
from inspector.session.result_cache import ResultCache
from inspector.session.session import InspectorSession
from inspector.targets.target import Target
from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline
from inspector.transport.memory import MemoryTransport, StepClock
from inspector.ui.app import InspectorApp
from inspector.ui.app_settings import AppSettings
from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.detail.call_document import call_document
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.widgets.catalog import Catalog, CatalogList
from inspector.ui.widgets.timeline_rows import Row, RowLook, render_row
from inspector.ui.widgets.timeline_view import TimelineView

SnapCompare = Callable[..., bool]


class Clock:
    """The cache's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def cached_app(tmp_path: Path, clock: Clock, sessions: list[InspectorSession]) -> InspectorApp:
    """The app on the demo, each session built with one cache for the server (as ``inspector connect`` does)."""
    cache = ResultCache(clock)

    def factory(chosen: Target, given: Any) -> InspectorSession:
        step = StepClock()
        transport = MemoryTransport(demo(), name=NAME, clock=step)
        session = InspectorSession(transport, given, era=chosen.era, clock=step, cache=cache)
        sessions.append(session)
        return session

    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    settings = AppSettings(config_dir=tmp_path / "config", home=home, cwd=home, roots=())
    return InspectorApp(factory, DEMO, settings, answers=FixedAnswers())


def row_text(view: TimelineView, call: int) -> str:
    view.ensure_rows()
    return render_row(Row(call, 0, 0), view.timeline, view.expanded, RowLook(160, view.palette(), view.columns)).plain


async def read(pilot: Pilot[Any], screen: MainScreen, uri: str) -> int:
    """Read ``uri`` as the catalog's enter does, and wait until its call ended and is shown."""
    before = len(screen.timeline.calls)
    screen.run_call(CallRequest("resources", uri, None))
    await wait_for(pilot, lambda: len(screen.timeline.calls) > before and screen.timeline.calls[-1].ended)
    index = screen.timeline.calls[-1].index
    await wait_for(pilot, lambda: screen.selected is not None and screen.selected[0] == index)
    await wait_for(pilot, lambda: detail_shows_now(screen))
    return index


def detail_text(screen: MainScreen) -> list[str]:
    from inspector.ui.detail.detail_view import DetailView

    return [text for _, text in screen.query_one(DetailView).document.lines]


async def test_a_read_within_its_ttl_is_a_cached_row_and_r_asks_the_server_again(tmp_path: Path) -> None:
    clock = Clock()
    sessions: list[InspectorSession] = []
    async with cached_app(tmp_path, clock, sessions).run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        first = await read(pilot, screen, "demo://about")
        clock.now += 3
        again = await read(pilot, screen, "demo://about")
        call = screen.timeline.call(again)
        assert call is not None and call.rounds == [] and call.cached is not None
        row = row_text(screen.timeline_view, again)
        assert "from cache, 3.0 s old" in row and "cached" in row and "complete" in row
        assert f"complete · from cache, 3.0 s old (#{first}'s result; no request sent)" in detail_text(screen)
        assert "cache: 5 s, private (this login only)" in detail_text(screen)
        lists = [c.index for c in screen.timeline.calls if c.method.endswith("/list")]
        await pilot.press("R")
        await wait_for(pilot, lambda: sum(1 for c in screen.timeline.calls if c.method.endswith("/list")) == 8)
        await wait_for(pilot, lambda: all(c.ended for c in screen.timeline.calls))
        relisted = [c for c in screen.timeline.calls if c.method.endswith("/list") and c.index not in lists]
        assert [c.cached for c in relisted] == [None] * 4 and all(len(c.rounds) == 1 for c in relisted)
        after = await read(pilot, screen, "demo://about")
        assert screen.timeline.call(after) is not None and screen.timeline.call(after).cached is None  # type: ignore[union-attr]
    assert len(sessions) == 1


async def test_the_catalog_headings_say_their_weight_and_a_preview_says_it_is_an_estimate(tmp_path: Path) -> None:
    async with cached_app(tmp_path, Clock(), []).run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        catalog = screen.query_one(Catalog)
        listing = screen.query_one(CatalogList)
        headings = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        heads = [h for h in headings if not h.startswith("  ")]
        assert heads == ["Tools 12 · ≈1.2k tokens", "Prompts 1 · ≈31 tokens", "Resources 1", "Templates 1 · ≈45 tokens"]
        assert catalog.weight["tools"].bytes == 4683
        listing.focus()
        await wait_for(pilot, lambda: screen.shown is not None and listing.has_focus)
        listing.highlighted = listing.get_option_index("tools:0")
        await wait_for(pilot, lambda: any("handed to a model" in line for line in detail_text(screen)))
        said = next(line for line in detail_text(screen) if "handed to a model" in line)
        assert (
            said == "handed to a model: 414 bytes, ≈104 tokens (tokens estimated, 4 bytes each: no tokenizer offline)"
        )


async def test_a_search_weighs_only_what_it_shows(tmp_path: Path) -> None:
    """Searching the catalog for "get_weather": the Tools heading says what a host hands a model of that one tool
    (414 bytes, ≈104 tokens), not of all twelve; the kinds the search empties say no weight at all."""
    async with cached_app(tmp_path, Clock(), []).run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        listing = screen.query_one(CatalogList)
        screen.query_one("#catalog-search", Input).value = "get_weather"

        def heads() -> list[str]:
            options = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
            return [h for h in options if not h.startswith("  ")]

        await wait_for(pilot, lambda: heads()[0].startswith("Tools 1 "))
        assert heads() == ["Tools 1 · ≈104 tokens", "Prompts 0", "Resources 0", "Templates 0"]


def test_an_error_result_is_not_held_to_the_output_schema() -> None:
    result = {"content": [{"type": "text", "text": "no sensor"}], "structuredContent": {"reason": 1}, "isError": True}
    reply = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", **result}})
    timeline = build_timeline(
        [
            records.call_started(0.0, 1, "tools/call", {"name": "t"}),
            records.wire(0.1, "c2s", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}), call=1),
            records.wire(0.2, "s2c", reply),
        ]
    )
    call = timeline.call(1)
    assert call is not None
    schema = {"type": "object", "properties": {"temp": {"type": "number"}}, "required": ["temp"]}
    lines = [text for _, text in call_document(call, tool={"name": "t", "outputSchema": schema}).lines]
    assert "▍structuredContent · an error result (isError): not checked against the outputSchema" in lines
    assert not any("✗" in line and "outputSchema" in line for line in lines), "nothing marked against the schema"
    none = {"content": [], "isError": True}
    reply = json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"resultType": "complete", **none}})
    timeline = build_timeline([*records_of_call(reply)])
    call = timeline.call(1)
    assert call is not None
    lines = [text for _, text in call_document(call, tool={"name": "t", "outputSchema": schema}).lines]
    assert not any("has no structuredContent" in line for line in lines), "an error need not carry it"


def records_of_call(reply: str) -> list[dict[str, Any]]:
    return [
        records.call_started(0.0, 1, "tools/call", {"name": "t"}),
        records.wire(0.1, "c2s", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}), call=1),
        records.wire(0.2, "s2c", reply),
    ]


def test_a_cached_read_at_160x45(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The newest row reads "#7 resources/read demo://about  from cache, 3.0 s old" and, at the right, "cached
    complete" where a call counts its rounds and shows its status, and no time (nothing was sent); the detail pane
    heads "#7 resources/read demo://about", then "complete · from cache, 3.0 s old (#6's result; no request sent)"
    and "cache: 5 s, private (this login only)", the params and the result's markdown. Row #6, the same read, took
    one round of 12 ms. The catalog headings read "Tools 12 · ≈1.2k tokens", "Prompts 1 · ≈31 tokens",
    "Resources 1", "Templates 1 · ≈45 tokens"."""
    clock = Clock()

    async def steps(pilot: Pilot[Any]) -> None:
        screen = await connected(pilot)
        await read(pilot, screen, "demo://about")
        clock.now += 3
        await read(pilot, screen, "demo://about")
        await pilot.pause()

    assert snap_compare(cached_app(tmp_path, clock, []), terminal_size=SIZE, run_before=steps)
