"""Where a long line of the detail pane breaks when it is wrapped: at a space when there is one near the edge
(never between a number and its unit), else at the edge; the continuation is indented under the line's own
indent (and two more), so wrapped JSON still reads as its structure. Pure: offsets into the text, tested without
a screen."""

from __future__ import annotations

from typing import Final

from rich.cells import cell_len

CONTINUATION: Final = 2
"""How much further a continuation is indented than the line it continues."""


def _fit(text: str, start: int, room: int) -> int:
    """The end of the longest piece of ``text`` from ``start`` that fits in ``room`` cells (at least one char)."""
    end = min(len(text), start + room)
    if not text.isascii():
        while end > start + 1 and cell_len(text[start:end]) > room:
            end -= 1
    return max(end, start + 1)


def wrap_points(text: str, width: int) -> list[int]:
    """The offset where each visual line of ``text`` starts, for a pane ``width`` cells wide (``[0]`` when it
    fits); every line but the first is indented by ``continuation_indent(text)``."""
    if width < 4 or (len(text) <= width and (text.isascii() or cell_len(text) <= width)):
        return [0]
    indent = continuation_indent(text, width)
    starts = [0]
    start, room = 0, width
    while True:
        end = _fit(text, start, room)
        if end >= len(text):
            return starts
        space = text.rfind(" ", start + 1, end + 1)
        while space > start and text[space - 1].isdigit():  # "6.0 s", "2 rounds": a number keeps its word
            space = text.rfind(" ", start + 1, space)
        if space > start + room // 2:  # break after a space near the edge, not in the middle of a word
            end = space + 1
        starts.append(end)
        start, room = end, width - indent


def continuation_indent(text: str, width: int) -> int:
    """The indent of a continuation: the line's own leading spaces and two more, never more than half the pane."""
    lead = len(text) - len(text.lstrip(" "))
    return min(lead + CONTINUATION, max(width // 2, 1))
