"""The consoles every headless command prints through: whatever is printed, its text goes through the one sanitizer
on its way out.

The printers already build ``rich.text.Text`` from server text and pass it through ``sanitize.one_line``; but a
value they did not think of (a recording's ``transport`` or ``started``, an era, a request id that is a string)
reached the terminal raw, and a crafted recording could clear the screen, set the window's title or the clipboard
(OSC 52) through ``inspector sessions`` or ``replay --print``. Here every console gets a render hook (Rich's public
``push_render_hook``) that wraps what is printed in ``Sanitized``: every segment of text is cleaned as it is
rendered, the styles being segments' attributes, not text: Rich's own escape codes (colours, links, cursor
controls) are made from styles and control segments, never from text, so they are kept and everything else that
could style, move or disguise is shown as a visible stand-in (``␛``, ``⟨U+202E⟩``).
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderableType, RenderHook, RenderResult
from rich.segment import Segment

from inspector.protocol.sanitize import clean


class Sanitized:
    """A renderable as it renders, with each text segment sanitized (control segments, Rich's own, kept)."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.inner, options):
            yield segment if segment.control else Segment(clean(segment.text), segment.style)


class SanitizeEverything(RenderHook):
    """The console's render hook: everything printed is rendered through ``Sanitized``."""

    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [Sanitized(renderable) for renderable in renderables]


def _sanitizing(console: Console) -> Console:
    console.push_render_hook(SanitizeEverything())
    return console


def out_console(**options: Any) -> Console:
    """The console for a command's output (stdout), never highlighting what it did not style."""
    return _sanitizing(Console(highlight=False, **options))


def err_console(**options: Any) -> Console:
    """The console for messages, progress and errors (stderr)."""
    return _sanitizing(Console(stderr=True, highlight=False, **options))
