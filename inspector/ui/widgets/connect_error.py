"""What a server that failed to start or connect said: the error, the hint, and its stderr, on screen."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from inspector.ui.safe_text import clean


def describe_failure(error: BaseException) -> tuple[str, str, list[str]]:
    """(message, hint, stderr lines) of a connect failure: ``ConnectError``, ``TransportStartError`` or anything."""
    message = getattr(error, "message", None) or str(error) or type(error).__name__
    hint = getattr(error, "hint", "") or ""
    stderr = getattr(error, "stderr", None) or []
    return str(message), str(hint), [str(line) for line in stderr]


class ConnectErrorPanel(Static):
    """Shows a connect failure instead of a traceback."""

    DEFAULT_CSS = """
    ConnectErrorPanel {
        border: round $error; color: $foreground; padding: 0 1; height: auto; max-height: 60%; display: none;
    }
    """

    def show_failure(self, error: BaseException, stderr_seen: list[str]) -> None:
        """Show the failure (the panel is hidden until then), then every stderr line (the error's own, else the
        ones the console saw)."""
        message, hint, stderr = describe_failure(error)
        text = Text(end="")
        text.append("could not connect: ", style="bold")
        text.append(clean(message))
        if hint:
            text.append("\ntry: ", style="bold")
            text.append(clean(hint))
        lines = stderr or stderr_seen
        if lines:
            text.append(f"\n\nserver stderr ({len(lines)} lines):\n", style="bold")
            text.append(clean("\n".join(lines[-40:])))
        text.append("\n\npress r to retry, escape to choose another server, q to quit", style="italic")
        self.border_title = "connection failed"
        self.update(text)
        self.display = True
