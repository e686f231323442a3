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
    from collections.abc import Iterable

    from textual.app import ComposeResult

    from inspector.ui.keys import KeyInfo


def longest_word(cells: Iterable[str]) -> int:
    """The width of the longest word of ``cells``: a column narrower than that cuts the word ("subscriptio…")."""
    return max((len(word) for cell in cells for word in cell.split()), default=0)


def key_table(keys: list[KeyInfo]) -> Table:
    """The keys as a table whose cells wrap (never cut): key, action, what it does, where. The action and where
    columns are as wide as their words need, up to 20 and 16 columns (then they wrap between words); what it does
    takes the rest, never less than its longest word (``width`` is the least a column with a ratio gets). At 80
    columns shares of the width cut "subscriptions" to "subscriptio…" and "(subscriptions/listen)" to
    "(subscriptions/liste…"."""
    table = Table(expand=True, box=None, pad_edge=False, show_edge=False, header_style="bold")
    where = longest_word(key.where for key in keys)
    table.add_column("key", no_wrap=True, min_width=6)
    table.add_column("action", min_width=longest_word(key.description for key in keys), max_width=20)
    table.add_column("what it does", ratio=1, width=longest_word(key.tooltip for key in keys))
    table.add_column("where", min_width=where, max_width=max(where, 16))
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
    /* 65% of the screen at most: with the intro and the recording's path on two lines each and the borders, the
       box ends inside the dialog from 80x24 up (at 80% it was cut by a line at 80x24, more with a recording). */
    HelpScreen #help-keys { height: auto; max-height: 65vh; }
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
