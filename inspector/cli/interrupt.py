"""Ctrl-C during a headless command: what it started on the server is cancelled there, and the command ends saying
what the server did.

The first Ctrl-C cancels every call in flight the way the session cancels a call (a task with ``tasks/cancel``, in
the 2026 and the 2025-11-25 forms; anything else with ``notifications/cancelled`` over stdio, its stream closed over
HTTP) and lets the command go on until each call ends: a task asked to cancel may still complete or fail (seed 004),
and the timeline then says so, never an assumed "cancelled". The second Ctrl-C stops waiting: the command's
operation is cancelled, the session closed (its recording complete) and what happened so far printed. Either way the
command exits 130, as a shell expects of an interrupted command. Without this, Ctrl-C printed ``^C``, no timeline,
the task id cut, and left a task running on the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator
from typing import Any, Final

from rich.console import Console
from rich.text import Text

from inspector.protocol.sanitize import one_line
from inspector.session.session import InspectorSession

EXIT_INTERRUPTED: Final = 130
"""128 + SIGINT: what a shell reports for a command stopped by Ctrl-C."""


class Interrupt:
    """Watches for Ctrl-C while a command's operation runs (see the module's docstring)."""

    def __init__(self, session: InspectorSession, console: Console) -> None:
        self._session = session
        self._console = console
        self.pressed = 0
        """How many times Ctrl-C was pressed (0: never, and the command's own exit code stands)."""
        self._operation: asyncio.Future[Any] | None = None
        self._cancels: list[asyncio.Future[bool]] = []

    @contextlib.contextmanager
    def watching(self, operation: asyncio.Future[Any]) -> Iterator[None]:
        """Handle SIGINT while ``operation`` runs (a command that handles it itself, ``listen``, takes it over)."""
        self._operation = operation
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGINT, self.press)
        except (NotImplementedError, RuntimeError):  # no signal handlers on this loop: Ctrl-C as Python has it
            yield
            return
        try:
            yield
        finally:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGINT)

    def press(self) -> None:
        """Ctrl-C: cancel on the server the first time, stop waiting the second."""
        self.pressed += 1
        if self.pressed > 1:
            self._console.print(Text("interrupted again: not waiting for the server", style="yellow"))
            if self._operation is not None:
                self._operation.cancel()
            return
        running = [call for call in self._session.timeline.calls if call.in_flight]
        if not running:
            return
        names = ", ".join(f"#{call.index} {one_line(call.method, 40)}" for call in running)
        told = f"interrupted: cancelling {names} on the server (Ctrl-C again stops waiting)"
        self._console.print(Text(told, style="yellow"))
        self._cancels += [asyncio.ensure_future(self._session.cancel(call.index)) for call in running]
