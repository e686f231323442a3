"""Export one call: a curl command for one HTTP round, the call's JSON-RPC messages, or a Python script using the
official SDK, made by ``inspector.replay.export.export_call`` (what ``inspector export`` prints).

The text is shown in a read-only editor (select with the mouse or shift+arrows, ctrl+c copies a selection); ``c``
copies the whole text to the clipboard. A call that cannot be exported that way shows the ``ExportError``'s message,
which says what to use instead. Nothing is sent and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final

from rich.text import Text
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.widgets import Button, Static, TextArea

from inspector.replay.export import ExportError, ExportFormat, export_call
from inspector.ui.keys import Key, bindings
from inspector.ui.modals.dialog import Dialog
from inspector.ui.safe_text import safe, safe_line

if TYPE_CHECKING:
    from textual.app import ComposeResult

    from inspector.timeline.model import Timeline
    from inspector.timeline.records import Record

LABELS: Final[dict[ExportFormat, str]] = {
    "curl": "curl",
    "json": "JSON-RPC messages",
    "python": "Python (official SDK)",
}


@dataclass(frozen=True, slots=True)
class CallToExport:
    """One call of a timeline, as ``export_call`` is asked for it."""

    timeline: Timeline
    call: int
    round: int = 0
    """The round asked for (0: the call; curl then sends round 1)."""
    header: Record | None = None
    """The recording's header (a replayed call's), which the Python script names its server by."""

    def export(self, fmt: ExportFormat) -> str:
        """The call as ``fmt``; raises ``ExportError`` saying what to use instead when it cannot be."""
        return export_call(self.timeline, self.call, fmt, self.round or None, header=self.header)


class ExportModal(Dialog[None]):
    """Shows one call (one round of it for curl) as curl, JSON-RPC messages or Python."""

    DEFAULT_CSS = """
    ExportModal > .dialog { max-width: 130; height: 85%; }
    ExportModal .export-title { height: auto; margin-bottom: 1; }
    ExportModal .export-formats { height: 1; margin-bottom: 1; }
    ExportModal .export-formats > Button { margin-right: 2; min-width: 8; }
    ExportModal #export-text { height: 1fr; border: round $panel; }
    ExportModal #export-text:focus { border: round $accent; }
    ExportModal #export-error { height: auto; color: $error; display: none; padding: 1 0; }
    ExportModal.-failed #export-error { display: block; }
    ExportModal.-failed #export-text, ExportModal.-failed #export-note { display: none; }
    ExportModal #export-note { height: auto; color: $text-muted; }  /* two lines under 90 columns, never cut */
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "export",
        Key("1", "show('curl')", "curl", "A curl command that sends one HTTP round"),
        Key("2", "show('json')", "JSON-RPC", "Every JSON-RPC message of the call"),
        Key("3", "show('python')", "Python", "A script using the official Python SDK"),
        Key("c", "copy", "copy", "Copy the whole text to the clipboard", priority=True),
        Key("escape", "close", "close", "Close without exporting anything"),
    )

    FIELDS = "#export-text"

    def __init__(self, exported: CallToExport, fmt: ExportFormat | None = None) -> None:
        super().__init__()
        self.exported = exported
        self.format: ExportFormat = fmt or ("curl" if exported.timeline.transport == "http" else "json")
        """The format shown."""
        self.text: str | None = None
        """The exported text shown (None when the format failed)."""
        self.error: str | None = None
        """Why the call cannot be exported in this format (None when it can)."""

    def box_title(self) -> str:
        return "Export"

    def compose_body(self) -> ComposeResult:
        yield Static(self._title(), classes="export-title")
        with Horizontal(classes="export-formats"):
            for number, (fmt, label) in enumerate(LABELS.items(), start=1):
                yield Button(f"{number} {label}", id=f"export-{fmt}", compact=True, tooltip=f"Show as {label}")
        yield TextArea("", id="export-text", read_only=True, soft_wrap=False, show_line_numbers=False)
        yield Static("", id="export-error")
        yield Static(
            "c copies everything · select with the mouse or shift+arrows, ctrl+c copies a selection",
            id="export-note",
        )

    def _title(self) -> Text:
        exported = self.exported
        call = exported.timeline.call(exported.call)
        title = Text()
        title.append(f"#{exported.call} ", style="bold")
        if call is not None:
            title.append(f"{call.method} ")
            title.append_text(safe_line(call.name or "", "bold", limit=80))
        if exported.round:
            title.append(f"  ·  round {exported.round}", style="dim")
        return title

    def on_mount(self) -> None:
        self.action_show(self.format)
        super().on_mount()

    def action_show(self, fmt: ExportFormat) -> None:
        """Export in ``fmt`` and show the text (or why it cannot be)."""
        self.format = fmt
        try:
            text = self.exported.export(fmt)
        except ExportError as bad:
            self.text, self.error = None, str(bad)
        else:
            self.text, self.error = text, None
        self.set_class(self.error is not None, "-failed")
        shown = f"✗ {self.error}\n\nHere, --as curl/json/python are the keys 1, 2 and 3." if self.error else ""
        self.query_one("#export-error", Static).update(safe(shown))
        self.query_one(TextArea).load_text(self.text or "")
        for name in LABELS:
            self.query_one(f"#export-{name}", Button).variant = "primary" if name == fmt else "default"

    def action_copy(self) -> None:
        """Copy the whole text to the clipboard (the terminal must allow OSC 52)."""
        if self.text is None:
            self.notify("nothing to copy: this call cannot be exported this way", severity="warning")
            return
        self.app.copy_to_clipboard(self.text)
        lines = self.text.count("\n") + 1
        self.notify(f"copied {LABELS[self.format]} ({lines} line{'s' if lines != 1 else ''}) to the clipboard")

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        name = (event.button.id or "").removeprefix("export-")
        if name in LABELS:
            event.stop()
            self.action_show(name)
