"""Helpers for the TUI tests: the app on the real ``InspectorSession`` over the memory transport to an in-process
peer (``peers.py``), a step clock so latencies are the same on every run, fixed size, bounded waits on events."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from peers import demo
from textual.pilot import Pilot
from textual.screen import Screen

from inspector.answers.source import Answer, AnswerSource, NoAnswer
from inspector.demo.in_process import NAME
from inspector.session.recorder import Recorder
from inspector.session.session import EraMode, InspectorSession
from inspector.targets import known as known_targets
from inspector.targets.target import Target
from inspector.timeline import records
from inspector.transport.memory import MemoryTransport, Peer, StepClock
from inspector.ui.app import InspectorApp
from inspector.ui.app_settings import AppSettings
from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.lab_port import LabFactory
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.main.selection import selection
from inspector.ui.widgets.catalog import Catalog, CatalogList

SIZE: Final = (160, 45)
SIZES: Final = [(80, 24), (100, 30), (160, 45)]
"""The terminal sizes every screen and dialog is tried at: the smallest a person works in, a common one, a large one."""
DEMO: Final = Target.from_spec("python -m inspector.demo", name="demo")
WAIT_S: Final = 30.0
"""How long a test waits for what it expects before failing (generous: the suite runs on a loaded 2-core machine)."""
WORK_ITEM: Final = {"workItemId": 4522, "fields": {"System.State": "Resolved"}}
WORK_ITEM_ANSWERS: Final = {
    "resolution": {"action": "accept", "content": {"resolution": "Duplicate"}},
    "duplicate_of": {"action": "accept", "content": {"duplicateOfId": 4301}},
}
LOGIN_ANSWER: Final = {"github_login": {"action": "accept", "content": {"name": "octocat"}}}
PeerFactory = Callable[[], Peer]


class FixedAnswers:
    """Answers by input key, from a dict; records what it was asked."""

    def __init__(self, by_key: dict[str, dict[str, Any]] | None = None) -> None:
        self.by_key = by_key or {}
        self.asked: list[str | None] = []

    async def answer(self, key: str | None, request: dict[str, Any]) -> Answer:
        self.asked.append(key)
        if key not in self.by_key:
            raise NoAnswer(f"no test answer for {key!r}")
        return Answer(self.by_key[key], "you", "person")


def memory_session(
    peer: Peer, answers: AnswerSource, *, era: EraMode = "auto", recorder: Recorder | None = None
) -> InspectorSession:
    """The real session over the memory transport to ``peer``; one step clock for both, so every round's latency
    is the same on every run."""
    clock = StepClock()
    transport = MemoryTransport(peer, name=NAME, clock=clock)
    return InspectorSession(transport, answers, era=era, recorder=recorder, clock=clock)


def make_app(
    tmp_path: Path,
    *,
    answers: AnswerSource | None = None,
    target: Target | None = DEMO,
    theme: str | None = None,
    peer: PeerFactory = demo,
    sessions: list[InspectorSession] | None = None,
    interactive: bool = False,
    recording: Path | None = None,
    lab_factory: LabFactory | None = None,
    roots: tuple[str | Path, ...] | None = None,
) -> InspectorApp:
    """The app with a factory of sessions to a fresh ``peer()`` each; every session built is appended to
    ``sessions``. ``interactive``: questions are asked in the app's own dialogs, not answered by ``answers``.
    ``recording``: where the session records (as the TUI's own sessions do). ``lab_factory``: the Lab screen's.
    ``roots``: the roots offered for roots/list (None: the current folder, which differs from machine to machine)."""
    built = sessions if sessions is not None else []

    def factory(chosen: Target, given: AnswerSource) -> InspectorSession:
        recorder = None
        if recording is not None:
            header = records.header(chosen.display_name, "stdio", chosen.era, started="test", inspector_version="test")
            recorder = Recorder(recording, header)
        session = memory_session(peer(), given, era=chosen.era, recorder=recorder)
        built.append(session)
        return session

    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    settings = AppSettings(
        theme=theme, config_dir=tmp_path / "config", home=home, cwd=home, lab_factory=lab_factory, roots=roots
    )
    app = InspectorApp(
        factory, target, settings, answers=answers if answers is not None else FixedAnswers(WORK_ITEM_ANSWERS)
    )
    if interactive:
        app.answers = None  # each session asks in the app's own dialogs
    return app


def offer_servers(tmp_path: Path) -> None:
    """What the connect screen of ``make_app(tmp_path, target=None)`` lists: a recent target ("demo server", the
    demo's command) and a server of the home's ``.mcp.json`` ("weather", ``uvx weather-mcp``)."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    (home / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"weather": {"command": "uvx", "args": ["weather-mcp"]}}})
    )
    known_targets.remember(tmp_path / "config", Target.from_spec("python -m inspector.demo", name="demo server"))


async def wait_for(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = WAIT_S) -> None:
    """Let the app run until ``condition`` holds (bounded: fails after ``timeout`` seconds)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await pilot.pause()


async def toast_then_clear(pilot: Pilot[Any], said: str) -> None:
    """Wait for a toast saying ``said``, then clear every toast: a toast leaves after its timeout, so a picture
    taken later than that on a loaded machine would lose it (the snapshots show the screen without toasts)."""
    from textual.widgets._toast import Toast

    await wait_for(pilot, lambda: any(said in str(toast.render()) for toast in pilot.app.screen.query(Toast)))
    pilot.app.clear_notifications()
    await wait_for(pilot, lambda: not pilot.app.screen.query(Toast))


def footer(app: Any) -> list[tuple[str, str]]:
    """What the footer of the screen on top shows: each key as written and its word, one per action as Textual's
    ``Footer`` shows them (keys that do nothing in this state are not offered, ``check_action``)."""
    first: dict[str, Any] = {}
    for active in app.screen.active_bindings.values():
        if active.binding.show:
            first.setdefault(active.binding.action, active.binding)
    return [(app.get_key_display(binding), binding.description) for binding in first.values()]


def main_screen(pilot: Pilot[Any]) -> MainScreen:
    """The main screen, wherever it is in the stack (a modal may be over it)."""
    for screen in reversed(pilot.app.screen_stack):
        if isinstance(screen, MainScreen):
            return screen
    raise LookupError("no main screen")


async def connected(pilot: Pilot[Any]) -> MainScreen:
    """Wait until the main screen is on top with its catalog listed (or, for a recording, shown)."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.catalog_loaded)
    return main_screen(pilot)


async def opened(pilot: Pilot[Any], kind: type[Screen[Any]]) -> None:
    """Wait until a dialog (or screen) of ``kind`` is on top with its first focus set."""
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, kind) and app.screen.is_mounted)
    await pilot.pause()


