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
        return None, f"{what} must be a JSON object, not {_json_type(value)}"
    return value, ""


def _json_type(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "null" if value is None else type(value).__name__
