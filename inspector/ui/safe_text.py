"""Server text shown literally in the TUI: never markup, never an escape sequence, never a hidden character.

Everything a server sends (tool names, descriptions, results, stderr) goes through this module before it reaches
the screen: ``rich.text.Text`` is built directly (Rich markup such as ``[bold red]`` or ``[link=...]`` is never
parsed) from what the one sanitizer (``inspector.protocol.sanitize``) made of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from inspector.protocol.sanitize import clean, one_line

if TYPE_CHECKING:
    from rich.style import Style

__all__ = ["append", "clean", "one_line", "safe", "safe_line"]


def safe(text: str, style: str | Style = "") -> Text:
    """A ``Text`` showing ``text`` literally (markup not parsed, controls made visible)."""
    return Text(clean(text), style=style, end="")


def safe_line(text: str, style: str | Style = "", limit: int | None = None) -> Text:
    """A one-line ``Text`` of ``text`` (see ``one_line``)."""
    return Text(one_line(text, limit), style=style, end="", no_wrap=True)


def append(target: Text, text: str, style: str | Style = "") -> Text:
    """Append server text to ``target`` literally; returns ``target`` for chaining."""
    target.append(clean(text), style=style)
    return target
