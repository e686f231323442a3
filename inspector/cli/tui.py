"""Opens the Textual TUI. Imported lazily by the commands that need it, so headless commands never load textual."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from inspector.cli.login_choices import LoginChoices

if TYPE_CHECKING:
    from collections.abc import Callable

    from inspector.answers.source import AnswerSource
    from inspector.protocol.oauth import Login
    from inspector.replay.loader import Loaded
    from inspector.session.result_cache import ResultCache
    from inspector.session.session import InspectorSession
    from inspector.targets.target import Target
    from inspector.ui.login.tui_login import ScreenLogin


def make_session_factory(
    recording: Path | None, login: LoginChoices | None = None, face: Login | None = None, *, cache: bool = True
) -> Callable[[Target, AnswerSource], InspectorSession]:
    """The factory the UI calls to turn the target it was given or chose into a session (transport + recorder +
    session); the target carries its headers, environment and secrets, so they are redacted from the recording. A
    server behind OAuth is logged in to through ``face`` (the TUI's login screen: the browser opens where there is
    one, the URL is shown to copy, a redirect may be pasted), else through the browser only (the TUI owns the
    terminal: nothing is printed). ``cache``: each server gets one ``ResultCache`` for the whole run, handed to
    every session made for it, so a reconnect finds the lists it listed while their ttlMs lasts (``--no-cache``:
    none).

    The engine is imported when the first session is made, not with the TUI: the main screen paints before it
    connects, and the session's modules are a third of what the TUI imports (``tests/perf/bench_startup.py``)."""
    caches: dict[str, ResultCache] = {}

    def session_factory(chosen: Target, answers: AnswerSource) -> InspectorSession:
        from inspector.cli.wiring import build_session, login_config
        from inspector.session.result_cache import ResultCache

        auth = login_config(chosen, login or LoginChoices(), quiet=True, face=face)
        kept = caches.setdefault(chosen.spec, ResultCache()) if cache else None
        return build_session(chosen, answers, record=recording, auth=auth, cache=kept)

    return session_factory


def in_process_demo_factory(recording: Path | None = None) -> Callable[[Target, AnswerSource], InspectorSession]:
    """Sessions on the demo server run in this process (``inspector screenshots``): the memory transport, and one
    step clock per session given to both the transport and the session, so the latencies shown (and so every
    picture) are the same on every run and every machine. ``recording``: where the sessions record to."""
    from inspector.cli.wiring import open_recorder
    from inspector.demo.in_process import NAME, demo_peer
    from inspector.session.session import InspectorSession
    from inspector.targets.target import Target
    from inspector.transport.memory import MemoryTransport, StepClock

    def session_factory(chosen: Target, answers: AnswerSource) -> InspectorSession:
        clock = StepClock()
        transport = MemoryTransport(demo_peer(), name=NAME, clock=clock)
        recorder = open_recorder(recording, Target.from_spec(NAME), chosen.era, transport.kind)
        return InspectorSession(transport, answers, era=chosen.era, recorder=recorder, clock=clock)

    return session_factory


def open_tui(
    target: Target | None,
    *,
    record: Path | None,
    theme: str | None = None,
    roots: list[str] | None = None,
    stub_sampling: bool = False,
    login: LoginChoices | None = None,
    cache: bool = True,
) -> int:
    """Run the TUI on ``target`` (None: the connect screen); returns the exit code. ``cache``: lists and reads are
    served from a cache while their ttlMs lasts (``--no-cache``: never)."""
    from inspector.cli.tui_lab import TuiLabFactory
    from inspector.ui.app import run_app
    from inspector.ui.app_settings import AppSettings

    choices = login or LoginChoices()
    face = screen_login(choices)
    settings = AppSettings(
        theme=theme,
        record_path_text=str(record) if record is not None else None,
        roots=tuple(roots) if roots is not None else None,
        stub_sampling=stub_sampling,
        lab_factory=TuiLabFactory(record=record is not None, login=choices, face=face),
        login=face,
    )
    return run_app(make_session_factory(record, choices, face, cache=cache), target, settings)


def screen_login(choices: LoginChoices) -> ScreenLogin:
    """The TUI's login: the browser opens where there is one on this machine and ``--no-browser`` was not given
    (a graphical one only: a console browser would take over the terminal the TUI draws in)."""
    from inspector.cli.terminal_login import browser_here
    from inspector.ui.login.tui_login import ScreenLogin
    from inspector.ui.modals.url_check import open_in_browser

    return ScreenLogin(open_in_browser if choices.browser and browser_here() else None)


def open_replay_tui(loaded: Loaded, *, step: bool = False, theme: str | None = None) -> int:
    """Run the TUI on a recording, read-only (no session, no server); returns the exit code."""
    from inspector.ui.app import run_replay

    return run_replay(loaded, step=step, theme=theme)
