"""The canned flows of ``ScriptedSession``: what its pretend server answers, mirroring the demo server's tools.

Each flow maps (arguments, answers so far by input key) to the result of one round: ``update_work_item`` asks two
questions over three rounds with the resolution carried in requestState, ``get_weather`` asks one, ``heavy_report``
returns about 5 MB, ``add`` adds.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any

from inspector.protocol.jsonrpc import JsonObject

VERSION = "2026-07-28"
CACHE: JsonObject = {"cacheScope": "private", "ttlMs": 0}
Flow = Callable[[JsonObject, dict[str, Any]], JsonObject]
"""(arguments, answers so far by key) -> the result of this round."""


def state_of(data: dict[str, Any]) -> str:
    return base64.b64encode(json.dumps(data, separators=(",", ":")).encode()).decode()


def _form(message: str, prop: str, schema: JsonObject) -> JsonObject:
    return {
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": message,
            "requestedSchema": {"type": "object", "properties": {prop: schema}, "required": [prop]},
        },
    }


def text_result(text: str, *, error: bool = False) -> JsonObject:
    result: JsonObject = {"resultType": "complete", "content": [{"type": "text", "text": text}]}
    if error:
        result["isError"] = True
    return result


def _accepted(answers: dict[str, Any], key: str, field: str) -> Any:
    answer = answers.get(key)
    if isinstance(answer, dict) and answer.get("action") == "accept" and isinstance(answer.get("content"), dict):
        return answer["content"].get(field)
    return None


def update_work_item(args: JsonObject, answers: dict[str, Any]) -> JsonObject:
    """Two questions over three rounds, the resolution carried in requestState."""
    item = args.get("workItemId", 0)
    resolution = _accepted(answers, "resolution", "resolution")
    if resolution is None:
        enum = {"type": "string", "title": "Resolution", "enum": ["Fixed", "Won't Fix", "Duplicate", "By Design"]}
        return {
            "resultType": "input_required",
            "inputRequests": {"resolution": _form(f"How was work item #{item} resolved?", "resolution", enum)},
        }
    duplicate = _accepted(answers, "duplicate_of", "duplicate_of")
    if resolution == "Duplicate" and duplicate is None:
        ask = _form(
            f"Work item #{item} duplicates which item?",
            "duplicate_of",
            {"type": "integer", "title": "Duplicate of", "minimum": 1},
        )
        return {
            "resultType": "input_required",
            "inputRequests": {"duplicate_of": ask},
            "requestState": state_of({"resolution": resolution}),
        }
    suffix = f" of #{duplicate}" if duplicate is not None else ""
    return text_result(f"Work item #{item} resolved as {resolution}{suffix}.")


def get_weather(args: JsonObject, answers: dict[str, Any]) -> JsonObject:
    """One question, then the weather."""
    login = _accepted(answers, "github_login", "name")
    if login is None:
        ask = _form("Please provide your GitHub username", "name", {"type": "string"})
        return {
            "resultType": "input_required",
            "inputRequests": {"github_login": ask},
            "requestState": state_of({"location": args.get("location")}),
        }
    return text_result(f"Weather in {args.get('location')} for @{login}: 22°C, clear skies.")


def heavy_report(args: JsonObject, answers: dict[str, Any]) -> JsonObject:
    """A result of about 5 MB."""
    rows = [{"row": i, "value": f"item-{i:06d}", "ok": i % 3 != 0} for i in range(int(args.get("rows", 100_000)))]
    return {
        "resultType": "complete",
        "content": [{"type": "text", "text": "report"}],
        "structuredContent": {"rows": rows},
    }


def add(args: JsonObject, answers: dict[str, Any]) -> JsonObject:
    """a + b."""
    return text_result(str(int(args.get("a", 0)) + int(args.get("b", 0))))


def _schema(**props: JsonObject) -> JsonObject:
    return {"type": "object", "properties": props, "required": list(props)}


TOOLS: dict[str, tuple[JsonObject, Flow]] = {
    "get_weather": (
        {
            "name": "get_weather",
            "title": "Weather",
            "description": "Weather for a location; asks your GitHub login first.",
            "inputSchema": _schema(location={"type": "string"}),
            "annotations": {"readOnlyHint": True},
        },
        get_weather,
    ),
    "update_work_item": (
        {
            "name": "update_work_item",
            "description": "Resolve a work item (two questions, three rounds).",
            "inputSchema": _schema(workItemId={"type": "integer"}, fields={"type": "object"}),
            "annotations": {"destructiveHint": True},
        },
        update_work_item,
    ),
    "heavy_report": (
        {"name": "heavy_report", "description": "A 5 MB result.", "inputSchema": {"type": "object", "properties": {}}},
        heavy_report,
    ),
    "add": (
        {
            "name": "add",
            "title": "Add",
            "description": "Adds two integers.",
            "inputSchema": _schema(a={"type": "integer"}, b={"type": "integer"}),
            "annotations": {"readOnlyHint": True, "idempotentHint": True},
        },
        add,
    ),
}
HOSTILE_TOOL: JsonObject = {
    "name": "[bold red]x",
    "description": "[link=https://evil.example]click[/link] \x1b[2J\x1b[31mred",
    "inputSchema": {"type": "object"},
}
