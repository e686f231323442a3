"""Edit the answers a call was given, then resend it: one JSON object ``{input key: response}``, checked as you type.

A legacy server request has no key: its answer is listed under its method (``"roots/list"``). The call is sent
again with the same arguments; each question whose key is in the object gets exactly that response, any other
question is asked as usual. Dismissed with the edited object, or ``None`` (Escape) to send nothing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.binding import BindingType
from textual.containers import Horizontal
from textual.widgets import Button, Static, TextArea

from inspector.protocol.json_input import parse_object
from inspector.ui.keys import Key, bindings
from inspector.ui.modals.dialog import Dialog
from inspector.ui.safe_text import safe, safe_line

if TYPE_CHECKING:
    from textual.app import ComposeResult

    from inspector.answers.source import InputResponse
    from inspector.timeline.model import Call


def parse_answers(text: str) -> tuple[dict[str, Any] | None, str]:
    """(answers, "") when ``text`` is a JSON object whose values are objects, else (None, why not)."""
    value, problem = parse_object(text, "the answers ({input key: response})")
    if value is None:
        return None, problem
    for key, response in value.items():
        if not isinstance(response, dict):
            return None, f"the answer to {key!r} must be a JSON object (an ElicitResult, CreateMessageResult ...)"
    return value, ""


class AnswersEditor(Dialog[dict[str, Any] | None]):
    """The answers of ``call`` as JSON; ctrl+s (or Resend) dismisses with the edited answers."""

    DEFAULT_CSS = """
    AnswersEditor > .dialog { max-width: 110; height: 80%; border: round $timeline-input-required; }
    AnswersEditor .edit-title, AnswersEditor .edit-note { height: auto; margin-bottom: 1; }
    AnswersEditor .edit-note { color: $text-muted; }
    AnswersEditor #answers-json { height: 1fr; }
    AnswersEditor #answers-error { height: auto; color: $error; }
    AnswersEditor .edit-buttons { height: 1; align-horizontal: right; }
    AnswersEditor .edit-buttons > Button { margin-left: 2; min-width: 10; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "answers",
        Key("ctrl+s", "send", "resend", "Send the call again, answering each key with the response shown"),
        Key("escape", "close", "close", "Close without sending anything"),
    )

    def __init__(self, call: Call, round_: int, answers: dict[str, InputResponse]) -> None:
        super().__init__()
        self.call = call
        self.round = round_
        self.answers = answers
        self.problem = ""
        """Why the text is not a valid answers object ("" when it is)."""

    def box_title(self) -> str:
        return f"Resend #{self.call.index} with edited answers"

    def compose_body(self) -> ComposeResult:
        title = Text()
        title.append(f"#{self.call.index} {self.call.method} ")
        title.append_text(safe_line(self.call.name or "", "bold", limit=80))
        if self.round:
            title.append(f"  ·  from round {self.round}", style="dim")
        yield Static(title, classes="edit-title")
        yield Static(
            safe(
                "Every answer the call was given, by input key (a legacy server request: by its method). The call "
                "is sent again with the same arguments; a question whose key is here gets exactly this response, "
                "any other is asked as usual."
            ),
            classes="edit-note",
        )
        yield TextArea(
            json.dumps(self.answers, indent=2, ensure_ascii=False),
            id="answers-json",
            soft_wrap=True,
            show_line_numbers=False,
        )
        yield Static("", id="answers-error")
        with Horizontal(classes="edit-buttons"):
            yield Button("Resend", variant="primary", id="answers-send", compact=True, tooltip="Send (ctrl+s)")
            yield Button("Close", id="answers-close", compact=True, tooltip="Send nothing (escape)")

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        _, self.problem = parse_answers(event.text_area.text)
        self.query_one("#answers-error", Static).update(safe(self.problem))
        self.query_one("#answers-send", Button).disabled = bool(self.problem)

    def action_send(self) -> None:
        """Dismiss with the edited answers when they parse; otherwise say why and stay."""
        answers, self.problem = parse_answers(self.query_one(TextArea).text)
        if answers is None:
            self.query_one("#answers-error", Static).update(safe(self.problem))
            return
        self.dismiss(answers)

    def action_close(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "answers-send":
            self.action_send()
        else:
            self.action_close()
