"""Elicitation, form mode: a form rendered from ``requestedSchema``; Accept, Decline or Cancel.

Accept sends ``{"action": "accept", "content": {...}}`` with exactly what the form shows, and only when every field
passes the schema (errors are shown under each field first); Enter in the last field of a simple form accepts too.
Decline sends ``{"action": "decline"}``, Cancel ``{"action": "cancel"}``: both are answers the server receives;
Escape stops the whole call and sends none (the modal returns ``None``). A ``requestedSchema`` the spec does not
allow is answered in a JSON editor, with the reason shown (the caller records the finding).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.widgets import Button, Static

from inspector.answers.source import InputResponse
from inspector.protocol.methods import ELICITATION
from inspector.protocol.schema_form import MISSING, elicitation_spec, unsupported_reason
from inspector.ui.key_hold import released
from inspector.ui.keys import Key, bindings
from inspector.ui.modals.answer_dialog import AnswerModal, AskedFor
from inspector.ui.safe_text import safe
from inspector.ui.widgets.form_check import ObjectCheck
from inspector.ui.widgets.form_groups import FormView

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual.app import ComposeResult
    from textual.message import Message


class FormScroll(VerticalScroll):
    """The form's scrolling area. When its scrollbar's place is kept (``scrollbar-gutter: stable``, set on a form
    sure to scroll), the form is measured at the width it is shown at: Textual measures the content of a scrolling
    area at the area's full width, scrollbar columns included, and then lays it out narrower, so every field of a
    long form was laid out twice more than needed."""

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.styles.scrollbar_gutter == "stable":
            width -= self.styles.scrollbar_size_vertical
        return super().get_content_height(container, viewport, width)


class ElicitationModal(AnswerModal[InputResponse | None]):
    """Answer an ``elicitation/create`` form request; dismissed with the ElicitResult, or ``None`` to cancel."""

    KIND = "The server asks for information"

    DEFAULT_CSS = """
    /* Only on a form taller than the whole screen (``sure_to_scroll``): its scrollbar is certain, so its place is kept
       from the start and the fields are not laid out again, narrower, when it appears. It looks the same. */
    ElicitationModal .answer-body.-scrolls { scrollbar-gutter: stable; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "elicitation",
        Key("ctrl+enter,ctrl+j", "accept", "accept", "Send the form's content (checked first)", priority=True),
        Key("ctrl+r", "decline", "decline", 'Answer {"action": "decline"}: you said no', priority=True),
        Key("ctrl+g", "cancel", "cancel (answer)", 'Answer {"action": "cancel"}: no choice made', priority=True),
    )

    def __init__(self, params: Mapping[str, Any], asked: AskedFor) -> None:
        super().__init__(ELICITATION, asked)
        self.params = params
        schema = params.get("requestedSchema")
        self.schema: Mapping[str, Any] = schema if isinstance(schema, dict) else {}
        self.unsupported = unsupported_reason(schema)
        """Why the requestedSchema is not one the spec allows (None when it is): answered as JSON."""
        # The reason is shown once, as the dialog's warning, not again above the editor.
        self.spec = replace(elicitation_spec(schema), reason="")
        self._resumed = False

    def post_message(self, message: Message) -> bool:
        # Textual restyles every widget of a screen when the screen resumes. The first resume is the push itself,
        # handled once the dialog has mounted, and every widget was styled as it mounted: a second pass over the
        # same stylesheet and the same widgets changes nothing, and for a form of 200 fields it was a third of the
        # work to open it. Later resumes (a dialog above this one closed) restyle as usual.
        if isinstance(message, events.ScreenResume) and not self._resumed:
            self._resumed = True
            message.refresh_styles = False
        return super().post_message(message)

    def sure_to_scroll(self) -> bool:
        """Whether the form is taller than the whole screen (each field takes a line at least, and a blank line
        separates two), so it scrolls whatever room the rest of the dialog leaves it."""
        return self.unsupported is None and 2 * len(self.spec.fields) - 1 > self.app.size.height

    def compose_dialog(self) -> ComposeResult:
        yield self.message_widget(self.params.get("message"))
        if self.unsupported is not None:
            yield Static(
                safe(f"⚠ This requestedSchema is not one the spec allows ({self.unsupported}); answer as JSON."),
                classes="answer-warning",
            )
        with FormScroll(classes="answer-body -scrolls" if self.sure_to_scroll() else "answer-body"):
            yield FormView(self.spec, ObjectCheck(self.schema, "the content"), show_names=False, id="elicitation-form")
        note = "Required fields are marked *." if self.unsupported is None else "The content is one JSON object."
        yield Static(
            f"{note} Nothing is sent until you answer. Decline and Cancel are answers the server receives; "
            "escape stops the call and answers nothing.",
            classes="answer-note",
        )

    def compose_buttons(self) -> ComposeResult:
        yield Button("Accept", variant="primary", id="accept", compact=True, tooltip="Send the content (ctrl+enter)")
        yield Button("Decline", id="decline", compact=True, tooltip='Send {"action": "decline"} (ctrl+r)')
        yield Button(
            "Cancel", variant="warning", id="cancel", compact=True, tooltip='Send {"action": "cancel"} (ctrl+g)'
        )

    def on_resize(self, event: events.Resize) -> None:
        # A taller screen may now hold the whole form: then its scrollbar, and the place kept for it, go.
        self.query_one(".answer-body").set_class(self.sure_to_scroll(), "-scrolls")

    def on_form_view_submitted(self, event: FormView.Submitted) -> None:
        event.stop()
        with released(event.hold):
            self.action_accept()

    @property
    def form(self) -> FormView:
        """The form (or JSON editor) for the content."""
        return self.query_one("#elicitation-form", FormView)

    def action_accept(self) -> None:
        """Send the content if it passes the schema; otherwise show the errors and send nothing."""
        content, errors = self.form.validate()
        if errors:
            return
        self.dismiss({"action": "accept", "content": {} if content is MISSING else content})

    def action_decline(self) -> None:
        """Send ``{"action": "decline"}``."""
        self.dismiss({"action": "decline"})

    def action_cancel(self) -> None:
        """Send ``{"action": "cancel"}`` (an answer; the call goes on). Escape cancels the call instead."""
        self.dismiss({"action": "cancel"})
