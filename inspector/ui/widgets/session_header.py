"""The header line: target, transport, era and version, connection state, recording path (or, for a replay, the
recording shown, the server it recorded, and where the step walk is)."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.widgets import Static

from inspector.ui.safe_text import one_line

if TYPE_CHECKING:
    from rich.style import Style

    from inspector.session.timeline import Timeline


def header_text(
    timeline: Timeline,
    target_name: str,
    recording: str | None,
    state: str,
    styles: dict[str, Style] | None = None,
    note: str = "",
) -> Text:
    """The header as text; ``state`` is "connecting", "connected", "failed", "closed" or "replay". For a replay,
    ``target_name`` names the recording, and the read-only mark and ``note`` (where the step walk is) come before
    the recorded server, so a narrow terminal cuts the server's details rather than them."""
    marks = {
        "connected": ("● connected", "ok"),
        "connecting": ("◌ connecting", "warn"),
        "failed": ("✗ failed", "bad"),
        "closed": ("○ closed", "bad"),
        "replay": ("⏵ read-only", "warn"),
    }
    label, mood = marks.get(state, (state, "warn"))
    status = Text(" · ", end="")
    status.append(label, style=(styles or {}).get(mood, ""))
    if note:
        status.append(f" · {one_line(note, 80)}", style=(styles or {}).get("ok", ""))
    replay = state == "replay"
    text = Text(" inspector ", style="bold reverse", end="", no_wrap=True)
    text.append("  ")
    name = one_line(target_name or timeline.target or "?", 400)
    if replay and len(name) > 72:
        name = "…" + name[-71:]  # the end of a recording's path is what names it
    text.append(name if replay else one_line(name, 60), style="bold")
    if replay:
        text.append_text(status)
        if timeline.target:
            text.append(f" · {one_line(timeline.target, 50)}")
    if timeline.transport:
        text.append(f" ({timeline.transport})")
    info = timeline.server_info or {}
    if isinstance(info.get("name"), str):
        text.append(f" · {one_line(str(info['name']), 40)} {one_line(str(info.get('version', '')), 20)}".rstrip())
    if timeline.era is not None:
        text.append(f" · {timeline.era.era} {timeline.era.version}")
    if not replay:
        text.append_text(status)
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

    def show(self, timeline: Timeline, target_name: str, recording: str | None, state: str, note: str = "") -> None:
        """Redraw from the timeline."""
        styles = {
            mood: self.get_component_rich_style(f"header--{mood}", partial=True) for mood in ("ok", "warn", "bad")
        }
        self.update(header_text(timeline, target_name, recording, state, styles, note))
