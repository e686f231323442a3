"""A tools/list as a client must read it: over HTTP, a tool whose ``x-mcp-header`` is invalid is left out of the
list (SEP-2243), and each one left out is a finding that says why."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.protocol.headers import x_mcp_header_problems
from inspector.session import findings as lint

if TYPE_CHECKING:
    from inspector.protocol.jsonrpc import JsonObject
    from inspector.session.timeline import Finding


def admit_tools(tools: list[JsonObject], *, http: bool, call: int) -> tuple[list[JsonObject], list[Finding]]:
    """The tools a client may offer, and a finding for each left out (the headers only matter over HTTP)."""
    admitted: list[JsonObject] = []
    left_out: list[Finding] = []
    for tool in tools:
        schema = tool.get("inputSchema")
        problems = x_mcp_header_problems(schema) if isinstance(schema, dict) and http else []
        if not problems:
            admitted.append(tool)
            continue
        left_out.append(
            lint.make(
                "invalid-x-mcp-header",
                f"tool {tool.get('name')!r} left out: {'; '.join(problems)}",
                call=call,
                hint="Tools with an invalid x-mcp-header MUST be excluded from the tool list (SEP-2243).",
            )
        )
    return admitted, left_out
