"""From a catalog item or a call on the timeline to a call to make: the composer, or the answers editor for a resend.

``CallComposer`` is held by the main screen. It opens the modal that asks what to send (the composer built from a
tool's ``inputSchema``, pre-filled with a resent call's arguments; or a resent round's answers as JSON) and hands
what the user composed to ``send``, the screen's ``run_call``. It never makes a call itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from inspector.ui.composer.resend import ComposePlan, EditedAnswers, answers_of, resend_plan
from inspector.ui.modals.dialog import open_dialog

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.app import App

    from inspector.answers.source import AnswerSource
    from inspector.protocol.methods import CatalogKind
    from inspector.timeline.model import Call
    from inspector.ui.composer.compose_dialog import ComposeResultValue

# The composer and the answers editor (the schema-driven form and its jsonschema checks: a tenth of a second of
# imports) are imported when one first opens, not with the main screen, which must paint before its server has
# answered (issue 33).


@dataclass(frozen=True, slots=True)
class CallRequest:
    """One call to make, as the user composed it; the main screen's ``run_call`` makes it."""

    kind: CatalogKind
    name: str
    """The tool's or the prompt's name, or the URI to read."""
    arguments: dict[str, Any] | None
    answers: AnswerSource | None = None
    """A resend's edited answers (None: every question is asked interactively)."""
    resend_of: int | None = None
    """The call it sends again (recorded, so replay shows it; None: a new call)."""


class CallComposer:
    """Asks the user what to send, then sends it (see the module docstring)."""

    def __init__(self, app: App[Any], send: Callable[[CallRequest], object], answers: AnswerSource) -> None:
        self.app = app
        self.send = send
        self.answers = answers
        """Answers the questions an edited resend has no edited answer for (the interactive source)."""

    def choose(self, item: dict[str, Any], kind: CatalogKind) -> None:
        """A catalog item was chosen: a resource is read and a prompt without arguments got at once; anything else
        is composed first."""
        if kind == "resources":
            self.send(CallRequest(kind, str(item.get("uri", "")), None))
        elif kind == "prompts" and not item.get("arguments"):
            self.send(CallRequest(kind, str(item.get("name", "")), {}))
        else:
            self.compose(ComposePlan(kind, item))

    def compose(self, plan: ComposePlan, *, resend_of: int | None = None) -> None:
        """Open the composer on ``plan``, then make the call it composes (a template is read at its URI)."""
        from inspector.ui.composer.compose_dialog import ComposeScreen

        kind = plan.kind

        def composed(value: ComposeResultValue | None) -> None:
            if value is None:
                return
            name, arguments = value
            if kind == "templates":
                self.send(CallRequest("resources", name, None, resend_of=resend_of))  # the URI the template expanded to
            else:
                self.send(CallRequest(kind, name, arguments, resend_of=resend_of))

        open_dialog(self.app, ComposeScreen(plan), composed)

    def resend(self, call: Call, round_: int, catalog: dict[CatalogKind, list[dict[str, Any]]]) -> str | None:
        """Compose ``call`` again (its arguments), or from a round row edit the answers it was given; returns why
        it cannot be resent (None: the modal is open)."""
        plan = resend_plan(call, catalog)
        if plan is None:
            return f"{call.method} cannot be resent (tools/call, prompts/get and resources/read can)"
        answers = answers_of(call)
        if not (round_ and answers):
            self.compose(plan, resend_of=call.index)
            return None
        sent = plan.arguments or {}

        def edited(value: dict[str, Any] | None) -> None:
            if value is None:
                return
            kind: CatalogKind = "resources" if plan.kind == "templates" else plan.kind
            name = str(sent.get("uri", "")) if kind == "resources" else str(plan.item.get("name", ""))
            arguments = None if kind == "resources" else sent
            source = EditedAnswers(value, self.answers)
            self.send(CallRequest(kind, name, arguments, source, call.index))

        from inspector.ui.modals.answers_editor import AnswersEditor

        open_dialog(self.app, AnswersEditor(call, round_, answers), edited)
        return None
