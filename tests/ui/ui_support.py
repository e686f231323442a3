"""Helpers for the TUI tests: the app on a ScriptedSession (no server), fixed size, bounded waits."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from inspector.answers.base import Answer, NoAnswer
from inspector.ui.app import InspectorApp
from inspector.ui.scripted import ScriptedSession
from inspector.ui.target import Target

SIZE = (160, 45)
DEMO = Target.from_spec("python -m inspector.demo", name="demo")


class FixedAnswers:
    """Answers by input key, from a dict; records what it was asked."""

    def __init__(self, by_key: dict[str, dict[str, Any]] | None = None) -> None:
        self.by_key = by_key or {}
        self.asked: list[str | None] = []

    async def answer(self, key: str | None, request: dict[str, Any]) -> Answer:
        self.asked.append(key)
        if key not in self.by_key:
            raise NoAnswer(f"no test answer for {key!r}")
        return Answer(self.by_key[key], "you")


class StartFailure(Exception):
    """Looks like the transport's start error: message, hint, stderr."""

    def __init__(self, message: str, hint: str, stderr: list[str]) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.stderr = stderr


WORK_ITEM_ANSWERS = {
    "resolution": {"action": "accept", "content": {"resolution": "Duplicate"}},
    "duplicate_of": {"action": "accept", "content": {"duplicate_of": 4301}},
}


def make_app(
    tmp_path: Path,
    *,
    answers: FixedAnswers | None = None,
    target: Target | None = DEMO,
    theme: str | None = None,
    sessions: list[ScriptedSession] | None = None,
    **session_options: Any,
) -> InspectorApp:
    """The app with a scripted session factory; every session built is appended to ``sessions``."""
    built = sessions if sessions is not None else []

    def factory(target: Target, given: Any) -> ScriptedSession:
        session = ScriptedSession(given, **session_options)
        built.append(session)
        return session

    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return InspectorApp(
        factory,
        target,
        theme,
        None,
        config_dir=tmp_path / "config",
        home=home,
        cwd=home,
        answers=answers if answers is not None else FixedAnswers(WORK_ITEM_ANSWERS),
    )


async def wait_for(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Pause the pilot until ``condition`` holds (bounded: fails after ``timeout`` seconds)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await pilot.pause()