def catalog_item(screen: MainScreen, name: str) -> dict[str, Any]:
    """The catalog's tool ``name``, as the server listed it."""
    return next(item for item in screen.query_one(Catalog).items["tools"] if item.get("name") == name)


async def catalog_on(pilot: Pilot[Any], tool: str) -> MainScreen:
    """Wait until connected, then put the focus on the catalog's list with the tool ``tool`` highlighted (enter
    opens its composer). The catalog must be shown (from 100 columns; under that it is a drawer ``/`` opens)."""
    screen = await connected(pilot)
    names = [item.get("name") for item in screen.query_one(Catalog).items["tools"]]
    listing = screen.query_one(CatalogList)
    listing.focus()
    listing.highlighted = listing.get_option_index(f"tools:{names.index(tool)}")
    await wait_for(pilot, lambda: listing.has_focus)
    return screen


DEMO_ARGUMENTS: Final[dict[str, dict[str, Any]]] = {"get_weather": {"location": "Paris"}}
"""The arguments the demo's tools that ask questions are called with (the others take none)."""


async def asked(pilot: Pilot[Any], screen: MainScreen, tool: str, dialog: type[Screen[Any]]) -> None:
    """Call the demo's ``tool`` (with ``DEMO_ARGUMENTS``) and wait until the ``dialog`` it asks in is open: in an
    app made ``interactive``, get_weather and book_meeting ask in a form, open_dashboard asks to open a URL,
    ask_capital for a model's reply (sampling) and show_roots for the roots."""
    screen.run_call(CallRequest("tools", tool, DEMO_ARGUMENTS.get(tool, {})))
    await opened(pilot, dialog)


async def finished_call(pilot: Pilot[Any], name: str, arguments: dict[str, Any]) -> MainScreen:
    """Call tool ``name`` from the connected main screen and wait until the call has ended and is shown."""
    screen = await connected(pilot)
    before = len(screen.timeline.calls)
    screen.run_call(CallRequest("tools", name, arguments))
    await wait_for(pilot, lambda: len(screen.timeline.calls) > before and screen.timeline.calls[-1].ended)
    await wait_for(pilot, lambda: screen.selected is not None and screen.selected[0] == len(screen.timeline.calls))
    # The detail pane is drawn again once the call's last change reaches the screen (a queued redraw, not at once):
    # wait until it shows the call as it ended.
    await wait_for(pilot, lambda: detail_shows_now(screen))
    await pilot.pause()
    return screen


def detail_shows_now(screen: MainScreen) -> bool:
    """Whether the detail pane shows the highlighted call or round as the timeline has it now: the redraw the
    screen queues when the call changes has run (it is drawn again later, not as the call changes)."""
    if screen.selected is None:
        return False
    detail = screen.query_one(DetailView)
    shown = selection(screen.timeline, *screen.selected, unfold=screen.shown.unfold, view=detail.view)
    return shown is not None and detail.document == shown.document


NAMED_KEYS: Final = {
    "enter": "\r",
    "tab": "\t",
    "shift+tab": None,
    "escape": "\x1b",
    "ctrl+u": "\x15",
    "ctrl+j": "\n",
    "backspace": "\x7f",
    "left": None,
}


def burst(app: Any, *keys: str) -> None:
    """Send ``keys`` (named keys, or text typed character by character) to ``app`` in one burst, as a terminal
    delivers fast typing to a loaded machine: every key is queued before the app has handled the first."""
    from textual import events
    from textual.keys import _character_to_key

    driver = app._driver
    assert driver is not None
    for key in keys:
        if key in NAMED_KEYS:
            driver.send_message(events.Key(key, NAMED_KEYS[key]).set_sender(app))
            continue
        for char in key:
            name = char if char.isalnum() else _character_to_key(char)
            driver.send_message(events.Key(name, char).set_sender(app))
