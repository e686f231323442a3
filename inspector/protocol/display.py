"""Server text made safe to show: no control characters, so nothing a server sends can move or clear a terminal.

Rich markup is never interpreted because every face builds ``rich.text.Text`` objects from server text; this module
removes what ``Text`` would still pass to the terminal: ANSI escape sequences and other C0/C1 control characters.
"""

from __future__ import annotations

import re

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` without escape sequences; other control characters become visible ``\\xNN`` (tab kept)."""
    without_escapes = _ANSI.sub(lambda m: "␛" + _CONTROL.sub("", m.group(0)[1:]), text)
    cleaned = _CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}", without_escapes)
    if not keep_newlines:
        cleaned = cleaned.replace("\r\n", "⏎").replace("\n", "⏎").replace("\r", "⏎")
    return cleaned.replace("\r", "")


def one_line(text: str, limit: int = 200) -> str:
    """A single printable line, shortened with an ellipsis past ``limit`` characters."""
    line = printable(text, keep_newlines=False)
    return line if len(line) <= limit else line[: limit - 1] + "…"
