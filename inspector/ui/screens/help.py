"""The help screen (``?``): every key of the screen it was opened from, with what it does and where it works; the
keys that do nothing in the present state are listed apart, so none is offered where it would do nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from rich.text import Text
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from inspector.ui.keys import Key, bindings
from inspector.ui.modals.dialog import Dialog
from inspector.ui.safe_text import safe

if TYPE_CHECKING:
    from textual.app import ComposeResult

    from inspector.ui.keys import KeyInfo


def key_table(keys: list[KeyInfo]) -> Table:
    """The keys as a table whose cells wrap (never cut): key, action, what it does, where."""
    table = Table(expand=True, box=None, pad_edge=False, show_edge=False, header_style="bold")
    table.add_column("key", no_wrap=True, min_width=6)
    table.add_column("action", ratio=2)
    table.add_column("what it does", ratio=5)
    table.add_column("where", ratio=2)
    for key in keys:
        table.add_row(Text(key.key, style="bold"), key.description, key.tooltip, key.where)
    return table


class HelpScreen(Dialog[None]):
    """A table of keys: key, what it does, where it works; then the keys not available now."""

    DEFAULT_CSS = """
    HelpScreen > .dialog { width: 110; max-width: 96%; border: round $primary; }
    HelpScreen #help-intro, HelpScreen .help-later { color: $text-muted; height: auto; }
    HelpScreen #help-recording { height: auto; margin-top: 1; }
    HelpScreen .help-later { margin-top: 1; }
    HelpScreen #help-keys { height: auto; max-height: 80vh; }
    HelpScreen #help-keys:focus { border-left: outer $accent; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "help",
        Key("escape", "close", "close", "Close the help screen"),
        Key("question_mark", "close", "close", "Close the help screen", show=False),
    )

    FIRST_FOCUS = "#help-keys"

    def __init__(self, keys: list[KeyInfo], recording: str | None = None) -> None:
        super().__init__()
        self.keys = keys
        """The keys listed: those available now (the same list the command palette offers), then the others."""
        self.recording = recording
        """Where the session records, in full (the header shortens it to fit; None: it does not record)."""

    def box_title(self) -> str:
        return "help"

    def compose_body(self) -> ComposeResult:
        now = [key for key in self.keys if key.available]
        later = [key for key in self.keys if not key.available]
        yield Static(
            "Keys of this screen. The footer and the command palette (ctrl+p) list the same ones.",
            id="help-intro",
            markup=False,
        )
        if self.recording:
            yield Static(safe(f"This session records to {self.recording}"), id="help-recording")
        with VerticalScroll(id="help-keys", can_focus=True):
            yield Static(key_table(now), id="help-now")
            if later:
                yield Static(
                    "Not available in this state (a call to highlight, a folded section, a call in flight ...):",
                    classes="help-later",
                    markup=False,
                )
                yield Static(key_table(later), id="help-later")

    def action_close(self) -> None:
        self.dismiss(None)
