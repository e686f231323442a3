"""What a server that failed to start or connect said: the error, the hint, and its stderr, on screen (the hint says
"its stderr says why": the panel shows it, under the hint)."""

from __future__ import annotations

from typing import Final

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static

from inspector.ui.safe_text import clean

STDERR_SHOWN: Final = 40
"""The most lines of the server's stderr the panel shows (the console has them all)."""
SHARE: Final = 75
"""The most of the timeline's column the panel takes, in percent (the timeline below it has little to show)."""


def describe_failure(error: BaseException) -> tuple[str, str, list[str]]:
    """(message, hint, stderr lines) of a connect failure: ``ConnectError``, ``TransportStartError`` or anything."""
    message = getattr(error, "message", None) or str(error) or type(error).__name__
    hint = getattr(error, "hint", "") or ""
    stderr = getattr(error, "stderr", None) or []
    return str(message), str(hint), [str(line) for line in stderr]


class ConnectErrorPanel(Static):
    """Shows a connect failure instead of a traceback: the error, what to try, the tail of the server's stderr
    (as many of its last lines as the panel has rows for: the end of a traceback says what went wrong; the console
    has every line) and the keys."""

    DEFAULT_CSS = f"""
    ConnectErrorPanel {{
        border: round $error; color: $foreground; padding: 0 1; height: auto; max-height: {SHARE}%; display: none;
    }}
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[BaseException, list[str]] | None = None
        """The failure shown and the stderr lines seen, drawn again at a new size."""

    def show_failure(self, error: BaseException, stderr_seen: list[str]) -> None:
        """Show the failure (the panel is hidden until then) and the last lines of its stderr (the error's own,
        else the ones the console saw)."""
        self._shown = (error, stderr_seen)
        self.border_title = "connection failed"
        self.update(self._text(error, stderr_seen))
        self.display = True

    def on_resize(self) -> None:
        if self._shown is not None and self.display:
            self.update(self._text(*self._shown))

    def _text(self, error: BaseException, stderr_seen: list[str]) -> Text:
        message, hint, stderr = describe_failure(error)
        head = Text(end="")
        head.append("could not connect: ", style="bold")
        head.append(clean(message))
        if hint:
            head.append("\ntry: ", style="bold")
            head.append(clean(hint))
        keys = Text("\n\npress r to retry, escape to choose another server, q to quit", style="italic", end="")
        lines = [clean(line) for line in stderr or stderr_seen]
        if not lines:
            quiet = "\n\nthe server has written nothing on stderr (yet: its lines are shown here as they come)"
            return Text.assemble(head, quiet, keys, end="")
        shown = self._tail(lines, Text.assemble(head, "\n\nthe server's stderr (the last 00 of 00 lines):", keys))
        said = f"the last {len(shown)} of {len(lines)} lines" if len(shown) < len(lines) else f"{len(lines)} lines"
        stderr_text = Text(f"\n\nthe server's stderr ({said}):\n", style="bold", end="")
        stderr_text.append("\n".join(shown))
        return Text.assemble(head, stderr_text, keys, end="")

    def _tail(self, lines: list[str], rest: Text) -> list[str]:
        """The last of ``lines`` that fit with ``rest`` in the rows the panel may take (``STDERR_SHOWN`` at most;
        at least one)."""
        parent = self.parent
        height = parent.size.height if isinstance(parent, Widget) else 0
        width = self.content_region.width or (parent.size.width - 4 if isinstance(parent, Widget) else 0)
        if height <= 0 or width <= 0:
            return lines[-STDERR_SHOWN:]
        console = self.app.console
        room = height * SHARE // 100 - 2 - len(rest.wrap(console, width))  # (its border takes two rows)
        kept: list[str] = []
        for line in reversed(lines[-STDERR_SHOWN:]):
            room -= len(Text(line).wrap(console, width))
            if room < 0 and kept:
                break
            kept.insert(0, line)
        return kept
