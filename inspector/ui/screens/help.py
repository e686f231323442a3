"""The help screen (``?``): every key of the screen it was opened from, with its tooltip."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

if TYPE_CHECKING:
    from textual.app import ComposeResult

    from inspector.ui.keys import KeyInfo


class HelpScreen(ModalScreen[None]):
    """A table of keys: key, what it does, where it works."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "close", id="help.close", tooltip="Close the help screen"),
        Binding("question_mark", "close", "close", show=False, id="help.close2", tooltip="Close the help screen"),
    ]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen #help-box {
        width: 100; max-width: 95%; height: auto; max-height: 90%; border: round $primary; background: $surface;
    }
    HelpScreen DataTable { height: auto; max-height: 30; }
    HelpScreen #help-intro { color: $text-muted; padding: 0 1; }
    """

    def __init__(self, keys: list[KeyInfo]) -> None:
        super().__init__()
        self.keys = keys
        """The keys listed (the same list the command palette offers)."""

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Static(
                "Keys of this screen. The footer and the command palette (ctrl+p) list the same ones.",
                id="help-intro",
                markup=False,
            )
            yield DataTable(id="help-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#help-box").border_title = "help"
        table = self.query_one(DataTable)
        table.add_columns("key", "action", "what it does", "where")
        for key in self.keys:
            table.add_row(key.key, key.description, key.tooltip, key.where)
        table.focus()

    def action_close(self) -> None:
        self.dismiss(None)
