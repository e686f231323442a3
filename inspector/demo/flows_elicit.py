"""Tools whose flows ask the user through elicitation (form and URL mode), in both protocol eras.

Every tool reads top to bottom the same way in both eras: the request objects are built once; the 2026-07-28
branch returns them as `input_required` and picks the answers up on the retry, while the legacy branch sends the
same requests as server-to-client calls and awaits them.
"""

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ElicitResult, InputRequiredResult

from inspector.demo.era_vocabulary import (
    DemoContext,
    decode_state,
    elicit,
    elicit_answer,
    form_request,
    input_required,
    is_modern,
    legacy_elicit,
    require_elicitation,
    url_request,
)
from inspector.demo.schemas import (
    ACCOUNT_EMAIL_SCHEMA,
    DUPLICATE_OF_SCHEMA,
    GITHUB_LOGIN_MESSAGE,
    GITHUB_LOGIN_SCHEMA,
    GOOGLE_LOGIN_MESSAGE,
    MEETING_MESSAGE,
    MEETING_SCHEMA,
    MICROSOFT_LOGIN_MESSAGE,
    RESOLUTION_SCHEMA,
    RESOLUTIONS,
)
from inspector.protocol.json_values import json_number

DASHBOARD_URL = "https://dashboard.example.com/connect?session=demo"
DASHBOARD_MESSAGE = "Connect the demo dashboard in your browser, then come back here"


def _field(answer: ElicitResult | None, name: str) -> Any:
    """One field of an accepted form answer (None when absent or not accepted)."""
    if answer is None or answer.action != "accept" or answer.content is None:
        return None
    return answer.content.get(name)


def _refused(answer: ElicitResult | None) -> str | None:
    """Return "declined" or "cancelled" when the user did not accept, else None."""
    if answer is None or answer.action == "accept":
        return None
    return "declined" if answer.action == "decline" else "cancelled"


async def get_weather(location: str, ctx: DemoContext) -> str | InputRequiredResult:
    """Weather for a location; first asks who you are on GitHub (the spec's MRTR example)."""
    require_elicitation(ctx)
    ask_login = form_request(GITHUB_LOGIN_MESSAGE, GITHUB_LOGIN_SCHEMA)
    if is_modern(ctx):
        answer = elicit_answer(ctx, "github_login")
        if answer is None or (answer.action == "accept" and not _field(answer, "name")):
            # First round, or an accept without the required field: (re-)ask instead of failing (SEP-2322).
            return input_required({"github_login": ask_login}, state={"location": location})
        location = str(decode_state(ctx).get("location", location))
    else:
        answer = await legacy_elicit(ctx, ask_login)
    if (refused := _refused(answer)) is not None:
        return f"Nothing was changed: the GitHub login request was {refused}."
    return f"Current weather in {location}:\nTemperature: 72°F\nConditions: Partly cloudy"


async def update_work_item(workItemId: int, fields: dict[str, Any], ctx: DemoContext) -> str | InputRequiredResult:
    """Resolve an Azure DevOps work item (SEP-2322's two-round example): asks the resolution, then a duplicate id."""
    require_elicitation(ctx)
    ask_resolution = form_request(
        f"Resolving Bug #{workItemId} requires a resolution. How was this bug resolved?", RESOLUTION_SCHEMA
    )
    ask_duplicate = form_request("Since this is a duplicate, which work item is the original?", DUPLICATE_OF_SCHEMA)
    if is_modern(ctx):
        resolution = decode_state(ctx).get("resolution")
        if resolution is None:
            answer = elicit_answer(ctx, "resolution")
            if (refused := _refused(answer)) is not None:
                return _unchanged(workItemId, refused)
            resolution = _field(answer, "resolution")
            if resolution not in RESOLUTIONS:
                return input_required({"resolution": ask_resolution})
        if resolution != "Duplicate":
            return _resolved(workItemId, resolution, fields, None)
        duplicate = elicit_answer(ctx, "duplicate_of")
        if (refused := _refused(duplicate)) is not None:
            return _unchanged(workItemId, refused)
        duplicate_of = _work_item_id(_field(duplicate, "duplicateOfId"))
        if duplicate_of is None:
            # Round two asks only the duplicate id: the resolution must ride in requestState to survive.
            return input_required({"duplicate_of": ask_duplicate}, state={"resolution": resolution})
        return _resolved(workItemId, resolution, fields, duplicate_of)

    answer = await legacy_elicit(ctx, ask_resolution)
    if (refused := _refused(answer)) is not None:
        return _unchanged(workItemId, refused)
    resolution = _field(answer, "resolution")
    if resolution not in RESOLUTIONS:
        raise ToolError(f"resolution must be one of {', '.join(RESOLUTIONS)}")
    if resolution != "Duplicate":
        return _resolved(workItemId, resolution, fields, None)
    duplicate = await legacy_elicit(ctx, ask_duplicate)
    if (refused := _refused(duplicate)) is not None:
        return _unchanged(workItemId, refused)
    return _resolved(workItemId, resolution, fields, _work_item_id(_field(duplicate, "duplicateOfId")))


