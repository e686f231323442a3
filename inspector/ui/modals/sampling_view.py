"""A ``sampling/createMessage`` request as readable text: messages (every content block kind), system prompt,
model preferences, limits and tools. Everything the server wrote is shown literally through ``safe_text``.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

from rich.text import Text

from inspector.ui.safe_text import safe, safe_line

if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_JSON: Final = 2000
"""Tool inputs and structured content longer than this are cut (the detail pane shows the full request)."""

LABEL: Final = "bold"
MUTED: Final = "dim"


def request_text(params: Mapping[str, Any]) -> Text:
    """The whole request: the messages (what the reply answers), the system prompt, then the settings a reply must
    respect. The messages come first: at 80x24 the box shows three lines, and with the system prompt first they
    showed it alone, the question itself below the fold."""
    text = Text()
    messages = params.get("messages")
    for index, message in enumerate(messages if isinstance(messages, list) else []):
        if index:
            text.append("\n")
        _message(text, message)
    text.append("\n")
    system = params.get("systemPrompt")
    if isinstance(system, str) and system:
        text.append("System prompt\n", style=LABEL)
        text.append_text(safe(system))
        text.append("\n\n")
    _settings(text, params)
    return text


def _message(text: Text, message: object) -> None:
    if not isinstance(message, dict):
        text.append_text(safe_line(f"(not a message: {_json(message)})", MUTED))
        text.append("\n")
        return
    role = message.get("role")
    text.append_text(safe_line(f"{role if isinstance(role, str) else '?'}", "bold reverse"))
    text.append("\n")
    content = message.get("content")
    for block in content if isinstance(content, list) else [content]:
        block_text(text, block)


def block_text(text: Text, block: object, indent: str = "") -> None:
    """Append one content block: text as is; image/audio as type, MIME type and size; tool use/result in full."""
    if not isinstance(block, dict):
        text.append(f"{indent}(not a content block)\n", style=MUTED)
        return
    kind = block.get("type")
    if kind == "text":
        body = block.get("text")
        text.append_text(safe(f"{indent}{body if isinstance(body, str) else ''}"))
        text.append("\n")
    elif kind in ("image", "audio"):
        data = block.get("data")
        size = len(data) * 3 // 4 if isinstance(data, str) else 0
        mime = block.get("mimeType")
        text.append_text(safe_line(f"{indent}[{kind}] {mime if isinstance(mime, str) else '?'}, ~{size} bytes", MUTED))
        text.append("\n")
    elif kind == "tool_use":
        text.append(f"{indent}[tool_use] ", style=MUTED)
        text.append_text(safe_line(str(block.get("name", "?")), LABEL))
        text.append_text(safe_line(f"  id {block.get('id', '?')}", MUTED))
        text.append("\n")
        text.append_text(safe(f"{indent}  {_json(block.get('input', {}))}"))
        text.append("\n")
    elif kind == "tool_result":
        error = "  (error)" if block.get("isError") is True else ""
        text.append_text(safe_line(f"{indent}[tool_result] for {block.get('toolUseId', '?')}{error}", MUTED))
        text.append("\n")
        inner = block.get("content")
        for item in inner if isinstance(inner, list) else []:
            block_text(text, item, indent + "  ")
        if "structuredContent" in block:
            text.append_text(safe(f"{indent}  structured: {_json(block['structuredContent'])}"))
            text.append("\n")
    else:
        text.append_text(safe_line(f"{indent}[{kind if isinstance(kind, str) else '?'}] {_json(block)}", MUTED))
        text.append("\n")


def _settings(text: Text, params: Mapping[str, Any]) -> None:
    rows: list[tuple[str, str]] = [("maxTokens", _json(params.get("maxTokens", "(missing)")))]
    preferences = params.get("modelPreferences")
    if isinstance(preferences, dict):
        hints = preferences.get("hints")
        names = [h.get("name") for h in hints if isinstance(h, dict)] if isinstance(hints, list) else []
        if names:
            rows.append(("model hints", ", ".join(str(name) for name in names)))
        priorities = [
            f"{label} {preferences[key]}"
            for key, label in (
                ("costPriority", "cost"),
                ("speedPriority", "speed"),
                ("intelligencePriority", "intelligence"),
            )
            if key in preferences
        ]
        if priorities:
            rows.append(("priorities", " · ".join(priorities)))
    for key in ("temperature", "stopSequences", "includeContext", "toolChoice", "metadata"):
        if key in params:
            rows.append((key, _json(params[key])))
    tools = params.get("tools")
    for tool in tools if isinstance(tools, list) else []:
        name = tool.get("name", "?") if isinstance(tool, dict) else "?"
        description = tool.get("description", "") if isinstance(tool, dict) else ""
        rows.append(("tool", f"{name}: {description}" if description else str(name)))
    for label, value in rows:
        text.append(f"{label:<13}", style=LABEL)
        text.append_text(safe(value))
        text.append("\n")
    text.rstrip()


def _json(value: object) -> str:
    if isinstance(value, str):
        return value
    dumped = json.dumps(value, ensure_ascii=False)
    return dumped if len(dumped) <= MAX_JSON else dumped[: MAX_JSON - 1] + "…"
