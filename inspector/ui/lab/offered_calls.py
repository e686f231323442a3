"""Which calls the Lab screen offers, and which are ticked at first.

The session's own calls come first (each made again with its params, its first run answered the way the session
answered it), then the target's suggestions (the demo's flows), then every catalog tool with no required argument
(called with ``{}``). A call is offered once. Calls the person made, and the suggestions, are ticked; a catalog
tool is not: the lab calls each call many times, and a tool nobody called yet may do something nobody wants done
ten times.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from inspector.lab.lab_calls import LabCall, tool_call
from inspector.protocol.methods import INPUT_REQUIRED_METHODS
from inspector.ui.lab_port import LabChoice
from inspector.ui.safe_text import one_line

if TYPE_CHECKING:
    from inspector.timeline.model import Timeline


def _key(choice: LabChoice) -> str:
    return choice.call.method + " " + json.dumps(choice.call.params, sort_keys=True, default=str)


def session_calls(timeline: Timeline) -> list[LabChoice]:
    """Every ended call of the session the lab can make again, in the order made."""
    found: list[LabChoice] = []
    for call in timeline.calls:
        if call.method in INPUT_REQUIRED_METHODS and call.ended:  # the calls a user can send again
            found.append(LabChoice(LabCall(call.method, dict(call.params), call), "session"))
    return found


def catalog_calls(tools: Iterable[dict[str, Any]]) -> list[LabChoice]:
    """A ``tools/call`` with ``{}`` for each listed tool that requires no argument."""
    found: list[LabChoice] = []
    for tool in tools:
        name = tool.get("name")
        schema = tool.get("inputSchema")
        required = schema.get("required") if isinstance(schema, dict) else None
        if isinstance(name, str) and not required:
            found.append(LabChoice(tool_call(name, {}), "catalog"))
    return found


def offered(
    timeline: Timeline, suggested: Iterable[LabChoice], tools: Iterable[dict[str, Any]]
) -> list[tuple[LabChoice, bool]]:
    """Each call offered once, with whether it is ticked at first."""
    seen: set[str] = set()
    out: list[tuple[LabChoice, bool]] = []
    for choice in [*session_calls(timeline), *suggested, *catalog_calls(tools)]:
        key = _key(choice)
        if key in seen:
            continue
        seen.add(key)
        out.append((choice, choice.source != "catalog"))
    return out


def describe(choice: LabChoice, width: int = 60) -> str:
    """One line for the list: the tool (or the method and name) and its arguments in short, then where it came
    from: ``#N`` for a call of this session, ``(catalog)`` for a catalog tool called with ``{}``."""
    call = choice.call
    arguments = call.params.get("arguments")
    args = json.dumps(arguments, separators=(",", ":"), default=str) if arguments else ""
    text = f"{call.name} {args}".strip() if call.method == "tools/call" else call.label
    text = one_line(text, None)
    where = {"session": f"#{call.recorded.index}" if call.recorded else "", "suggested": "", "catalog": "(catalog)"}
    tail = where[choice.source]
    room = max(width - len(tail) - 1, 8)
    if len(text) > room:
        text = text[: room - 1] + "…"
    return f"{text} {tail}".rstrip()
