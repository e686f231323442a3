"""The header line: target, transport, era and version, connection state, recording path."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.widgets import Static

from inspector.ui.safe_text import one_line

if TYPE_CHECKING:
    from rich.style import Style

    from inspector.session.timeline import Timeline


def header_text(
    timeline: Timeline, target_name: str, recording: str | None, state: str, styles: dict[str, Style] | None = None
) -> Text:
    """The header as text; ``state`` is "connecting", "connected", "failed" or "closed"."""
    text = Text(" inspector ", style="bold reverse", end="", no_wrap=True)
    text.append("  ")
    text.append(one_line(target_name or timeline.target or "?", 60), style="bold")
    if timeline.transport:
        text.append(f" ({timeline.transport})")
    info = timeline.server_info or {}
    if isinstance(info.get("name"), str):
        text.append(f" · {one_line(str(info['name']), 40)} {one_line(str(info.get('version', '')), 20)}".rstrip())
    if timeline.era is not None:
        text.append(f" · {timeline.era.era} {timeline.era.version}")
    marks = {
        "connected": ("● connected", "ok"),
        "connecting": ("◌ connecting", "warn"),
        "failed": ("✗ failed", "bad"),
        "closed": ("○ closed", "bad"),
    }
    label, mood = marks.get(state, (state, "warn"))
    text.append(" · ")
    text.append(label, style=(styles or {}).get(mood, ""))
    if recording:
        text.append(f" · recording {one_line(recording, 80)}")
    return text


class SessionHeader(Static):
    """One line at the top of the main screen."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"header--ok", "header--warn", "header--bad"}

    DEFAULT_CSS = """
    SessionHeader { height: 1; background: $panel; color: $foreground; }
    SessionHeader > .header--ok { color: $success; }
    SessionHeader > .header--warn { color: $warning; }
    SessionHeader > .header--bad { color: $error; text-style: bold; }
    """

    def show(self, timeline: Timeline, target_name: str, recording: str | None, state: str) -> None:
        """Redraw from the timeline."""
        styles = {
            mood: self.get_component_rich_style(f"header--{mood}", partial=True) for mood in ("ok", "warn", "bad")
        }
        self.update(header_text(timeline, target_name, recording, state, styles))
