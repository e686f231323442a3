"""MRTR outside tools: a prompt and a resource that both ask before they answer (2026-07-28 allows
`input_required` on `prompts/get` and `resources/read` too).

MCPServer passes an `InputRequiredResult` through for prompts and for *template* resources only: a static
resource's function gets no Context and may not return one. So the report is registered as the template
`demo://report{?section}`, whose optional query variable lets the plain URI `demo://report` match it. It is
therefore listed by `resources/templates/list`, not `resources/list`; the static `demo://about` keeps that
list from being empty.
"""

from typing import Any, Final

from mcp.server.mcpserver import AssistantMessage, MCPServer, Message, UserMessage
from mcp_types import ElicitResult, InputRequiredResult

from inspector.demo.era_vocabulary import (
    DemoContext,
    elicit,
    form_request,
    require_elicitation,
)
from inspector.demo.schemas import CONFIRM_SCHEMA, LANGUAGE_SCHEMA

REPORT_URI: Final = "demo://report"
REPORT_TEMPLATE: Final = "demo://report{?section}"
ABOUT_URI: Final = "demo://about"
LANGUAGE_MESSAGE: Final = "Which language is this code written in?"
CONFIRM_MESSAGE: Final = "Generating the report takes a while. Go ahead?"


async def _ask(ctx: DemoContext, key: str, message: str, schema: dict[str, Any]) -> ElicitResult | InputRequiredResult:
    """Ask one form question in either era: the answer, or (2026-07-28, first round) the input_required."""
    require_elicitation(ctx)
    return await elicit(ctx, key, form_request(message, schema))


async def code_review(code: str, ctx: DemoContext) -> list[Message] | InputRequiredResult:
    """Review a piece of code; first asks which language it is in."""
    answer = await _ask(ctx, "language", LANGUAGE_MESSAGE, LANGUAGE_SCHEMA)
    if isinstance(answer, InputRequiredResult):
        return answer
    language = str((answer.content or {}).get("language", "")) if answer.action == "accept" else ""
    language = language or "unknown"
    return [
        UserMessage(f"Please review this {language} code for bugs, naming and style:\n\n```{language}\n{code}\n```"),
        AssistantMessage(f"Sure. I will review it as {language} and list issues from most to least severe."),
    ]


async def report(ctx: DemoContext, section: str = "summary") -> str | InputRequiredResult:
    """The quarterly report; asks for confirmation before it is generated."""
    answer = await _ask(ctx, "confirm", CONFIRM_MESSAGE, CONFIRM_SCHEMA)
    if isinstance(answer, InputRequiredResult):
        return answer
    if answer.action != "accept" or not (answer.content or {}).get("confirm"):
        return "# Quarterly report\n\nNot generated: the confirmation was not given."
    return (
        f"# Quarterly report ({section})\n\n"
        "- Revenue: 1.2M (+8%)\n- Active users: 48,200 (+12%)\n- Incidents: 2 (both resolved)\n"
    )


def about() -> str:
    """What this demo server offers (a plain static resource: no input needed)."""
    return (
        "# inspector demo server\n\n"
        "Tools: get_weather, update_work_item, ask_capital, rolling_login, heavy_report, show_roots,\n"
        "book_meeting, open_dashboard, slow_count, add. Prompt: code_review. Resource: demo://report.\n"
    )


def register(server: MCPServer[Any]) -> None:
    """Add the `code_review` prompt and the `demo://report` and `demo://about` resources to `server`."""
    server.prompt(title="Code review", description="Review code after asking its language")(code_review)
    server.resource(
        REPORT_TEMPLATE,
        name="report",
        title="Quarterly report",
        description=f"Read {REPORT_URI}: asks for confirmation (input_required) before it answers",
        mime_type="text/markdown",
    )(report)
    server.resource(ABOUT_URI, name="about", title="About this demo", mime_type="text/markdown")(about)
