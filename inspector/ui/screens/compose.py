"""The call composer as a modal: the schema-driven ``Composer`` (or the JSON fallback) for one tool or prompt.

Dismisses with ``(name, arguments)`` when the user sends the call, ``None`` on escape.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen

from inspector.ui.safe_text import safe_line
from inspector.ui.widgets.json_composer import JsonComposer

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.widget import Widget

try:  # the schema-driven composer is written by another engineer; fall back to the JSON editor until it lands
    from inspector.ui.widgets.composer import Composer
except ImportError:  # pragma: no cover - depends on the other engineer's file
    Composer = JsonComposer  # type: ignore[misc,assignment,unused-ignore]

ComposeResultValue = tuple[str, dict[str, Any]]


def prompt_as_tool(prompt: dict[str, Any]) -> dict[str, Any]:
    """A prompt's string arguments as a tool-like inputSchema, so one composer serves both."""
    properties: dict[str, Any] = {}
    required: list[str] = []
    for argument in prompt.get("arguments") or []:
        if isinstance(argument, dict) and isinstance(argument.get("name"), str):
            properties[argument["name"]] = {"type": "string", "description": str(argument.get("description", ""))}
            if argument.get("required") is True:
                required.append(argument["name"])
    return {**prompt, "inputSchema": {"type": "object", "properties": properties, "required": required}}


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

    def __init__(self, item: dict[str, Any], *, kind: str = "tools") -> None:
        super().__init__()
        self.item = item
        """The catalog item being composed for."""
        self.kind = kind
        """tools, prompts or templates."""

    def _composer(self) -> Widget:
        if self.kind == "prompts":
            for_prompt = getattr(Composer, "for_prompt", None)
            return for_prompt(self.item) if for_prompt is not None else Composer(prompt_as_tool(self.item))
        if self.kind == "templates":
            return Composer(template_as_tool(self.item))
        return Composer(self.item)

    def compose(self) -> ComposeResult:
        with Vertical(id="compose-box"):
            yield self._composer()

    def on_mount(self) -> None:
        verb = {"tools": "call", "prompts": "get prompt", "templates": "read"}.get(self.kind, "call")
        name = self.item.get("name", self.item.get("uriTemplate", ""))
        self.query_one("#compose-box").border_title = f"{verb} {safe_line(str(name), limit=60).plain}"
        # Keyboard first: the cursor starts in the first field (or on the Call button when there is none).
        first = next(
            (w for w in self.query("Input, TextArea, Select, Checkbox, RadioSet, Button") if w.focusable), None
        )
        if first is not None:
            first.focus()

    @on(Composer.Submitted)
    def _submitted(self, event: JsonComposer.Submitted) -> None:
        event.stop()
        self.dismiss((event.tool_name, event.arguments))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
