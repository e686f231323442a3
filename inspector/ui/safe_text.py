"""Server text shown literally: never markup, never an escape sequence, never a control character.

Everything a server sends (tool names, descriptions, results, stderr) goes through this module before it reaches
the screen. ``rich.text.Text`` is built directly (Rich markup such as ``[bold red]`` or ``[link=...]`` is never
parsed), and control characters are replaced by visible stand-ins so ``\\x1b[2J`` cannot clear the screen and a
carriage return cannot overwrite a line.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from rich.text import Text

if TYPE_CHECKING:
    from rich.style import Style

# C0 controls except tab and newline, DEL, C1 controls, and the bidi overrides/isolates ("trojan source").
_UNSAFE: Final = re.compile("[\x00-\x08\x0b-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_NEWLINES: Final = re.compile("\r\n|\n")


def _stand_in(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode "control picture": ␛ for ESC, ␍ for CR
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"\\u{code:04x}"


def clean(text: str) -> str:
    """``text`` with every control character made visible; tabs and newlines are kept."""
    return _UNSAFE.sub(_stand_in, text)


def one_line(text: str, limit: int | None = None) -> str:
    """``clean(text)`` on one line (newlines shown as ⏎), cut to ``limit`` characters with an ellipsis."""
    flat = _NEWLINES.sub("⏎", clean(text)).replace("\t", " ")
    if limit is not None and len(flat) > limit:
        return flat[: max(limit - 1, 0)] + "…"
    return flat


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
