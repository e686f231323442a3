"""Regenerates the SVG screenshots in ``screenshots/`` from the demo flows, headless.

``generate(session_factory, out_dir)`` is what ``inspector screenshots`` calls with the composition root's factory
(the bundled demo server, run in process over the memory transport with a step clock, so each picture is the same on
every run); ``ui`` never builds a session itself. The replay shots need a recording: ``recording_factory(path)`` is a
factory whose sessions record to ``path``; a demo session is recorded with it once, then opened read-only as
``inspector replay`` does.

Each shot opens a fresh app at a fixed size, drives one flow with the pilot, waits (bounded) for what it shows, and
saves an SVG with the cursors steady. Answers the shot is not about come from a canned table; the modal shots
(elicitation, sampling) let the app's own ``InteractiveAnswers`` open its modal, take the picture, and cancel the
call.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any, Final

from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from inspector.answers.source import Answer, AnswerSource
from inspector.replay.loader import load_recording
from inspector.targets.target import Target
from inspector.ui.app import InspectorApp
from inspector.ui.app_settings import AppSettings
from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.composer.compose_dialog import ComposeScreen
from inspector.ui.lab.lab_form import LabForm
from inspector.ui.lab.lab_rows import LabTable, LabText
from inspector.ui.lab.lab_screen import LabScreen
from inspector.ui.lab_port import LabFactory
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.modals.export_dialog import ExportModal
from inspector.ui.recorded import Recording
from inspector.ui.session_port import SessionFactory
from inspector.ui.themes import load_themes, shipped_themes_dir

SIZE: Final = (160, 45)
SMALL: Final = (80, 24)
"""The small terminal: the layout that adapts (the detail below the timeline, catalog and console one key away)."""
DEMO: Final = Target.from_spec(f"{sys.executable} -m inspector.demo", name="demo server")
CANNED: Final[dict[str, dict[str, Any]]] = {
    "resolution": {"action": "accept", "content": {"resolution": "Duplicate"}},
    "duplicate_of": {"action": "accept", "content": {"duplicateOfId": 4301}},
    "github_login": {"action": "accept", "content": {"name": "octocat"}},
}
Steps = Callable[[Pilot[None]], Awaitable[None]]
RecordingFactory = Callable[[Path], SessionFactory]
"""A session factory whose sessions record to the path given."""
LabFactoryMaker = Callable[[Path], LabFactory]
"""A lab factory whose runs record under the folder given."""
RECORDING: Final = "demo-session.jsonl"
WORK_ITEM: Final = {"workItemId": 4522, "fields": {"System.State": "Resolved"}}


class CannedFirst:
    """Canned answers by input key; anything else goes to ``fallback`` (the app's interactive source)."""

    def __init__(self, fallback: AnswerSource) -> None:
        self.fallback = fallback

    async def answer(self, key: str | None, request: dict[str, Any]) -> Answer:
        """The canned answer for ``key``, else ask the fallback."""
        if key in CANNED:
            return Answer(CANNED[key], "you", "person")  # (what a person would type in the dialog)
        return await self.fallback.answer(key, request)


async def _wait(pilot: Pilot[None], condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Let the app run until ``condition()`` holds (bounded), then until it is idle."""
    async with asyncio.timeout(timeout):
        while not condition():
            await pilot.pause()
    await pilot.pause()


def _steady(app: InspectorApp) -> None:
    """Stop the cursors blinking, so a picture does not depend on the moment it was taken."""
    for widget in app.screen.query("Input, TextArea"):
        if isinstance(widget, Input | TextArea):
            widget.cursor_blink = False


def _main(pilot: Pilot[None]) -> MainScreen:
    for screen in pilot.app.screen_stack:
        if isinstance(screen, MainScreen):
            return screen
    raise LookupError("no main screen")


async def _connected(pilot: Pilot[None]) -> MainScreen:
    await _wait(pilot, lambda: any(isinstance(s, MainScreen) and s.catalog_loaded for s in pilot.app.screen_stack))
    return _main(pilot)


async def _call(pilot: Pilot[None], name: str, arguments: dict[str, Any], *, wait_end: bool = True) -> MainScreen:
    screen = await _connected(pilot)
    count = len(screen.timeline.calls)
    screen.run_call(CallRequest("tools", name, arguments))
    await _wait(pilot, lambda: len(screen.timeline.calls) > count)
    if wait_end:
        await _wait(pilot, lambda: screen.timeline.calls[-1].ended)
    return screen


async def catalog(pilot: Pilot[None]) -> None:
    """The catalog focused on update_work_item, its definition in the detail pane."""
    screen = await _connected(pilot)
    screen.query_one("#catalog-search").focus()
    await pilot.press(*"update")
    await pilot.press("enter")
    await _wait(pilot, lambda: screen.query_one("#catalog-list").has_focus)


async def composer(pilot: Pilot[None]) -> None:
    """The call composer for update_work_item."""
    await catalog(pilot)
    await pilot.press("enter")
    await _wait(pilot, lambda: isinstance(pilot.app.screen, ComposeScreen))


async def timeline(pilot: Pilot[None]) -> None:
    """update_work_item through its three rounds, unfolded, round 1 highlighted."""
    screen = await _call(pilot, "update_work_item", WORK_ITEM)
    call = screen.timeline.calls[-1].index
    screen.timeline_view.focus()
    screen.timeline_view.select_call(call, 1)
    await _wait(pilot, lambda: screen.selected == (call, 1))


async def small_terminal(pilot: Pilot[None]) -> None:
    """At 80x24: get_weather then update_work_item, round 2 of the latter highlighted; the timeline full width."""
    await _call(pilot, "get_weather", {"location": "Lisbon"})
    await request_state(pilot)


async def request_state(pilot: Pilot[None]) -> None:
    """The same call with round 2 highlighted: the requestState panel shows the state and its echo check."""
    screen = await _call(pilot, "update_work_item", WORK_ITEM)
    call = screen.timeline.calls[-1]
    with_state = [r.index for r in call.rounds if r.request_state is not None] or [1]
    screen.timeline_view.focus()
    screen.timeline_view.select_call(call.index, with_state[0])
    await _wait(pilot, lambda: screen.selected == (call.index, with_state[0]))


async def replay(pilot: Pilot[None]) -> None:
    """The recorded demo session, read-only: update_work_item unfolded, round 2 (with its requestState) shown."""
    screen = await _connected(pilot)
    call = next(c for c in reversed(screen.timeline.calls) if c.name == "update_work_item")
    screen.timeline_view.select_call(call.index, 2)
    await _wait(pilot, lambda: screen.selected == (call.index, 2))


async def export(pilot: Pilot[None]) -> None:
    """The export dialog over the replay: update_work_item as a Python script using the official SDK."""
    await replay(pilot)
    await pilot.press("e")
    await _wait(pilot, lambda: isinstance(pilot.app.screen, ExportModal))
    await pilot.press("3")
    await _wait(pilot, lambda: isinstance(pilot.app.screen, ExportModal) and pilot.app.screen.format == "python")


async def record_demo(factory: SessionFactory, config_dir: Path) -> None:
    """Record a demo session (update_work_item, then get_weather) with ``factory``, for the replay shots."""
    app = InspectorApp(factory, DEMO, AppSettings(config_dir=config_dir))
    app.answers = CannedFirst(app.interactive_answers())
    async with app.run_test(size=SIZE) as pilot:
        await _call(pilot, "update_work_item", WORK_ITEM)
        await _call(pilot, "get_weather", {"location": "Lisbon"})
        await _main(pilot).close_session()


async def _modal(pilot: Pilot[None], tool: str) -> None:
    await _call(pilot, tool, {}, wait_end=False)
    await _wait(pilot, lambda: not isinstance(pilot.app.screen, MainScreen))


async def elicitation(pilot: Pilot[None]) -> None:
    """The elicitation form of book_meeting (every field type)."""
    await _modal(pilot, "book_meeting")


async def sampling(pilot: Pilot[None]) -> None:
    """The sampling dialog of ask_capital."""
    await _modal(pilot, "ask_capital")


async def lab(pilot: Pilot[None]) -> None:
    """The Lab screen after a run on this session's calls (update_work_item, get_weather): every check as it
    completed, the first tamper experiment highlighted, seed 004's four questions."""
    await _call(pilot, "update_work_item", WORK_ITEM)
    await _call(pilot, "get_weather", {"location": "Lisbon"})
    await pilot.press("L")
    await _wait(pilot, lambda: isinstance(pilot.app.screen, LabScreen))
    screen = pilot.app.screen
    assert isinstance(screen, LabScreen)
    screen.query_one(LabForm).tick(lambda choice: choice.source == "session")
    await pilot.press("ctrl+r")
    await _wait(pilot, lambda: screen.progress.finished, timeout=120.0)
    table = screen.query_one(LabTable)
    flipped = next(i for i, row in enumerate(table.rows_shown) if row.experiment is not None)
    table.move_cursor(row=flipped)
    detail = screen.query_one("#lab-detail", LabText)
    await _wait(pilot, lambda: "experiment: " in detail.plain)


@dataclass(frozen=True, slots=True)
class Shot:
    """One screenshot: a file name, the flow that leads to it, and the theme."""

    name: str
    steps: Steps
    theme: str = "inspector-dark"
    replay: bool = False
    """Taken on the recorded demo session, read-only (needs a recording factory)."""
    lab: bool = False
    """Runs the lab (needs a lab factory)."""
    size: tuple[int, int] = SIZE
    """The terminal's columns and rows."""


def shots() -> list[Shot]:
    """Every screenshot, the themed timelines included (one per shipped theme)."""
    found = [
        Shot("catalog", catalog),
        Shot("composer", composer),
        Shot("timeline-multi-round", timeline),
        Shot("request-state", request_state),
        Shot("small-terminal-80x24", small_terminal, size=SMALL),
        Shot("elicitation-book-meeting", elicitation),
        Shot("sampling-ask-capital", sampling),
        Shot("replay", replay, replay=True),
        Shot("export", export, replay=True),
        Shot("lab", lab, lab=True),
    ]
    for theme in load_themes(shipped_themes_dir()).themes:
        found.append(Shot(f"theme-{theme}", request_state, theme))
    return found


async def take(
    shot: Shot,
    factory: SessionFactory,
    out_dir: Path,
    target: Target = DEMO,
    recording: Path | None = None,
    config_dir: Path | None = None,
    lab_factory: LabFactory | None = None,
) -> Path:
    """Run one shot and save its SVG; returns the file written. The app's own config (recent targets) goes to
    ``config_dir`` (default: a temporary folder), never into ``out_dir``."""
    if config_dir is None:
        with TemporaryDirectory() as folder:
            return await take(shot, factory, out_dir, target, recording, Path(folder), lab_factory)
    if shot.replay:
        if recording is None:
            raise ValueError(f"the {shot.name} shot needs a recording")
        opened = Recording.from_loaded(load_recording(recording))
        opened.path = RECORDING  # the header names the file, not this machine's temporary folder
        app = InspectorApp(None, None, AppSettings(theme=shot.theme, config_dir=config_dir), replay=opened)
    else:
        settings = AppSettings(theme=shot.theme, config_dir=config_dir, lab_factory=lab_factory)
        app = InspectorApp(factory, target, settings)
    app.answers = CannedFirst(app.interactive_answers())
    async with app.run_test(size=shot.size) as pilot:
        await shot.steps(pilot)
        _steady(app)
        await pilot.pause()
        app.save_screenshot(filename=f"{shot.name}.svg", path=str(out_dir))
        for screen in app.screen_stack:
            if isinstance(screen, MainScreen):
                await screen.close_session()
    return out_dir / f"{shot.name}.svg"


def _prepare(out_dir: Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)


async def generate(
    factory: SessionFactory,
    out_dir: Path,
    only: list[str] | None = None,
    recording_factory: RecordingFactory | None = None,
    lab_factory: LabFactoryMaker | None = None,
) -> list[Path]:
    """Every screenshot (or those named in ``only``) into ``out_dir``; the replay shots only with a
    ``recording_factory``, the lab's with a ``lab_factory``."""
    _prepare(out_dir)
    chosen = [
        s
        for s in shots()
        if (not only or s.name in only)
        and (recording_factory is not None or not s.replay)
        and (lab_factory is not None or not s.lab)
    ]
    written = []
    with TemporaryDirectory() as folder:
        recording = Path(folder) / RECORDING
        if recording_factory is not None and any(shot.replay for shot in chosen):
            await record_demo(recording_factory(recording), Path(folder))
        labs = lab_factory(Path(folder)) if lab_factory is not None else None
        for shot in chosen:
            written.append(
                await take(shot, factory, out_dir, recording=recording, config_dir=Path(folder), lab_factory=labs)
            )
    return written
