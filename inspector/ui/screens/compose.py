"""The call composer as a modal: the schema-driven ``Composer`` (or its JSON fallback) for one tool or prompt.

Dismisses with ``(name, arguments)`` when the user sends the call, ``None`` on escape. Given ``initial`` arguments
(a resent call's), the form starts with exactly those.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from inspector.protocol.schema_form import MISSING
from inspector.ui.safe_text import safe_line
from inspector.ui.widgets.composer import Composer

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.widget import Widget

ComposeResultValue = tuple[str, dict[str, Any]]


def template_as_tool(template: dict[str, Any]) -> dict[str, Any]:
    """A resource template as a one-field form: the URI, pre-filled with the template."""
    uri = str(template.get("uriTemplate", ""))
    schema = {
        "type": "object",
        "properties": {"uri": {"type": "string", "default": uri, "description": "fill in the template"}},
        "required": ["uri"],
    }
    return {"name": uri, "description": template.get("description", ""), "inputSchema": schema}


class ComposeScreen(ModalScreen[ComposeResultValue | None]):
    """Compose one call: a tool's arguments, a prompt's arguments, or a resource template's URI."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_none", "close", id="compose.close", tooltip="Close the composer without calling"),
    ]

    DEFAULT_CSS = """
    ComposeScreen { align: center middle; }
    ComposeScreen #compose-box {
        width: 100; max-width: 95%; height: 80%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    """

    def __init__(
        self, item: dict[str, Any], *, kind: str = "tools", initial: dict[str, Any] | None = None, title: str = ""
    ) -> None:
        super().__init__()
        self.item = item
        """The catalog item being composed for."""
        self.kind = kind
        """tools, prompts or templates."""
        self.initial = initial
        """Arguments to start with (a resent call's), else each field's default."""
        self.title = title
        """Put before the verb in the border title (e.g. "resend #6")."""

    def _composer(self) -> Widget:
        start = MISSING if self.initial is None else self.initial
        if self.kind == "prompts":
            return Composer.for_prompt(self.item, initial=start)
        if self.kind == "templates":
            return Composer(template_as_tool(self.item), initial=start)
        return Composer(self.item, initial=start)

    def compose(self) -> ComposeResult:
        with Vertical(id="compose-box"):
            yield self._composer()

    def on_mount(self) -> None:
        verb = {"tools": "call", "prompts": "get prompt", "templates": "read"}.get(self.kind, "call")
        name = self.item.get("name", self.item.get("uriTemplate", ""))
        title = f"{self.title}: " if self.title else ""
        self.query_one("#compose-box").border_title = f"{title}{verb} {safe_line(str(name), limit=60).plain}"
        # Keyboard first: the cursor starts in the first field (or on the Call button when there is none).
        first = next(
            (w for w in self.query("Input, TextArea, Select, Checkbox, RadioSet, Button") if w.focusable), None
        )
        if first is not None:
            first.focus()

    @on(Composer.Submitted)
    def _submitted(self, event: Composer.Submitted) -> None:
        event.stop()
        self.dismiss((event.tool_name, event.arguments))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
