"""Every flow of the bundled demo server, run headless: what ``inspector demo --headless`` prints."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from inspector.session.session import InspectorSession
from inspector.timeline.outcome import Outcome

DEMO_FLOWS: list[tuple[str, str, dict[str, Any]]] = [
    ("tool", "add", {"a": 2, "b": 3}),
    ("tool", "get_weather", {"location": "New York"}),
    ("tool", "update_work_item", {"workItemId": 4522, "fields": {"System.State": "Resolved"}}),
    ("tool", "ask_capital", {}),
    ("tool", "rolling_login", {}),
    ("tool", "heavy_report", {}),
    ("tool", "show_roots", {}),
    ("tool", "book_meeting", {}),
    ("tool", "open_dashboard", {}),
    ("tool", "slow_count", {"n": 5}),
    ("prompt", "code_review", {"code": "def add(a, b): return a + b"}),
    ("resource", "demo://report", {}),
    ("tool", "deploy_release", {"version": "1.2"}),
    ("tool", "nightly_build", {}),
]
"""(kind, name or URI, arguments) for each demo flow, in the order the README tells the story; where SEP-2322 gives
an example (get_weather in New York, Bug #4522), its arguments."""


def example_answers_path() -> Path:
    """The example answers file shipped with the demo (answers every key the demo asks)."""
    return Path(str(files("inspector.demo").joinpath("answers.json")))


async def run_demo_flows(session: InspectorSession) -> list[Outcome]:
    """List the catalog, then run every flow in turn; returns each flow's outcome."""
    await session.list_all("tools")
    await session.list_all("prompts")
    await session.list_all("resources")
    outcomes: list[Outcome] = []
    for kind, name, args in DEMO_FLOWS:
        if kind == "tool":
            outcomes.append(await session.call_tool(name, args))
        elif kind == "prompt":
            outcomes.append(await session.get_prompt(name, {k: str(v) for k, v in args.items()}))
        else:
            outcomes.append(await session.read_resource(name))
    return outcomes
