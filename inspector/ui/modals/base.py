"""What every answer modal shares: a dialog titled with the call and the input key, and Escape = cancel the call.

A modal is dismissed with its answer, or with ``None`` when the user cancels the whole call (Escape, or the
"Cancel the call" button); the caller turns ``None`` into ``CallCancelled``. Modals never talk to the session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, TypeVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from inspector.ui.safe_text import safe, safe_line

if TYPE_CHECKING:
    from textual.app import ComposeResult

ResultT = TypeVar("ResultT")


def request_title(method: str, call: str | None, key: str | None) -> Text:
    """``tools/call book_meeting · input "meeting" · elicitation/create``, every part shown literally."""
    title = Text()
    title.append_text(safe_line(call or "a call", "bold"))
    title.append("  ·  ")
    if key is None:
        title.append("legacy server request", style="italic")
    else:
        title.append("input ")
        title.append_text(safe_line(key, "bold"))
    title.append("  ·  ")
    title.append(method, style="dim")
    return title


class AnswerModal(ModalScreen[ResultT]):
    """A dialog asking the user to answer one input request; ``None`` means "cancel the call"."""

    DEFAULT_CSS = """
    AnswerModal { align: center middle; }
    AnswerModal > .answer-dialog {
        width: 94%; max-width: 120; height: auto; max-height: 96%;
        border: thick $timeline-input-required; border-title-color: $text; border-title-style: bold;
        background: $surface; padding: 0 1;
    }
    AnswerModal .answer-title { height: auto; margin-bottom: 1; }
    AnswerModal .answer-message { height: auto; margin-bottom: 1; }
    AnswerModal .answer-warning { height: auto; color: $warning; }
    AnswerModal .answer-note { height: auto; color: $text-muted; }
    AnswerModal .answer-error { height: auto; color: $error; }
    AnswerModal .answer-body { height: auto; max-height: 70vh; }
    AnswerModal .answer-buttons { height: auto; margin-top: 1; align-horizontal: right; }
    AnswerModal .answer-buttons > Button { margin-left: 2; min-width: 10; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape",
            "cancel_call",
            "Cancel the call",
            id="answer.cancel-call",
            tooltip="Cancel the whole call: no answer is sent and the call stops",
        ),
    ]

    AUTO_FOCUS = ""  # see ``on_mount``: Textual's auto focus would pick the scrolling container around the form
    FIELDS: ClassVar[str] = "Input, TextArea, Select, SelectionList, RadioSet, Checkbox, Switch"
    """What counts as a field for the first focus."""

    KIND: ClassVar[str] = "Input requested"
    """The dialog's border title."""

    def __init__(self, method: str, *, call: str | None = None, key: str | None = None) -> None:
        super().__init__()
        self.method = method
        self.call = call
        self.key = key

    def compose(self) -> ComposeResult:
        with Vertical(classes="answer-dialog") as dialog:
            dialog.border_title = self.KIND
            yield Static(request_title(self.method, self.call, self.key), classes="answer-title")
            yield from self.compose_dialog()
            with Horizontal(classes="answer-buttons"):
                yield from self.compose_buttons()
        yield Footer()

    def on_mount(self) -> None:
        """The first field has the focus when the dialog opens, so the first keys typed answer it. Never a button
        (Enter must not consent to anything by accident); a dialog without fields leaves its keys to the screen.
        The form stays scrolled to its top, so the first field's label and description stay in view."""
        first = next((widget for widget in self.query(self.FIELDS) if widget.focusable), None)
        if first is not None:
            self.set_focus(first, scroll_visible=False)

    def compose_dialog(self) -> ComposeResult:
        """The body of the dialog (between the title and the buttons)."""
        yield from ()

    def compose_buttons(self) -> ComposeResult:
        """The row of buttons at the bottom right."""
        yield from ()

    @staticmethod
    def message_widget(message: object) -> Static:
        """The server's message, shown literally (no markup, no escape sequences)."""
        return Static(safe(message if isinstance(message, str) else ""), classes="answer-message")

    def action_cancel_call(self) -> None:
        """Dismiss with ``None``: the caller cancels the whole call."""
        self.dismiss(None)
