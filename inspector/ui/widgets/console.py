"""The console: server stderr, log notifications and transport lines, shown literally."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final

from rich.text import Text
from textual.widgets import RichLog

from inspector.ui.safe_text import clean

if TYPE_CHECKING:
    from collections.abc import Iterable

    from inspector.timeline.model import ConsoleLine

SOURCES: Final = ("stderr", "log", "transport", "session")
"""Every ``ConsoleLine.source``; a line is styled by its source's component class, ``console--<source>``."""


class Console(RichLog):
    """Appends ``ConsoleLine`` s; markup and highlighting are off, control characters made visible."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {*(f"console--{source}" for source in SOURCES), "console--error"}

    DEFAULT_CSS = """
    Console { background: $surface; }
    Console > .console--stderr { color: $foreground-muted; }
    Console > .console--log { color: $timeline-pending; }
    Console > .console--transport { color: $timeline-request; }
    Console > .console--session { color: $accent; }
    Console > .console--error { color: $timeline-error; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(
            id=id, classes=classes, markup=False, highlight=False, wrap=True, max_lines=5000, auto_scroll=True
        )
        self.lines_written = 0
        """How many console lines were appended (for tests)."""
        self.plain: list[str] = []
        """The last lines as shown, without styles (for tests)."""

    def extend(self, lines: Iterable[ConsoleLine]) -> None:
        """Write each line in turn."""
        for line in lines:
            self.append(line)

    def append(self, line: ConsoleLine) -> None:
        """Write one line: a source tag, then the text literally."""
        level = (line.level or "").lower()
        style_class = (
            "console--error"
            if level in ("error", "critical", "alert", "emergency")
            else f"console--{line.source if line.source in SOURCES else 'stderr'}"
        )
        tag = f"{line.source}{'/' + clean(level) if level else ''}"
        text = Text(
            f"{line.at:8.3f} {tag:<12} ", style=self.get_component_rich_style("console--stderr", partial=True), end=""
        )
        body = clean(line.text)
        text.append(body, style=self.get_component_rich_style(style_class, partial=True))
        self.write(text)
        self.lines_written += 1
        self.plain.append(body)
        del self.plain[:-200]
