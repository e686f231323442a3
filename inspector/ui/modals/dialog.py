"""What every dialog shares: a bordered box over the screen, its own footer, the first field focused at once, and
the one way to open it (``open_dialog``), which holds the keys typed while it opens.

The footer is the dialog's own, so it lists the keys that work in the dialog, never those of the screen behind.
The focus is set in the same step the dialog is mounted (Textual's ``focus()`` waits a turn of the app, and a key
read meanwhile went elsewhere: a Tab typed at once was undone by it); the keys typed since the dialog was asked
for are then handed to that field (``inspector.ui.key_hold``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from textual.containers import Vertical
from textual.screen import ModalScreen

from inspector.ui.key_hold import hold_keys
from inspector.ui.widgets.key_footer import KeyFooter

if TYPE_CHECKING:
    from rich.text import Text
    from textual.app import App, ComposeResult

    from inspector.ui.key_hold import Hold

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT]):
    """A box titled ``box_title()``, holding ``compose_body()``, with the dialog's own footer."""

    DEFAULT_CSS = """
    Dialog { align: center middle; }
    Dialog > .dialog {
        width: 94%; max-width: 120; height: auto; max-height: 96%;
        border: round $primary; border-title-color: $text; border-title-style: bold;
        background: $surface; padding: 0 1;
    }
    """

    AUTO_FOCUS = ""  # the first field is focused by ``on_mount``, in the same step (see the module docstring)
    FIELDS: ClassVar[str] = "Input, TextArea, Select, SelectionList, RadioSet, Checkbox, Switch"
    """What counts as a field for the first focus."""
    FIRST_FOCUS: ClassVar[str | None] = None
    """What gets the focus when the dialog has no field (None: nothing; its keys are the dialog's own)."""

    _hold: Hold | None = None
    """The keys held for this dialog until its first field has the focus (set by ``open_dialog``)."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = self.box_title()
            yield from self.compose_body()
        yield KeyFooter()

    def box_title(self) -> str | Text:
        """The box's border title."""
        return ""

    def compose_body(self) -> ComposeResult:
        """What the box holds."""
        yield from ()

    def first_field(self) -> Any:
        """The widget the cursor starts in: the first field, else ``FIRST_FOCUS``, else None."""
        first = next((widget for widget in self.query(self.FIELDS) if widget.focusable), None)
        if first is None and self.FIRST_FOCUS is not None:
            first = next((widget for widget in self.query(self.FIRST_FOCUS) if widget.focusable), None)
        return first

    def on_mount(self) -> None:
        """The first field has the focus when the dialog opens, so the first keys typed answer it. The form stays
        scrolled to its top, so the first field's label and description stay in view."""
        first = self.first_field()
        if first is not None:
            self.set_focus(first, scroll_visible=False)
        self._release()

    def on_unmount(self) -> None:
        self._release()  # closed before it was ready: the keys must not stay held

    def _release(self) -> None:
        if self._hold is not None:
            self._hold.release()


def open_dialog(
    app: App[Any], dialog: Dialog[ResultT], callback: Callable[[ResultT | None], None] | None = None
) -> Any:
    """Push ``dialog``, holding the keys typed from now until its first field has the focus; returns what
    ``push_screen`` returns (an awaitable that waits for the dialog to be mounted)."""
    dialog._hold = hold_keys(app)
    return app.push_screen(dialog, callback)
