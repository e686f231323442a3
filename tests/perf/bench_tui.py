"""Benchmark (not a test): the TUI on a session of 100 and of 10,000 calls, headless.

The session is the real ``InspectorSession`` over the memory transport to an in-process echo peer
(``perf_support``), every fifth call a three-round ``work``. Prints, for each size: the time the session took to make
its calls (the session core's share; "build timeline"), the time from starting the app to the first paint of the
timeline, the time of one page-down through the pilot (key press to
idle, pilot overhead included) with how many timeline lines were drawn for it, and the time to move a page and
render every visible line of it directly (the widget's own cost, cache bypassed). Then what a person feels: a key
sent as a terminal's driver sends it, timed to the frame that shows it (p50 and p99 of 100 keys: down, page-down,
up, page-up from the middle of the timeline; the goal is a p99 under 50 ms at 10,000 calls), and a resize of the
terminal timed to the frame laid out at the new size (p50 and p99 of 15, between 160x45, 100x30 and 80x24; the goal
is under 100 ms).

Then the same figures for a recording opened offline, as ``inspector replay FILE`` does: a synthetic stdio recording
of N ``add`` calls (``bench_replay.synthesise``, the records a live session writes) is read and rebuilt into its
Timeline ("build timeline" is that load), and "first paint" runs from the start of the load to the first painted
timeline line of the read-only main screen (no session, no server).

The default run (100 and 10,000 calls) takes about a minute on the 2-core development machine; the first line says how
long a run will take from the sizes. Larger sizes are the slow mode (100,000 calls: about 80 s more).
Run: ``python tests/perf/bench_tui.py [SIZES...]`` (default: 100 10000).
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import time
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any, Final

from bench_replay import synthesise
from perf_support import announce, arguments, session_with_calls

from inspector.replay.loader import load_recording
from inspector.targets.target import Target
from inspector.ui.app import InspectorApp
from inspector.ui.app_settings import AppSettings
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.recorded import Recording
from inspector.ui.widgets.timeline_view import TimelineView

SIZE = (160, 45)
SECONDS_PER_CASE: Final = 20.0
"""What one size costs, live or replayed, besides its calls, on the 2-core development machine (the app's start and
close, five page-downs through the pilot, 100 keys and 15 resizes timed to their frames), for the first line's
estimate."""
SECONDS_PER_CALL: Final = 0.0007
"""What a call costs there, live (the session's calls) and replayed (the recording synthesised and loaded) together."""
painted: dict[str, Any] = {"first": None, "lines": 0}
_original = TimelineView.render_line


def _counting(self: TimelineView, y: int) -> Any:
    if self.rows and painted["first"] is None:
        painted["first"] = time.perf_counter()
    painted["lines"] += 1
    return _original(self, y)


TimelineView.render_line = _counting  # type: ignore[method-assign]

KEYS_TIMED: Final = 100
"""Key presses timed per size for the key-to-repaint percentiles (down, page-down, up, page-up in turn, from the
middle of the timeline: each moves the cursor, so each must repaint)."""
RESIZES_TIMED: Final = 15
"""Terminal resizes timed per size (160x45, 100x30, 80x24 in turn)."""
KEY_ROUND: Final = ("down", "pagedown", "up", "pageup")
RESIZE_ROUND: Final = ((100, 30), (80, 24), (160, 45))
frames: dict[str, Any] = {"at": 0.0, "shown": None}
_display = InspectorApp._display


def _timed_display(self: InspectorApp, screen: Any, renderable: Any) -> None:
    # (a frame: Textual hands the compositor's update to _display, which a headless app then drops; the time a key
    # press or resize reaches here is the time a terminal would have been repainted)
    if renderable is not None:
        frames["at"] = time.perf_counter()
        if frames["shown"] is not None:
            frames["shown"].set()
    _display(self, screen, renderable)


InspectorApp._display = _timed_display  # type: ignore[method-assign,assignment]


async def until_repainted(started: float) -> float:
    """Seconds from ``started`` to the first frame after it (bounded: 10 s)."""
    shown = frames["shown"]
    async with asyncio.timeout(10):
        while frames["at"] <= started:
            shown.clear()
            await shown.wait()
    return float(frames["at"] - started)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def key_to_repaint(app: InspectorApp, pilot: Any) -> list[float]:
    """Each key's time from being sent (as a terminal's driver sends it) to the frame that shows it."""
    from textual import events

    latencies = []
    for index in range(KEYS_TIMED):
        key = KEY_ROUND[index % len(KEY_ROUND)]
        event = events.Key(key, None)
        event.set_sender(app)
        sent = time.perf_counter()
        app._driver.send_message(event)  # type: ignore[union-attr]
        latencies.append(await until_repainted(sent))
        await pilot.pause()  # (the next key is sent once this one's work is done, as a person's next key would be)
    return latencies


async def resize_to_repaint(pilot: Any) -> list[float]:
    """Each resize's time from the terminal's new size to the frame laid out at it."""
    latencies = []
    for index in range(RESIZES_TIMED):
        width, height = RESIZE_ROUND[index % len(RESIZE_ROUND)]
        sent = time.perf_counter()
        await pilot.resize_terminal(width, height)
        latencies.append(await until_repainted(sent))
        await pilot.pause()
    await pilot.resize_terminal(*SIZE)
    return latencies


async def live_app(calls: int, config: Path) -> tuple[InspectorApp, float, float]:
    """(the app on a live session that has made ``calls`` calls, the time they took, when opening started)."""
    started = time.perf_counter()
    session = await session_with_calls(calls)
    built = time.perf_counter() - started
    target = Target.from_spec("echo", name=f"{calls} calls")
    return InspectorApp(None, target, AppSettings(config_dir=config), session=session), built, time.perf_counter()


async def replay_app(calls: int, config: Path) -> tuple[InspectorApp, float, float]:
    """(the app on a recording of ``calls`` calls, read-only; load time, when the load started)."""
    path = config / f"replay-{calls}.jsonl"
    if not path.exists():
        synthesise(path, calls)
    started = time.perf_counter()
    recording = Recording.from_loaded(load_recording(path))
    built = time.perf_counter() - started
    return InspectorApp(None, None, AppSettings(config_dir=config), replay=recording), built, started


async def bench(calls: int, config: Path, *, replay: bool = False) -> dict[str, float]:
    # The previous case's app and session are garbage now (a live session also hands its frozen heap back when it
    # closes): collected here, so no case pays for the one before it.
    gc.collect()
    app, built, opened = await (replay_app if replay else live_app)(calls, config)
    painted.update(first=None, lines=0)
    frames.update(at=0.0, shown=asyncio.Event())
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
        view.cursor = len(view.rows) // 2
        view.focus()
        await pilot.pause()
        keys = await key_to_repaint(app, pilot)
        resizes = await resize_to_repaint(pilot)
        for screen in app.screen_stack:
            if isinstance(screen, MainScreen):
                await screen.close_session()
    return {
        "calls": calls,
        "rows": len(view.rows),
        "build_s": built,
        "first_paint_s": first_paint,
        "page_down_s": page_down,
        "page_render_s": page_render,
        "lines_rendered": rendered,
        "key_p50_s": percentile(keys, 0.5),
        "key_p99_s": percentile(keys, 0.99),
        "resize_p50_s": percentile(resizes, 0.5),
        "resize_p99_s": percentile(resizes, 0.99),
    }


async def main(sizes: list[int]) -> None:
    heads = (
        "calls",
        "rows",
        "build timeline",
        "first paint",
        "page-down (pilot)",
        "lines drawn",
        "page render",
        "key→frame p50",
        "key→frame p99",
        "resize p50",
        "resize p99",
    )
    with TemporaryDirectory() as folder:
        for replay in (False, True):
            print(
                "replay FILE (read-only, from the file)"
                if replay
                else "live session (memory transport, in-process echo peer)"
            )
            print("  ".join(f"{head:>14}" for head in heads))
            for calls in sizes:
                await row(calls, Path(folder), replay=replay)


async def row(calls: int, folder: Path, *, replay: bool) -> None:
    r = await bench(calls, folder, replay=replay)
    cells = [
        f"{r['calls']:.0f}",
        f"{r['rows']:.0f}",
        f"{r['build_s'] * 1000:.0f} ms",
        f"{r['first_paint_s'] * 1000:.0f} ms",
        f"{r['page_down_s'] * 1000:.1f} ms",
        f"{r['lines_rendered']:.0f}",
        f"{r['page_render_s'] * 1000:.2f} ms",
        f"{r['key_p50_s'] * 1000:.1f} ms",
        f"{r['key_p99_s'] * 1000:.1f} ms",
        f"{r['resize_p50_s'] * 1000:.1f} ms",
        f"{r['resize_p99_s'] * 1000:.1f} ms",
    ]
    print("  ".join(f"{cell:>14}" for cell in cells))


if __name__ == "__main__":
    parser = arguments(__doc__)
    parser.add_argument("sizes", nargs="*", type=int, default=[100, 10_000], help="session sizes, in calls")
    sizes = parser.parse_args().sizes
    announce(
        "bench_tui",
        2 * len(sizes) * SECONDS_PER_CASE + sum(sizes) * SECONDS_PER_CALL,
        f"{', '.join(map(str, sizes))} calls, each live and replayed",
        "SIZES",
    )
    asyncio.run(main(sizes))
