"""A tool result that tells two stories (seed 004, "Tool Result"): the spec asks a server to put structured output in
``structuredContent`` and, for older clients, its JSON serialization in a text block too; made by two code paths,
the two drift apart, and the program reads 22.5 while the model is told 23. Checked as the builder applies a
``tools/call`` result, so a replay says the same.
"""

from __future__ import annotations

import json
from typing import Any, Final

from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.sanitize import one_line
from inspector.timeline.build.state import BuildState
from inspector.timeline.model import Call, Round

SHOWN: Final = 3
"""Differences named in the finding (the rest counted)."""
ABSENT: Final = object()


def check(state: BuildState, call: Call, round_: Round, result: JsonObject) -> None:
    """An ``info`` finding when a text block of the result is a JSON serialization of its ``structuredContent`` and
    the two disagree, with both values side by side."""
    if "structuredContent" not in result or not isinstance(result.get("content"), list):
        return
    structured = result["structuredContent"]
    for position, block in enumerate(result["content"]):
        if not isinstance(block, dict) or block.get("type") != "text" or not isinstance(block.get("text"), str):
            continue
        told = serialization_of(block["text"], structured)
        if told is ABSENT:
            continue
        differences = disagreements(structured, told)
        if differences:
            shown = "; ".join(differences[:SHOWN])
            more = f" (+{len(differences) - SHOWN} more)" if len(differences) > SHOWN else ""
            message = f"content[{position}].text and structuredContent disagree: {shown}{more}"
            state.on_round("two-stories", message, call, round_)
        return  # (the first serialization is the one a client shows the model)


def serialization_of(text: str, structured: Any) -> Any:
    """The JSON value ``text`` holds, when it reads as a serialization of ``structured`` (the same kind of value;
    an object sharing at least half of its keys, an array of the same length); else ``ABSENT``."""
    if not text.lstrip().startswith(("{", "[")):
        return ABSENT
    try:
        told = json.loads(text)
    except ValueError:
        return ABSENT
    if isinstance(told, dict) and isinstance(structured, dict):
        union = told.keys() | structured.keys()
        return told if union and 2 * len(told.keys() & structured.keys()) >= len(union) else ABSENT
    if isinstance(told, list) and isinstance(structured, list) and len(told) == len(structured):
        return told
    return ABSENT


def disagreements(structured: Any, told: Any, path: str = "") -> list[str]:
    """Where the two differ: ``temperature: structuredContent 22.5, text 23`` (a path per difference; a value a
    side lacks is ``(none)``)."""
    if isinstance(structured, dict) and isinstance(told, dict):
        found: list[str] = []
        for key in [*structured, *(k for k in told if k not in structured)]:
            found.extend(disagreements(structured.get(key, ABSENT), told.get(key, ABSENT), _join(path, key)))
        return found
    if isinstance(structured, list) and isinstance(told, list) and len(structured) == len(told):
        return [
            d
            for i, (a, b) in enumerate(zip(structured, told, strict=True))
            for d in disagreements(a, b, f"{path}[{i}]")
        ]
    if _same(structured, told):
        return []
    return [f"{path or '(the value)'}: structuredContent {_said(structured)}, text {_said(told)}"]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b  # (true is not 1 in JSON, though Python says it equals 1)
    return bool(a == b)  # (1 and 1.0 are one JSON number)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _said(value: Any) -> str:
    if value is ABSENT:
        return "(none)"
    return one_line(json.dumps(value, ensure_ascii=False), 60)
