"""Helpers for the answer modals' tests: a fixed size, bounded waits, and steady cursors for snapshots."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from pathlib import PurePath
from typing import Any, Final, Protocol

from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen

from inspector.ui.devtools.preview import PreviewApp

SIZE: Final = (120, 40)


class SnapCompare(Protocol):
    """pytest-textual-snapshot's ``snap_compare`` fixture (the plugin gives it no usable type): the screenshot of
    ``app`` after ``press`` and ``run_before``, at ``terminal_size``, matches the accepted one."""

    def __call__(
        self,
        app: str | PurePath | App[Any],
        press: Iterable[str] = ...,
        terminal_size: tuple[int, int] = ...,
        run_before: Callable[[Pilot[Any]], Awaitable[None] | None] | None = ...,
    ) -> bool: ...


async def wait_until(pilot: Pilot[Any], ready: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until ``ready()`` (bounded: fails after ``timeout`` seconds, never sleeps blindly)."""
    async with asyncio.timeout(timeout):
        while not ready():
            await pilot.pause()


async def settle(pilot: Pilot[Any], screen: type[Screen[Any]]) -> None:
    """Wait (bounded) for the modal, then stop cursors blinking so the picture is stable."""
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, screen))
    await pilot.pause()
    app = pilot.app
    assert isinstance(app, PreviewApp)
    app.steady()
