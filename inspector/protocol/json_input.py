"""JSON a person typed (``--args``, the composer's JSON box, the answers editor): an object, or why it is not one."""

from __future__ import annotations

import json
from typing import Any


def parse_object(text: str | None, what: str) -> tuple[dict[str, Any] | None, str]:
    """``(value, "")`` when ``text`` is a JSON object (empty text is ``{}``), else ``(None, why not)``, where the
    reason names ``what`` ("--args", "the arguments")."""
    try:
        value = json.loads(text or "{}")
    except (ValueError, RecursionError) as exc:
        return None, f"{what} is not JSON: {exc}"
    if not isinstance(value, dict):
        return None, f"{what} must be a JSON object, not {a_json_type(value)}"
    return value, ""


def json_type(value: Any) -> str:
    """The JSON type of a parsed value, as a message says it: ``null``, ``boolean``, ``number``, ``string``,
    ``array``, ``object`` (a Python type's name for anything else)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else type(value).__name__


def a_json_type(value: Any) -> str:
    """``json_type`` with its article, for a sentence: "an array", "a string", "null"."""
    kind = json_type(value)
    return kind if kind == "null" else f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"
