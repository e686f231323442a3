"""The call composer: a form built from a tool's ``inputSchema`` (or a prompt's arguments) that posts the call.

What is sent is exactly what the form shows: an empty optional field is omitted, a default is sent only because it
is pre-filled and visible. Invalid input (a field that fails the schema, a number that is not one) is shown under
its field and nothing is posted. A schema the form cannot express is edited as JSON, checked as you type. The
composer never calls anything itself: it posts ``Composer.Submitted`` and the screen runs the call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal

from rich.text import Text
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Static

from inspector.protocol.methods import CATALOG, CatalogKind
from inspector.protocol.schema_form import MISSING, FieldSpec, Path, form_spec, prompt_spec
from inspector.ui.key_hold import hold_keys, released
from inspector.ui.keys import Key, bindings
from inspector.ui.safe_text import safe, safe_line
from inspector.ui.widgets.form_check import ObjectCheck
from inspector.ui.widgets.form_groups import FormView, is_simple

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual.app import ComposeResult

    from inspector.ui.key_hold import Hold

ComposerKind = Literal["tool", "prompt", "resource"]
CATALOG_KIND: Final[dict[ComposerKind, CatalogKind]] = {"tool": "tools", "prompt": "prompts", "resource": "templates"}
"""The catalog kind each composer makes a call for (the request it sends is that kind's, in ``protocol.methods``)."""
"""The request each kind of composer makes."""
BUTTONS: dict[ComposerKind, str] = {"tool": "Call", "prompt": "Get prompt", "resource": "Read"}


class Composer(Vertical):
    """A form for one tool's (or prompt's) arguments, with a Call button; posts ``Submitted`` when valid."""

    DEFAULT_CSS = """
    Composer { height: 1fr; padding: 0 1; }
    Composer > .composer-header { height: auto; }
    Composer > .composer-description { color: $text-muted; height: auto; max-height: 6; margin-bottom: 1; }
    Composer > .composer-preview { height: auto; margin-bottom: 1; }
    Composer > .composer-body { height: 1fr; }
    Composer > .composer-footer { height: 1; dock: bottom; }
    Composer > .composer-footer > Button { width: auto; min-width: 8; }
    Composer > .composer-footer > .composer-keys { width: auto; color: $text-muted; padding-left: 2; }
    Composer > .composer-footer > .composer-status { width: 1fr; color: $error; padding-left: 2; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "composer",
        Key(
            "ctrl+enter,ctrl+j",
            "submit",
            "send",
            "Send the call with the arguments shown (checked first)",
            priority=True,
        ),
    )

    @dataclass
    class Submitted(Message):
        """The user asked to run the call; ``arguments`` are exactly what the form shows."""

        tool_name: str
        """The tool's name (the prompt's name when ``kind`` is "prompt")."""
        arguments: dict[str, Any]
        """The arguments to send: omitted fields are absent, never ``""``."""
        kind: ComposerKind = "tool"
        """What the composer was built for: a tool call or a prompt."""
        hold: Hold | None = None
        """The keys typed after sending, held until the composer is closed (they are for the screen behind)."""

    def __init__(
        self,
        tool: Mapping[str, Any],
        *,
        kind: ComposerKind = "tool",
        initial: Any = MISSING,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.tool = tool
        self.kind: ComposerKind = kind
        self.initial = initial
        """The arguments the form starts with (a resent call's); else each field's default."""
        self.spec: FieldSpec = prompt_spec(tool) if kind == "prompt" else form_spec(tool.get("inputSchema"))
        self.last_errors: dict[Path, str] = {}
        """The errors of the last submit attempt (empty when it was sent)."""

    @classmethod
    def for_prompt(cls, prompt: Mapping[str, Any], *, initial: Any = MISSING, id: str | None = None) -> Composer:
        """A composer for a prompt: one text field per argument (prompt arguments are strings)."""
        return cls(prompt, kind="prompt", initial=initial, id=id)

    @property
    def name_(self) -> str:
        """The tool's (or prompt's) name as sent."""
        name = self.tool.get("name")
        return name if isinstance(name, str) else ""

    def compose(self) -> ComposeResult:
        yield Static(self._header(), classes="composer-header")
        description = self.tool.get("description")
        if isinstance(description, str) and description:
            yield Static(safe(description), classes="composer-description")
        if self.kind == "resource":
            yield Static("", classes="composer-preview")  # the URI read, written by the screen as you type
        with VerticalScroll(classes="composer-body"):
            yield FormView(
                self.spec, ObjectCheck(self.spec.schema, "the arguments"), initial=self.initial, id="composer-form"
            )
        with Horizontal(classes="composer-footer"):
            yield Button(
                BUTTONS[self.kind], variant="primary", id="composer-call", compact=True, tooltip="Send (ctrl+enter)"
            )
            yield Static(self._keys_hint(), classes="composer-keys")
            yield Static("", classes="composer-status")

    def _keys_hint(self) -> str:
        """How to send, as this form takes it (a form with no field said "in the last field" and "tab next field",
        where enter on the focused button sends)."""
        if self.spec.kind == "object" and not self.spec.fields:
            return "⏎ or ctrl+enter sends"
        how = "⏎ in the last field or " if is_simple(self.spec) else ""
        return f"{how}ctrl+enter sends · tab next field"

    def on_mount(self) -> None:
        if not any(widget.focusable for widget in self.form.query("*")):
            self.query_one("#composer-call", Button).focus()  # (nothing to fill in: ⏎ sends the call)

    def _header(self) -> Text:
        header = Text()
        header.append(f"{CATALOG[CATALOG_KIND[self.kind]].use_method} ", style="dim")
        header.append_text(safe_line(self.name_, "bold"))
        title = self.tool.get("title")
        if isinstance(title, str) and title and title != self.name_:
            header.append("  ")
            header.append_text(safe_line(title, "italic"))
        return header

    @property
    def form(self) -> FormView:
        """The arguments form."""
        return self.query_one("#composer-form", FormView)

    def arguments(self) -> tuple[dict[str, Any] | None, dict[Path, str]]:
        """The arguments the form shows, checked; ``None`` and the errors (shown on screen) when invalid."""
        value, errors = self.form.validate()
        self.last_errors = errors
        if errors:
            return None, errors
        return ({} if value is MISSING else value), {}

    def action_submit(self) -> None:
        """Check the form; post ``Submitted`` when valid, else point at the first invalid field."""
        arguments, errors = self.arguments()
        status = self.query_one(".composer-status", Static)
        if arguments is None:
            count = len(errors)
            status.update(f"{count} field{'s' if count != 1 else ''} to fix before sending")
            return
        status.update("")
        self.post_message(self.Submitted(self.name_, arguments, self.kind, hold_keys(self.app)))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "composer-call":
            event.stop()
            self.action_submit()

    def on_form_view_submitted(self, event: FormView.Submitted) -> None:
        event.stop()
        with released(event.hold):
            self.action_submit()
