"""What a command printed, read as a person reads it, whatever the terminal's width or the temporary folder's path.

A usage error is printed by Typer inside Rich's error box, as wide as the terminal: a long line is wrapped (a path
with no blank in it cut anywhere) and each piece is framed by ``│``. A test that looks for a phrase or a path in it
compares both with the frame and every blank taken out, so it neither fails for a longer temporary path or a narrower
terminal nor passes for a phrase the command did not print."""

from __future__ import annotations

import re
from typing import Final

_FRAME_AND_BLANKS: Final = re.compile(r"[\s│╭╮╰╯─]+")


def unwrapped(text: str) -> str:
    """``text`` with the error box's frame and every blank left out."""
    return _FRAME_AND_BLANKS.sub("", text)


def says(printed: str, *phrases: str) -> bool:
    """Whether every phrase is in ``printed``, wherever the box wrapped it."""
    flat = unwrapped(printed)
    return all(unwrapped(phrase) in flat for phrase in phrases)
