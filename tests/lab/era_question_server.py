"""A dual-era server whose one tool asks a different question in each era: the fault ``lab eras`` must not paper
over by sending the modern answer to the legacy question. Stdio, on the demo's era helpers.

``sign_in`` asks who you are: in 2026-07-28 under the key ``login`` for a ``name``; in the legacy era, as a
server-to-client ``elicitation/create``, for a ``username`` (another ``requestedSchema``). Either way it answers
``signed in as <the name given>``.

  python era_question_server.py    stdio
"""

from __future__ import annotations

from typing import Any, Final

from mcp.server.mcpserver import MCPServer
from mcp_types import InputRequiredResult

from inspector.demo.era_vocabulary import (
    DemoContext,
    elicit_answer,
    form_request,
    input_required,
    is_modern,
    legacy_elicit,
)

MESSAGE: Final = "Who are you?"
MODERN_SCHEMA: Final = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
LEGACY_SCHEMA: Final = {"type": "object", "properties": {"username": {"type": "string"}}, "required": ["username"]}


async def sign_in(ctx: DemoContext) -> str | InputRequiredResult:
    """Sign in: asks a name (a username in the legacy era)."""
    if is_modern(ctx):
        answer = elicit_answer(ctx, "login")
        if answer is None:
            return input_required({"login": form_request(MESSAGE, MODERN_SCHEMA)})
        field = "name"
    else:
        answer = await legacy_elicit(ctx, form_request(MESSAGE, LEGACY_SCHEMA))
        field = "username"
    if answer.action != "accept" or answer.content is None:
        return f"not signed in ({answer.action})"
    return f"signed in as {answer.content.get(field)}"


def build() -> MCPServer[Any]:
    server: MCPServer[Any] = MCPServer("era-question-server", log_level="WARNING")
    server.add_tool(sign_in)
    return server


if __name__ == "__main__":
    build().run("stdio")
