"""Opens the Textual TUI. Imported lazily by the commands that need it, so headless commands never load textual."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from inspector.cli.options import LoginChoices
from inspector.cli.wiring import build_session, login_config
from inspector.session.session import InspectorSession
from inspector.targets.target import Target

if TYPE_CHECKING:
    from collections.abc import Callable

    from inspector.answers.base import AnswerSource
    from inspector.replay.loader import Loaded
    from inspector.ui.target import Target as UiTarget


def ui_target(target: Target, *, name: str = "") -> UiTarget:
    """The UI's plain-data target for the target given on the command line."""
    from inspector.ui.target import Target as UiTarget

    return UiTarget.from_spec(target.spec, headers=target.headers, era=target.era, name=name or target.name)


def make_session_factory(
    recording: Path | None, given: Target | None = None, login: LoginChoices | None = None
) -> Callable[[UiTarget, AnswerSource], InspectorSession]:
    """The factory the UI calls to turn a chosen target into a session (transport + recorder + session). A server
    behind OAuth is logged in to through the browser (the TUI owns the terminal: nothing is printed or pasted)."""

    def session_factory(chosen: UiTarget, answers: AnswerSource) -> InspectorSession:
        if given is not None and given.spec == chosen.spec:
            target = given  # keep --bearer / --secret so they are redacted from the recording
        else:
            target = Target.from_spec(chosen.spec, headers=chosen.headers, env=chosen.env, era=chosen.era)
        auth = login_config(target, login or LoginChoices(), quiet=True)
        return build_session(target, answers, era=chosen.era, record=recording, auth=auth)

    return session_factory


def open_tui(
    target: Target | None,
    *,
    record: Path | None,
    theme: str | None = None,
    roots: list[str] | None = None,
    stub_sampling: bool = False,
    login: LoginChoices | None = None,
) -> int:
    """Run the TUI on ``target`` (None: the connect screen); returns the exit code."""
    from inspector.ui.app import run_app

    session_factory = make_session_factory(record, target, login)
    shown = ui_target(target) if target is not None else None
    return run_app(
        session_factory,
        shown,
        theme=theme,
        record_path_text=str(record) if record is not None else None,
        roots=roots,
        stub_sampling=stub_sampling,
    )


def open_replay_tui(loaded: Loaded, *, step: bool = False, theme: str | None = None) -> int:
    """Run the TUI on a recording, read-only (no session, no server); returns the exit code."""
    from inspector.ui.app import run_replay

    return run_replay(loaded, step=step, theme=theme)
