"""A JSON editor for call arguments: the fallback until the schema-driven ``Composer`` exists (same interface).

It shows a skeleton built from the tool's ``inputSchema`` (defaults, or an empty value per type), validates as you
type, and posts ``Submitted(tool_name, arguments)`` with exactly the object shown.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, ClassVar

from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Button, Static, TextArea

from inspector.protocol.json_input import parse_object

if TYPE_CHECKING:
    from textual.app import ComposeResult

EMPTY: dict[str, Any] = {"string": "", "integer": 0, "number": 0, "boolean": False, "object": {}, "array": []}


def skeleton(schema: Any) -> dict[str, Any]:
    """Arguments with every property's default, or an empty value of its type."""
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return {}
    out: dict[str, Any] = {}
    for name, prop in schema["properties"].items():
        if isinstance(prop, dict) and "default" in prop:
            out[name] = prop["default"]
        elif isinstance(prop, dict) and isinstance(prop.get("enum"), list) and prop["enum"]:
            out[name] = prop["enum"][0]
        elif isinstance(prop, dict):
            kind = prop.get("type")
            out[name] = EMPTY.get(kind if isinstance(kind, str) else "")
    return out


def parse_arguments(text: str) -> tuple[dict[str, Any] | None, str]:
    """(arguments, "") when ``text`` is a JSON object, else (None, why not)."""
    return parse_object(text, "the arguments")


class JsonComposer(Vertical):
    """Arguments as JSON for ``tool``; ctrl+s or the Call button submits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "call", id="composer.submit", tooltip="Send the call with these arguments"),
    ]

    DEFAULT_CSS = """
    JsonComposer { height: auto; max-height: 100%; }
    JsonComposer TextArea { height: 12; }
    JsonComposer #composer-error { color: $error; height: auto; }
    JsonComposer #composer-ok { color: $success; height: auto; }
    """

    class Submitted(Message):
        """The user sent the call."""

        def __init__(self, tool_name: str, arguments: dict[str, Any]) -> None:
            super().__init__()
            self.tool_name = tool_name
            """The tool (or prompt) to call."""
            self.arguments = arguments
            """Exactly the arguments shown."""

    def __init__(self, tool: dict[str, Any]) -> None:
        super().__init__()
        self.tool = tool
        self.tool_name = str(tool.get("name", ""))

    def compose(self) -> ComposeResult:
        yield Static("arguments (JSON, validated as you type)", markup=False)
        yield TextArea(
            json.dumps(skeleton(self.tool.get("inputSchema")), indent=2),
            id="composer-json",
            soft_wrap=True,
            show_line_numbers=False,
        )
        yield Static("", id="composer-error", markup=False)
        yield Button("Call", id="composer-call", variant="primary")

    def on_mount(self) -> None:
        self.query_one(TextArea).focus()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        _, problem = parse_arguments(event.text_area.text)
        self.query_one("#composer-error", Static).update(problem)
        self.query_one(Button).disabled = bool(problem)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        arguments, problem = parse_arguments(self.query_one(TextArea).text)
        if arguments is None:
            self.query_one("#composer-error", Static).update(problem)
            return
        self.post_message(self.Submitted(self.tool_name, arguments))
