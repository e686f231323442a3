"""Opens the Textual TUI. Imported lazily by the commands that need it, so headless commands never load textual."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from inspector.cli.compose import TargetOptions, build_session, default_recording_path, open_recorder
from inspector.session.client import EraMode, InspectorSession

if TYPE_CHECKING:
    from collections.abc import Callable

    from inspector.answers.base import AnswerSource
    from inspector.replay.loader import Loaded
    from inspector.ui.target import Target


def ui_target(options: TargetOptions, era: EraMode, *, name: str = "") -> Target:
    """The UI's plain-data target for the options given on the command line."""
    from inspector.ui.target import Target

    return Target.from_spec(options.spec, headers=options.parsed_headers(), era=era, name=name)


def make_session_factory(
    recording: Path | None, given: TargetOptions | None = None
) -> Callable[[Target, AnswerSource], InspectorSession]:
    """The factory the UI calls to turn a chosen target into a session (transport + recorder + session)."""

    def session_factory(chosen: Target, answers: AnswerSource) -> InspectorSession:
        options = TargetOptions(spec=chosen.spec, headers=[f"{k}: {v}" for k, v in chosen.headers.items()])
        if given is not None and given.spec == chosen.spec:
            options = given  # keep --bearer / --secret so they are redacted from the recording
        options.env = options.env or [f"{k}={v}" for k, v in chosen.env.items()]
        return build_session(options, answers, era=chosen.era, record=recording)

    return session_factory


def in_process_demo_factory(recording: Path | None = None) -> Callable[[Target, AnswerSource], InspectorSession]:
    """Sessions on the demo server run in this process (``inspector screenshots``): the memory transport, and one
    step clock per session given to both the transport and the session, so the latencies shown (and so every
    picture) are the same on every run and every machine. ``recording``: where the sessions record to."""
    from inspector.demo.in_process import NAME, demo_peer
    from inspector.transport.memory import MemoryTransport, StepClock

    def session_factory(chosen: Target, answers: AnswerSource) -> InspectorSession:
        clock = StepClock()
        transport = MemoryTransport(demo_peer(), name=NAME, clock=clock)
        recorder = open_recorder(recording, TargetOptions(spec=NAME), chosen.era, transport.kind)
        return InspectorSession(transport, answers, era=chosen.era, recorder=recorder, clock=clock)

    return session_factory


def open_tui(
    target: TargetOptions | None,
    *,
    era: EraMode,
    record: Path | None,
    no_record: bool = False,
    demo: bool = False,
    theme: str | None = None,
    roots: list[str] | None = None,
    stub_sampling: bool = False,
) -> int:
    """Run the TUI on ``target`` (None: the connect screen); returns the exit code."""
    from inspector.ui.app import run_app

    recording = None if no_record else (record or default_recording_path())
    session_factory = make_session_factory(recording, target)
    shown = ui_target(target, era, name="demo server" if demo else "") if target is not None else None
    return run_app(
        session_factory,
        shown,
        theme=theme,
        record_path_text=str(recording) if recording is not None else None,
        roots=roots,
        stub_sampling=stub_sampling,
    )


def open_replay_tui(loaded: Loaded, *, step: bool = False, theme: str | None = None) -> int:
    """Run the TUI on a recording, read-only (no session, no server); returns the exit code."""
    from inspector.ui.app import run_replay

    return run_replay(loaded, step=step, theme=theme)
