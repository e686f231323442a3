"""The detail pane's lines: a ``Document`` of (kind, text) lines, JSON pretty-printed and folded when large.

A JSON section longer than ``FOLD_LINES`` keeps its first lines and ends with a fold line naming what is hidden;
pretty-printing stops early when folded, so a 5 MB result costs what its first screen costs until the user unfolds
it. A line is plain text in its kind's style, or (``pieces``) made of parts in named styles; a markdown text is one
entry the pane lays out at its width (``markdown_lines``). What goes into a Document for a call or a round is
``call_document``'s; this module knows nothing of calls.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Any, Final, Literal

from inspector.protocol.sanitize import clean

if TYPE_CHECKING:
    from rich.style import Style

    from inspector.timeline.wire import WireMessage

FOLD_LINES: Final = 200
LineKind = Literal["heading", "text", "json", "dim", "error", "finding", "fold", "label", "markdown"]
"""A line's style; ``label`` a content block's, ``markdown`` a whole markdown text (the pane lays it out)."""
Span = tuple[int, int, "str | Style"]
"""A styled part of a line: start, end, and a style name (a line kind or a JSON part) or a Rich style."""


@dataclass(slots=True)
class Document:
    """Lines of (kind, text); ``folded`` says whether any section was cut."""

    lines: list[tuple[LineKind, str]] = field(default_factory=list)
    folded: bool = False
    styled: dict[int, tuple[Span, ...]] = field(default_factory=dict)
    """Lines made of parts (``pieces``), by index: where each part is and its style's name."""
    links: list[str] = field(default_factory=list)
    """The resource links of the result shown, in order: key 1 reads the first."""
    views: set[str] = field(default_factory=set)
    """What the pane's view keys switch here: "json" (j: raw JSON or by content type), "markdown" (m)."""

    def add(self, kind: LineKind, text: str = "") -> None:
        """One line (text with newlines becomes several lines)."""
        for part in text.split("\n") or [""]:
            self.lines.append((kind, part))

    def pieces(self, kind: LineKind, *parts: tuple[str, str], visible: bool = False) -> None:
        """One line of parts, each (text, style name: a line kind or a JSON part, "" for the line's own); server text
        is made visible here, on one line, so each part's place in the line is where the pane draws it (unless
        ``visible``: the parts went through ``one_line`` already)."""
        # (plain strings and offsets, not Rich Text: an unfolded table makes a line a row, 120,000 of them)
        shown: list[str] = []
        spans: list[Span] = []
        at = 0
        for text, style in parts:
            part = text if visible else clean(text, keep_newlines=False)
            if style and part:
                spans.append((at, at + len(part), style))
            shown.append(part)
            at += len(part)
        self.styled[len(self.lines)] = tuple(spans)
        self.lines.append((kind, "".join(shown)))

    def ready(self, kind: LineKind, line: str, spans: tuple[Span, ...]) -> None:
        """One line made whole and visible already, with its styled spans (``pieces`` without the parts)."""
        self.styled[len(self.lines)] = spans
        self.lines.append((kind, line))

    def markdown(self, source: str) -> None:
        """A markdown text, one entry: the pane renders it at its width (``markdown_lines``)."""
        self.lines.append(("markdown", source))

    def heading(self, title: str) -> None:
        """A section heading."""
        if self.lines:
            self.lines.append(("text", ""))
        self.lines.append(("heading", f"─ {title} "))

    def json(self, value: Any, *, unfold: bool, raw_size: int | None = None) -> None:
        """``value`` pretty-printed; cut after ``FOLD_LINES`` lines unless ``unfold``."""
        chunks = json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(value)
        if unfold:
            self.add("json", "".join(chunks))
            return
        lines = _first_lines(chunks, FOLD_LINES + 1)
        if len(lines) <= FOLD_LINES:
            self.lines.extend(("json", line) for line in lines)
            return
        self.lines.extend(("json", line) for line in lines[:FOLD_LINES])
        size = f" of {size_text(raw_size)}" if raw_size is not None else ""
        self.lines.append(("fold", f"⋯ folded after {FOLD_LINES} lines{size} · press x to unfold"))
        self.folded = True

    def wire(self, message: WireMessage, *, unfold: bool) -> None:
        """A wire message: pretty JSON when it parsed, else its exact text."""
        size = len(message.raw.encode("utf-8", "surrogatepass"))
        if message.message is not None:
            self.json(message.message, unfold=unfold, raw_size=size)
        else:
            self.add("error", "not JSON-RPC; the exact text:")
            self.add("text", message.raw if unfold or size < 64_000 else message.raw[:64_000])
            if not unfold and size >= 64_000:
                self.lines.append(("fold", f"⋯ folded at 64 kB of {size_text(size)} · press x to unfold"))
                self.folded = True
        self.add("dim", f"{size:,} bytes on the wire")


def _first_lines(chunks: Any, count: int) -> list[str]:
    buffer: list[str] = []
    lines: list[str] = []
    for chunk in islice(chunks, 2_000_000):
        if "\n" in chunk:
            head, *rest = chunk.split("\n")
            buffer.append(head)
            lines.append("".join(buffer))
            buffer = []
            for part in rest[:-1]:
                lines.append(part)
            buffer.append(rest[-1])
            if len(lines) >= count:
                return lines[:count]
        else:
            buffer.append(chunk)
    lines.append("".join(buffer))
    return lines


def size_text(size: int) -> str:
    """A byte count as a person reads it: "88 bytes", "1.2 kB", "5.6 MB"."""
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f} MB"
    return f"{size / 1000:.1f} kB" if size >= 1000 else f"{size} bytes"


SECTION_LINES: Final = 200
"""A section (the content blocks, the structured content) folds after this many lines, as the JSON does."""


class LineBudget:
    """How many lines a section may still add before it folds (unlimited when unfolded); the section's fold line
    is added once, where it stopped."""

    def __init__(self, doc: Document, *, unfold: bool, lines: int = SECTION_LINES, of: str = "") -> None:
        self.doc = doc
        self.unfold = unfold
        self.of = f" of {of}" if of else ""
        """What the fold line says it is part of ("of 5.6 MB")."""
        self.left = lines
        self.spent = False
        """The section stopped early (its fold line was added)."""

    def room(self) -> int | None:
        """Lines left (None: no limit)."""
        return None if self.unfold else max(self.left, 0)

    def take(self, lines: int = 1) -> bool:
        """Spend ``lines``; False (and the fold line, once) when there is no room."""
        if self.unfold:
            return True
        if self.left >= lines and not self.spent:
            self.left -= lines
            return True
        self.stop()
        return False

    def stop(self, what: str = "") -> None:
        """The section stops here: its fold line (once) says so."""
        if not self.spent:
            self.spent = True
            self.doc.lines.append(("fold", f"⋯ folded{what}{self.of} · press x to unfold"))
            self.doc.folded = True
