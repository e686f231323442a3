"""The consoles every headless command prints through: whatever is printed, its text goes through the one sanitizer
on its way out.

The printers already build ``rich.text.Text`` from server text and pass it through ``sanitize.one_line``; but a
value they did not think of (a recording's ``transport`` or ``started``, an era, a request id that is a string)
reached the terminal raw, and a crafted recording could clear the screen, set the window's title or the clipboard
(OSC 52) through ``inspector sessions`` or ``replay --print``. Here every segment of text is cleaned as it is
rendered, after the styles were applied as segments of their own: Rich's own escape codes (colours, links, cursor
controls) are made from styles and control segments, never from text, so they are kept and everything else that
could style, move or disguise is shown as a visible stand-in (``␛``, ``⟨U+202E⟩``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.segment import Segment

from inspector.protocol.sanitize import clean


class CleanConsole(Console):
    """A ``rich.console.Console`` whose rendered text is sanitized (control segments, Rich's own, kept)."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control else Segment(clean(segment.text), segment.style) for segment in buffer
        )


def out_console(**options: Any) -> Console:
    """The console for a command's output (stdout), never highlighting what it did not style."""
    return CleanConsole(highlight=False, **options)


def err_console(**options: Any) -> Console:
    """The console for messages, progress and errors (stderr)."""
    return CleanConsole(stderr=True, highlight=False, **options)
