"""What every answer modal shares: a dialog titled with the call and the input key, and Escape = stop the call.

A modal is dismissed with its answer, or with ``None`` when the user stops the whole call (Escape, or the "Stop the
call" button); the caller turns ``None`` into ``CallCancelled``. An answer the server receives (Decline, or
elicitation's Cancel action) is a different thing, and the dialogs say so. Modals never talk to the session.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, TypeVar

from rich.text import Text
from textual.binding import BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Static

from inspector.ui.keys import Key, bindings
from inspector.ui.modals.dialog import Dialog
from inspector.ui.safe_text import safe, safe_line

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.app import ComposeResult
    from textual.await_complete import AwaitComplete

ResultT = TypeVar("ResultT")


@dataclass(frozen=True, slots=True)
class AskedFor:
    """Which question an answer modal answers: the call that asked, and its input key."""

    call: str | None = None
    """The call, as the modals it opens are titled (``tools/call book_meeting``; None: "a call")."""
    key: str | None = None
    """The input key (None: a legacy server request, which has none)."""

    def title(self, method: str) -> Text:
        """``tools/call book_meeting · input "meeting" · elicitation/create``, every part shown literally."""
        title = Text()
        title.append_text(safe_line(self.call or "a call", "bold"))
        title.append("  ·  ")
        if self.key is None:
            title.append("legacy server request", style="italic")
        else:
            title.append("input ")
            title.append_text(safe_line(self.key, "bold"))
        title.append("  ·  ")
        title.append(method, style="dim")
        return title


class AnswerModal(Dialog[ResultT]):
    """A dialog asking the user to answer one input request; ``None`` means "stop the call"."""

    DEFAULT_CSS = """
    AnswerModal > .dialog { border: thick $timeline-input-required; }
    AnswerModal .answer-title { height: auto; margin-bottom: 1; }
    AnswerModal .answer-message { height: auto; max-height: 25vh; margin-bottom: 1; }
    AnswerModal .answer-warning { height: auto; color: $warning; }
    AnswerModal .answer-note { height: auto; color: $text-muted; }
    AnswerModal .answer-error { height: auto; color: $error; }
    AnswerModal .answer-body { height: auto; max-height: 50vh; }
    /* Docked, so that however long the server's text is, the buttons stay on screen. */
    AnswerModal .answer-buttons { dock: bottom; height: auto; margin-top: 1; align-horizontal: right; }
    AnswerModal .answer-buttons > Button { margin-left: 2; min-width: 10; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "answer",
        # Not a priority key: escape closes an open choice list first.
        Key("escape", "cancel_call", "stop the call", "Stop the whole call: no answer is sent"),
    )

    KIND: ClassVar[str] = "Input requested"
    """The dialog's border title."""

    def __init__(self, method: str, asked: AskedFor) -> None:
        super().__init__()
        self.method = method
        self.asked = asked
        self.on_answer: Callable[[], None] | None = None
        """Called the moment an answer is given, before the dialog closes (the keys typed next may be for the next
        question of the round, whose dialog opens at once)."""

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        if result is not None and self.on_answer is not None:
            self.on_answer()
        return super().dismiss(result)

    def box_title(self) -> str:
        return self.KIND

    def compose_body(self) -> ComposeResult:
        yield Static(self.asked.title(self.method), classes="answer-title")
        yield from self.compose_dialog()
        with Horizontal(classes="answer-buttons"):
            yield from self.compose_buttons()

    def compose_dialog(self) -> ComposeResult:
        """The body of the dialog (between the title and the buttons)."""
        yield from ()

    def compose_buttons(self) -> ComposeResult:
        """The row of buttons at the bottom right."""
        yield from ()

    @staticmethod
    def message_widget(message: object) -> VerticalScroll:
        """The server's message, shown literally (no markup, no escape sequences), in a bounded area that scrolls:
        however long it is, the fields and the buttons below it stay on screen."""
        text = Static(safe(message if isinstance(message, str) else ""), classes="answer-message-text")
        return VerticalScroll(text, classes="answer-message", can_focus=False)

    def action_cancel_call(self) -> None:
        """Dismiss with ``None``: the caller cancels the whole call."""
        self.dismiss(None)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        """A button does what its key does: the action its id names (``cancel-call``: ``action_cancel_call``)."""
        action = getattr(self, f"action_{(event.button.id or '').replace('-', '_')}", None)
        if callable(action):
            event.stop()
            done = action()
            if inspect.isawaitable(done):
                await done