def _work_item_id(value: object) -> int | None:
    """A work item id from the form (the SEP's schema says ``number``: 4301 or 4301.0), else None."""
    number = json_number(value)
    if number is None or number != int(number) or number < 1:
        return None
    return int(number)


def _unchanged(work_item_id: int, refused: str) -> str:
    return f"Nothing was changed: Bug #{work_item_id} stays open (the question was {refused})."


def _resolved(work_item_id: int, resolution: str, fields: dict[str, Any], duplicate_of: int | None) -> str:
    """The SEP's closing sentence ("Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and
    duplicate link created."), and its like for the other resolutions."""
    state = f"State set to {fields.get('System.State', 'Resolved')}"
    if duplicate_of is not None:
        return f"Bug #{work_item_id} resolved as Duplicate of Bug #{duplicate_of}. {state} and duplicate link created."
    return f"Bug #{work_item_id} resolved as {resolution}. {state}."


async def rolling_login(ctx: DemoContext) -> str | InputRequiredResult:
    """Sign in to three providers: GitHub and Google together, then Microsoft, carrying round one in requestState."""
    require_elicitation(ctx)
    ask_github = form_request(GITHUB_LOGIN_MESSAGE, GITHUB_LOGIN_SCHEMA)
    ask_google = form_request(GOOGLE_LOGIN_MESSAGE, ACCOUNT_EMAIL_SCHEMA)
    ask_microsoft = form_request(MICROSOFT_LOGIN_MESSAGE, ACCOUNT_EMAIL_SCHEMA)
    if is_modern(ctx):
        state = decode_state(ctx)
        if "github" not in state:
            github_answer, google_answer = elicit_answer(ctx, "github_login"), elicit_answer(ctx, "google_login")
            if github_answer is None or google_answer is None:
                return input_required({"github_login": ask_github, "google_login": ask_google})
            # Round two asks only Microsoft: whichever server instance answers the retry learns round one's
            # answers from requestState alone (the rolling-upgrade story), never from memory.
            state = {"github": _field(github_answer, "name"), "google": _field(google_answer, "email")}
        microsoft_answer = elicit_answer(ctx, "microsoft_login")
        if microsoft_answer is None:
            return input_required({"microsoft_login": ask_microsoft}, state=state)
        github, google, microsoft = state.get("github"), state.get("google"), _field(microsoft_answer, "email")
    else:
        github = _field(await legacy_elicit(ctx, ask_github), "name")
        google = _field(await legacy_elicit(ctx, ask_google), "email")
        microsoft = _field(await legacy_elicit(ctx, ask_microsoft), "email")
    return f"Signed in: GitHub @{github or '-'}, Google {google or '-'}, Microsoft {microsoft or '-'}."


async def book_meeting(ctx: DemoContext) -> str | InputRequiredResult:
    """Book a meeting through one form that uses every requestedSchema field type."""
    require_elicitation(ctx)
    answer = await elicit(ctx, "meeting", form_request(MEETING_MESSAGE, MEETING_SCHEMA))
    if isinstance(answer, InputRequiredResult):
        return answer
    if (refused := _refused(answer)) is not None:
        return f"No meeting was booked (the form was {refused})."
    content = answer.content or {}
    details = ", ".join(f"{key}={content[key]!r}" for key in sorted(content))
    return f"Meeting booked: {details}."


async def open_dashboard(ctx: DemoContext) -> str | InputRequiredResult:
    """Connect a dashboard through a URL-mode elicitation (the browser step happens out of band)."""
    require_elicitation(ctx, mode="url")
    answer = await elicit(ctx, "dashboard", url_request(DASHBOARD_MESSAGE, DASHBOARD_URL))
    if isinstance(answer, InputRequiredResult):
        return answer
    if (refused := _refused(answer)) is not None:
        return f"Dashboard not connected (the link was {refused})."
    return f"Dashboard connected via {DASHBOARD_URL}."


def register(server: MCPServer[Any]) -> None:
    """Add the elicitation tools to `server`."""
    for tool in (get_weather, update_work_item, rolling_login, book_meeting, open_dashboard):
        server.add_tool(tool)
