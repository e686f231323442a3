"""Benchmark (not a test): the TUI on a recorded timeline of 100 and of 10,000 calls, headless.

Prints, for each size: the time to build the timeline from records (the session core's share), the time from
starting the app to the first paint of the timeline, the time of one page-down through the pilot (key press to
idle, pilot overhead included) with how many timeline lines were drawn for it, and the time to move a page and
render every visible line of it directly (the widget's own cost, cache bypassed).
Run: ``python tests/perf/bench_tui.py [SIZES...]``.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from inspector.ui.app import InspectorApp
from inspector.ui.screens.main import MainScreen
from inspector.ui.scripted import ScriptedSession, recorded_timeline
from inspector.ui.target import Target
from inspector.ui.widgets.timeline_view import TimelineView

SIZE = (160, 45)
painted: dict[str, Any] = {"first": None, "lines": 0}
_original = TimelineView.render_line


def _counting(self: TimelineView, y: int) -> Any:
    if self.rows and painted["first"] is None:
        painted["first"] = time.perf_counter()
    painted["lines"] += 1
    return _original(self, y)


TimelineView.render_line = _counting  # type: ignore[method-assign]


async def bench(calls: int, config: Path) -> dict[str, float]:
    started = time.perf_counter()
    timeline = recorded_timeline(calls)
    built = time.perf_counter() - started
    session = ScriptedSession(timeline=timeline)
    target = Target.from_spec("recorded", name=f"{calls} recorded calls")
    app = InspectorApp(None, target, None, None, config_dir=config, session=session)
    painted.update(first=None, lines=0)
    opened = time.perf_counter()
    async with app.run_test(size=SIZE) as pilot:
        async with asyncio.timeout(60):
            while painted["first"] is None or not isinstance(app.screen, MainScreen) or not app.screen.catalog_loaded:
                await pilot.pause()
        first_paint = painted["first"] - opened
        view = app.screen.query_one(TimelineView)
        view.focus()
        await pilot.pause()
        timings = []
        for _ in range(5):
            lines_before = painted["lines"]
            pressed = time.perf_counter()
            await pilot.press("pagedown")
            await pilot.pause()
            timings.append(time.perf_counter() - pressed)
            rendered = painted["lines"] - lines_before
        page_down = statistics.median(timings)
        view.action_jump(0)
        renders = []
        for _ in range(5):
            started_render = time.perf_counter()
            view.action_page(1)
            for y in range(view.scrollable_content_region.height):
                _original(view, y)
            renders.append(time.perf_counter() - started_render)
        page_render = statistics.median(renders)
        assert view.cursor > 0
    return {
        "calls": calls,
        "rows": len(view.rows),
        "build_s": built,
        "first_paint_s": first_paint,
        "page_down_s": page_down,
        "page_render_s": page_render,
        "lines_rendered": rendered,
    }


async def main(sizes: list[int]) -> None:
    heads = ("calls", "rows", "build timeline", "first paint", "page-down (pilot)", "lines drawn", "page render")
    with TemporaryDirectory() as folder:
        print("  ".join(f"{head:>17}" for head in heads))
        for calls in sizes:
            r = await bench(calls, Path(folder))
            cells = [
                f"{r['calls']:.0f}",
                f"{r['rows']:.0f}",
                f"{r['build_s'] * 1000:.0f} ms",
                f"{r['first_paint_s'] * 1000:.0f} ms",
                f"{r['page_down_s'] * 1000:.1f} ms",
                f"{r['lines_rendered']:.0f}",
                f"{r['page_render_s'] * 1000:.2f} ms",
            ]
            print("  ".join(f"{cell:>17}" for cell in cells))


if __name__ == "__main__":
    asyncio.run(main([int(a) for a in sys.argv[1:]] or [100, 10_000]))
