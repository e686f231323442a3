"""The header line: target, transport, era and version, connection state, recording path (or, for a replay, the
recording shown, the server it recorded, and where the step walk is)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Final

from rich.text import Text
from textual.widgets import Static

from inspector.ui.safe_text import one_line

if TYPE_CHECKING:
    from rich.style import Style
    from textual import events

    from inspector.timeline.model import Timeline

PATH_KEPT: Final = 20
"""The recording's path keeps at least this many characters (``…/session-2026….jsonl``: what it is and when it was
made) before the era gives way to it."""


def short_path(path: str, room: int, home: str | None = None) -> str:
    """``path`` in at most ``room`` characters: the home folder as ``~``, then the folders given up before the file
    name (``…/session-….jsonl``: the name is what tells two recordings apart), then the middle of the name (its
    start, with the date, and its extension are kept)."""
    home = str(Path.home()) if home is None else home
    if home and (path == home or path.startswith(home.rstrip("/") + "/")):
        path = "~" + path[len(home.rstrip("/")) :]
    if len(path) <= room:
        return path
    name = path.rsplit("/", 1)[-1]
    if len(name) + 2 <= room:
        return "…/" + name
    stem, dot, extension = name.rpartition(".")
    suffix = dot + extension if stem else ""
    kept = room - 3 - len(suffix)
    if kept < 4:
        return "…" + name[-max(room - 1, 1) :]
    return f"…/{(stem or name)[:kept]}…{suffix}"


def header_text(
    timeline: Timeline,
    target_name: str,
    recording: str | None,
    state: str,
    styles: dict[str, Style] | None = None,
    note: str = "",
    width: int | None = None,
) -> Text:
    """The header as text; ``state`` is "connecting", "connected", "failed", "closed" or "replay". For a replay,
    ``target_name`` names the recording, and the read-only mark and ``note`` (where the step walk is) come before
    the recorded server, so a narrow terminal cuts the server's details rather than them.

    A live session's header fits in ``width`` (None: as long as it takes) by giving up, in turn, the server's
    name and version, then the era, and by shortening the recording's path (``short_path``): where the session
    records stays on the line (the help screen has the whole path)."""
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
    server = ""
    if isinstance(info.get("name"), str):
        server = f" · {one_line(str(info['name']), 40)} {one_line(str(info.get('version', '')), 20)}".rstrip()
    era = f" · {timeline.era.era} {timeline.era.version}" if timeline.era is not None else ""
    if replay or not recording:
        text.append(server + era)
        if not replay:
            text.append_text(status)
        return text
    path = one_line(recording, 400)
    said = " · recording "
    if width is not None:
        whole = len(short_path(path, len(path) + 1))
        named = min(whole, len(path.rsplit("/", 1)[-1]) + 2)  # "…/" and the whole file name
        room = width - text.cell_len - status.cell_len - len(said)
        if room - len(server + era) < named:
            server = ""  # the server's name and version give way first (the detail of server/discover has them)
        if room - len(era) < min(whole, PATH_KEPT):
            era = ""
        path = short_path(path, max(room - len(server + era), 1))
    text.append(server + era)
    text.append_text(status)
    text.append(said + path)
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

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[Timeline, str, str | None, str, str] | None = None
        """What was shown last, drawn again at the new width on a resize."""

    def show(self, timeline: Timeline, target_name: str, recording: str | None, state: str, note: str = "") -> None:
        """Redraw from the timeline, fitted to the header's width."""
        self._shown = (timeline, target_name, recording, state, note)
        styles = {
            mood: self.get_component_rich_style(f"header--{mood}", partial=True) for mood in ("ok", "warn", "bad")
        }
        width = self.size.width or None  # (not laid out yet: drawn again at its width by on_resize)
        self.update(header_text(timeline, target_name, recording, state, styles, note, width))
        self.tooltip = f"recording: {one_line(recording, 400)}" if recording else None

    def on_resize(self, event: events.Resize) -> None:
        if self._shown is not None:
            self.show(*self._shown)
