"""``inspector conformance-client URL``: the adapter the official conformance suite drives.

The suite appends its test server's URL and sets ``MCP_CONFORMANCE_SCENARIO``, ``MCP_CONFORMANCE_PROTOCOL_VERSION``
and ``MCP_CONFORMANCE_CONTEXT``. We connect at that version (2026-07-28: stateless; earlier: ``initialize``), list
the tools, call each one (answering elicitations with the schema's defaults, the stub model for sampling), and exit
0 only when every call completed. The suite's own checks judge the wire; we print our timeline to stderr.
"""

from __future__ import annotations

import json
import os
from typing import Any

from rich.console import Console

from inspector.answers.build import build_answer_source
from inspector.cli.run import connect_or_report
from inspector.cli.wiring import build_session
from inspector.headless.render import print_timeline
from inspector.protocol.envelope import LATEST_MODERN, LEGACY_VERSIONS, MODERN_VERSIONS
from inspector.session.session import InspectorSession
from inspector.targets.target import Target


def tool_arguments(tool: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """Arguments for a scenario tool: the context's ``arguments`` when given, else schema defaults or simple values."""
    given = context.get("arguments")
    if isinstance(given, dict) and isinstance(given.get(tool.get("name")), dict):
        return dict(given[tool["name"]])
    schema = tool.get("inputSchema") if isinstance(tool.get("inputSchema"), dict) else {}
    assert isinstance(schema, dict)
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    assert isinstance(properties, dict)
    required = schema.get("required") if isinstance(schema.get("required"), list) else []
    assert isinstance(required, list)
    arguments: dict[str, Any] = {}
    for name, prop in properties.items():
        if not isinstance(prop, dict):
            continue
        if "default" in prop:
            arguments[name] = prop["default"]
        elif name in required or "x-mcp-header" in prop:
            arguments[name] = _sample_value(prop)
    return arguments


def _sample_value(prop: dict[str, Any]) -> Any:
    if isinstance(prop.get("enum"), list) and prop["enum"]:
        return prop["enum"][0]
    kind = prop.get("type")
    return {"integer": 1, "number": 1.5, "boolean": True, "array": [], "object": {}}.get(str(kind), "test")


async def run_conformance(url: str) -> int:
    """Run the scenario against ``url``; returns the exit code."""
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    version = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", LATEST_MODERN)
    try:
        context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT", "{}") or "{}")
    except json.JSONDecodeError:
        context = {}
    console = Console(stderr=True, highlight=False)
    answers = build_answer_source(None, "defaults", True, [])
    target = Target.from_spec(url)
    if version in MODERN_VERSIONS:
        session = build_session(target, answers, era="modern", modern_version=version)
    else:
        offer = version if version in LEGACY_VERSIONS else LEGACY_VERSIONS[-1]
        session = build_session(target, answers, era="legacy", legacy_offer=offer)
    ok = True
    try:
        if not await connect_or_report(session):
            return 3
        ok = await _exercise(session, context)
    finally:
        await session.close()
        console.print(f"scenario {scenario} at {version}")
        print_timeline(console, session.timeline)
    return 0 if ok else 1


async def _exercise(session: InspectorSession, context: dict[str, Any]) -> bool:
    """Call the context's ``toolCalls`` in order when it names them; else every listed tool with default arguments.

    A test server that answers tools/call with -32601 only wants the listing checked (json-schema-ref-no-deref),
    so that error is not a failure of ours; any other error is.
    """
    listed = await session.list_all("tools")
    if not listed.ok or listed.result is None:
        return False
    planned = context.get("toolCalls")
    if isinstance(planned, list) and planned:
        calls = [
            (str(c.get("name")), c.get("arguments") if isinstance(c.get("arguments"), dict) else {})
            for c in planned
            if isinstance(c, dict)
        ]
    else:
        calls = [(str(tool.get("name")), tool_arguments(tool, context)) for tool in listed.result.get("tools", [])]
    ok = True
    for name, arguments in calls:
        outcome = await session.call_tool(name, arguments)
        not_implemented = outcome.status == "error" and (outcome.error or {}).get("code") == -32601
        ok = ok and (outcome.status in ("complete", "tool-error") or not_implemented)
    return ok
