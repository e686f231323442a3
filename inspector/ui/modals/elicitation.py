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

from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import Button, Static

from inspector.answers.base import InputResponse
from inspector.protocol.methods import ELICITATION
from inspector.protocol.schema_form import MISSING, elicitation_spec, unsupported_reason
from inspector.ui.key_hold import released
from inspector.ui.keys import Key, bindings
from inspector.ui.modals.base import AnswerModal, AskedFor
from inspector.ui.safe_text import safe
from inspector.ui.widgets.form_check import ObjectCheck
from inspector.ui.widgets.form_groups import FormView

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual.app import ComposeResult


class ElicitationModal(AnswerModal[InputResponse | None]):
    """Answer an ``elicitation/create`` form request; dismissed with the ElicitResult, or ``None`` to cancel."""

    KIND = "The server asks for information"

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

    def compose_dialog(self) -> ComposeResult:
        yield self.message_widget(self.params.get("message"))
        if self.unsupported is not None:
            yield Static(
                safe(f"⚠ This requestedSchema is not one the spec allows ({self.unsupported}); answer as JSON."),
                classes="answer-warning",
            )
        with VerticalScroll(classes="answer-body"):
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
