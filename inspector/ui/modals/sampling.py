"""Sampling: the server asks for an LLM reply; the user writes it, or lets the stub model answer with one key.

The dialog shows the request (messages with every content block kind, system prompt, model preferences, maxTokens,
tools) and a reply form: text, model name, stopReason. ``s`` (when the cursor is not in a text box) answers with
the deterministic stub model. A checkbox makes every later sampling request go to the stub model without asking.
Escape cancels the whole call: there is no "decline" for sampling (the server would not be waiting for one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final

from textual import events
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, Label, Select, Static, TextArea

from inspector.protocol.json_values import json_int
from inspector.protocol.methods import SAMPLING
from inspector.ui.keys import Key, bindings
from inspector.ui.modals.answer_dialog import AnswerModal, AskedFor
from inspector.ui.modals.sampling_view import request_text

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual.app import ComposeResult

    from inspector.answers.source import InputResponse

USER_MODEL: Final = "inspector-user"
"""The model name pre-filled for a reply a person writes (the server sees who answered)."""

STOP_REASONS: Final = ("endTurn", "stopSequence", "maxTokens")

SHORT_SCREEN: Final = 38
"""Under this many rows the dialog at its natural height may not fit: a title and a note of 2 lines each, the
request at most 40% of the screen, the reply form (label, 6-line box, model row, error, checkbox), the buttons and
the borders take 20 rows and 40% of the screen, and the dialog has 96% of the rows above the footer."""


@dataclass(frozen=True, slots=True)
class SamplingReply:
    """What the sampling dialog returns: the CreateMessageResult the person wrote, or the stub model to write it,
    and "stub from now on"."""

    response: InputResponse | None
    """None: the person handed the question to the stub model, which writes the reply once the dialog has closed,
    so that its time is the model's, told apart from the person's reading (``InteractiveAnswers``)."""
    always_stub: bool
    """The user ticked "answer every sampling request with the stub model"."""


class SamplingModal(AnswerModal[SamplingReply | None]):
    """Answer a ``sampling/createMessage`` request; dismissed with a ``SamplingReply``, or ``None`` to cancel."""

    KIND = "The server asks for an LLM reply (sampling)"

    DEFAULT_CSS = """
    SamplingModal .sampling-request { height: auto; max-height: 40vh; border: round $panel-lighten-2; padding: 0 1; }
    SamplingModal .sampling-request:focus { border: round $accent; }
    SamplingModal .sampling-reply { height: auto; margin-top: 1; }
    SamplingModal .sampling-reply TextArea { height: 6; }
    /* On a short screen (``SHORT_SCREEN``) the request takes the room the reply form leaves, 2 lines of it at least
       (it scrolls, and Tab reaches it), and the reply box has 1 to 4 lines: at 80x24 the reply's fields, the note
       and the buttons stay on screen, where the request at its height hid them under the buttons. (Not on a taller
       one: a box sized by the room left makes the dialog as tall as the screen allows, blank lines and all.) */
    SamplingModal.-short .sampling-request { height: 1fr; min-height: 4; }
    SamplingModal.-short .sampling-reply TextArea { height: 15vh; min-height: 3; max-height: 6; }
    SamplingModal .sampling-row { height: auto; }
    SamplingModal .sampling-row > Label { width: 12; padding-top: 0; }
    SamplingModal .sampling-row > Input { width: 1fr; background: $panel; }
    SamplingModal .sampling-row > Select { width: 24; }
    SamplingModal #sampling-error { color: $error; height: auto; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "sampling",
        Key("ctrl+enter,ctrl+j", "send", "send reply", "Send the reply you wrote"),
        Key("s,ctrl+t", "stub", "stub model", "Answer with the stub model (ctrl+t also works while typing the reply)"),
    )

    def __init__(self, params: Mapping[str, Any], asked: AskedFor) -> None:
        super().__init__(SAMPLING, asked)
        self.params = params
        max_tokens = params.get("maxTokens")
        self.max_tokens = json_int(max_tokens)

    def compose_dialog(self) -> ComposeResult:
        self.set_class(self.app.size.height < SHORT_SCREEN, "-short")
        request = VerticalScroll(Static(request_text(self.params)), classes="sampling-request", can_focus=True)
        request.border_title = "Request"
        yield request
        with Vertical(classes="sampling-reply"):
            yield Label("Your reply (the assistant message):")
            yield TextArea("", id="reply-text", soft_wrap=True, show_line_numbers=False)
            with Horizontal(classes="sampling-row"):
                yield Label("model")
                yield Input(USER_MODEL, id="reply-model", compact=True)
                yield Label("stopReason")
                yield Select(
                    [(reason, reason) for reason in STOP_REASONS],
                    value="endTurn",
                    allow_blank=False,
                    id="reply-stop",
                    compact=True,
                )
            yield Static("", id="sampling-error")
            yield Checkbox(
                "Answer every sampling request with the stub model from now on", id="always-stub", compact=True
            )
        limit = f"maxTokens {self.max_tokens} (counted as words)" if self.max_tokens is not None else "no maxTokens"
        yield Static(f"ctrl+t (s outside the text boxes) for the stub model · {limit}", classes="answer-note")

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.height < SHORT_SCREEN, "-short")

    def compose_buttons(self) -> ComposeResult:
        yield Button(
            "Send reply", variant="primary", id="send", compact=True, tooltip="Send what you wrote (ctrl+enter)"
        )
        yield Button("Stub model", id="stub", compact=True, tooltip="Let the stub model answer (ctrl+t)")
        yield Button("Stop the call", variant="warning", id="cancel-call", compact=True, tooltip="(escape)")

    @property
    def always_stub(self) -> bool:
        """Whether "answer every sampling request with the stub model" is ticked."""
        return self.query_one("#always-stub", Checkbox).value

    def reply(self) -> tuple[InputResponse | None, str]:
        """The CreateMessageResult the reply form shows, or None and the reason it cannot be sent."""
        text = self.query_one("#reply-text", TextArea).text
        model = self.query_one("#reply-model", Input).value.strip()
        stop = self.query_one("#reply-stop", Select).value
        if not text.strip():
            return None, "Write a reply, or press s for the stub model."
        if not model:
            return None, "Give a model name (the server sees it as the model that answered)."
        words = len(text.split())
        if self.max_tokens is not None and words > self.max_tokens:
            return None, f"The reply has {words} words; the request allows maxTokens {self.max_tokens}. Shorten it."
        response: InputResponse = {
            "role": "assistant",
            "content": {"type": "text", "text": text},
            "model": model,
            "stopReason": stop if isinstance(stop, str) else "endTurn",
        }
        return response, ""

    def action_send(self) -> None:
        """Send the reply the user wrote, if it is complete; otherwise say what is missing."""
        response, problem = self.reply()
        self.query_one("#sampling-error", Static).update(problem)
        if response is not None:
            self.dismiss(SamplingReply(response, self.always_stub))

    def action_stub(self) -> None:
        """Hand the question to the stub model."""
        self.dismiss(SamplingReply(None, self.always_stub))
