"""The call composer as a dialog: the schema-driven ``Composer`` for one tool, prompt or resource template.

Dismisses with ``(name, arguments)`` when the user sends the call (for a template: the URI it expands to, and no
arguments), ``None`` on escape. Given ``initial`` arguments (a resent call's), the form starts with exactly those.
A resource template gets one field per variable and shows, as they are typed, the URI that ``resources/read`` will
ask for; a template it cannot read (or a plain URI, resent) is one URI field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on
from textual.binding import BindingType
from textual.widgets import Input, Static

from inspector.protocol.schema_form import MISSING
from inspector.ui.composer.composer import Composer
from inspector.ui.composer.uri_template import expand, variables
from inspector.ui.key_hold import released
from inspector.ui.keys import Key, bindings
from inspector.ui.modals.dialog import Dialog
from inspector.ui.safe_text import safe_line

if TYPE_CHECKING:
    from textual.app import ComposeResult

    from inspector.ui.composer.resend import ComposePlan

ComposeResultValue = tuple[str, dict[str, Any]]
URI: str = "uri"
"""The one field of a template composed as a plain URI."""


def template_as_tool(template: dict[str, Any]) -> dict[str, Any]:
    """A resource template as a form: one text field per variable (RFC 6570 variables are all optional), or, for a
    template this cannot read (or a plain URI), one URI field pre-filled with it."""
    uri = str(template.get("uriTemplate", ""))
    names = variables(uri)
    if names:
        properties: dict[str, Any] = {name: {"type": "string", "title": name} for name in names}
        schema: dict[str, Any] = {"type": "object", "properties": properties}
    else:
        uri_field = {"type": "string", "default": uri, "description": "the URI to read"}
        schema = {"type": "object", "properties": {URI: uri_field}, "required": [URI]}
    return {"name": uri, "title": template.get("title"), "description": template.get("description", ""),
            "inputSchema": schema}  # fmt: skip


def template_uri(template: str, arguments: dict[str, Any]) -> str:
    """The URI that ``arguments`` (from ``template_as_tool``'s form) ask for."""
    if variables(template):
        return expand(template, {name: str(value) for name, value in arguments.items()})
    return str(arguments.get(URI, template))


class ComposeScreen(Dialog[ComposeResultValue | None]):
    """Compose one call: a tool's arguments, a prompt's arguments, or the URI of a resource template."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "compose", Key("escape", "dismiss_none", "close", "Close the composer without calling")
    )

    DEFAULT_CSS = """
    ComposeScreen > .dialog { width: 100; max-width: 95%; height: 80%; border: round $primary; }
    """

    def __init__(self, plan: ComposePlan) -> None:
        super().__init__()
        self.plan = plan
        """The catalog item composed for, its kind, the arguments to start with and the title."""

    @property
    def template(self) -> str:
        """The resource template composed for ("" for a tool or a prompt)."""
        return str(self.plan.item.get("uriTemplate", "")) if self.plan.kind == "templates" else ""

    def box_title(self) -> str:
        item, kind = self.plan.item, self.plan.kind
        verb = {"tools": "call", "prompts": "get prompt", "templates": "read"}.get(kind, "call")
        name = item.get("name", item.get("uriTemplate", ""))
        if kind == "templates":
            name = self.template
        title = f"{self.plan.title}: " if self.plan.title else ""
        return f"{title}{verb} {safe_line(str(name), limit=60).plain}"

    def compose_body(self) -> ComposeResult:
        item, kind = self.plan.item, self.plan.kind
        start = MISSING if self.plan.arguments is None else self.plan.arguments
        if kind == "prompts":
            yield Composer.for_prompt(item, initial=start)
        elif kind == "templates":
            yield Composer(template_as_tool(item), kind="resource", initial=start)
        else:
            yield Composer(item, initial=start)

    def on_mount(self) -> None:
        self._show_uri()
        super().on_mount()

    @on(Input.Changed)
    def _show_uri(self) -> None:
        """The URI the template expands to with what the fields show now."""
        if self.plan.kind != "templates":
            return
        composer = self.query_one(Composer)
        value, _ = composer.form.collect()
        uri = template_uri(self.template, value if isinstance(value, dict) else {})
        shown = Text("reads ", style="dim")
        shown.append_text(safe_line(uri, "bold"))
        composer.query_one(".composer-preview", Static).update(shown)

    @on(Composer.Submitted)
    def _submitted(self, event: Composer.Submitted) -> None:
        event.stop()
        with released(event.hold):
            if self.plan.kind == "templates":
                self.dismiss((template_uri(self.template, event.arguments), {}))
            else:
                self.dismiss((event.tool_name, event.arguments))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
