"""Every demo flow, driven over stdio by the official SDK client, in both protocol eras.

`modern` lands on 2026-07-28 (server/discover, MRTR rounds driven by the SDK's input-required loop);
`legacy` forces `initialize` at 2025-11-25, where the same flows arrive as server-to-client requests.
"""

from __future__ import annotations

from typing import Literal

import pytest
import sep_examples as sep
from demo_support import ERAS, MEETING_ANSWER, Answerer, demo_client, text_of
from mcp.shared.exceptions import MCPError
from mcp_types import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ElicitResult,
    InputRequiredResult,
    InputResponses,
    TextResourceContents,
)

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

EXPECTED_TOOLS = {
    "get_weather",
    "update_work_item",
    "ask_capital",
    "rolling_login",
    "heavy_report",
    "show_roots",
    "book_meeting",
    "open_dashboard",
    "slow_count",
    "add",
    "deploy_release",
    "nightly_build",
}


@pytest.mark.parametrize("era", ERAS)
async def test_elicitation_flows(era: str) -> None:
    answerer = Answerer()
    async with demo_client(era, answerer) as client:
        assert client.server_info is not None and client.server_info.name == "inspector-demo"
        assert {tool.name for tool in (await client.list_tools()).tools} == EXPECTED_TOOLS

        weather = await client.call_tool("get_weather", {"location": "New York"})
        assert not weather.is_error
        assert text_of(weather) == "Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy"

        work_item = await client.call_tool("update_work_item", sep.WORK_ITEM_CALL["arguments"])
        assert text_of(work_item) == (
            "Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created."
        )

        login = await client.call_tool("rolling_login", {})
        assert text_of(login) == (
            "Signed in: GitHub @octocat, Google octocat@google.example, Microsoft octocat@microsoft.example."
        )

        meeting = await client.call_tool("book_meeting", {})
        assert "Meeting booked" in text_of(meeting)
        assert all(f"{key}=" in text_of(meeting) for key in MEETING_ANSWER)

        dashboard = await client.call_tool("open_dashboard", {})
        assert text_of(dashboard) == "Dashboard connected via https://dashboard.example.com/connect?session=demo."

    if era == "modern":
        # One key per input request, exactly as the spec's examples name them; round by round.
        assert answerer.keys[:3] == ["github_login", "resolution", "duplicate_of"]
        assert sorted(answerer.keys[3:5]) == ["github_login", "google_login"]  # one round, answered concurrently
        assert answerer.keys[5:] == ["microsoft_login", "meeting", "dashboard"]
    url_asks = [ask for ask in answerer.asked if ask.get("mode") == "url"]
    assert url_asks and url_asks[0]["url"] == "https://dashboard.example.com/connect?session=demo"
    if era == "modern":
        assert "elicitationId" not in url_asks[0]  # 2026-07-28 dropped it
    else:
        assert url_asks[0]["elicitationId"]  # 2025-11-25 requires it


@pytest.mark.parametrize("era", ERAS)
async def test_sampling_roots_load_shedding_progress_and_plain(era: str) -> None:
    answerer = Answerer()
    async with demo_client(era, answerer) as client:
        capital = await client.call_tool("ask_capital", {})
        assert text_of(capital) == "The model (claude-3-sonnet-20240307) says: The capital of France is Paris."
        assert answerer.asked[-1] == sep.CAPITAL_REQUEST["params"]  # the SEP's request, preferences and all

        roots = await client.call_tool("show_roots", {})
        assert "2 root(s)" in text_of(roots) and "file:///work/project" in text_of(roots)

        heavy = await client.call_tool("heavy_report", {})
        assert text_of(heavy).startswith("Heavy report ready")
        if era == "modern":
            assert "resumed from ticket heavy-report-1" in text_of(heavy)

        seen: list[tuple[float, float | None]] = []

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            seen.append((progress, total))

        counted = await client.call_tool("slow_count", {"n": 5}, progress_callback=on_progress)
        assert text_of(counted) == "Counted to 5."
        assert seen == [(float(step), 5.0) for step in range(1, 6)]

        added = await client.call_tool("add", {"a": 2, "b": 40})
        assert added.structured_content == {"result": 42}

    if era == "modern":
        assert answerer.keys == ["capital_of_france", "roots"]


@pytest.mark.parametrize("era", ERAS)
async def test_prompt_and_resource_ask_first(era: str) -> None:
    answerer = Answerer()
    async with demo_client(era, answerer) as client:
        prompt = await client.get_prompt("code_review", {"code": "fn main() {}"})
        assert [message.role for message in prompt.messages] == ["user", "assistant"]
        first = prompt.messages[0].content
        assert getattr(first, "text", "").startswith("Please review this rust code")

        report = await client.read_resource("demo://report")
        contents = report.contents[0]
        assert isinstance(contents, TextResourceContents)
        assert contents.uri == "demo://report" and "Revenue" in contents.text

        about = await client.read_resource("demo://about")
        assert "code_review" in getattr(about.contents[0], "text", "")
    if era == "modern":
        assert answerer.keys == ["language", "confirm"]


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_refusing_changes_nothing(era: str, action: Literal["decline", "cancel"]) -> None:
    answerer = Answerer(action=action)
    async with demo_client(era, answerer) as client:
        work_item = await client.call_tool("update_work_item", {"workItemId": 7, "fields": {}})
        assert text_of(work_item).startswith("Nothing was changed")
        weather = await client.call_tool("get_weather", {"location": "Oslo"})
        assert text_of(weather).startswith("Nothing was changed")


@pytest.mark.parametrize("era", ERAS)
async def test_work_item_without_duplicate_completes_after_one_question(era: str) -> None:
    answerer = Answerer(resolution="Won't Fix")
    async with demo_client(era, answerer) as client:
        work_item = await client.call_tool("update_work_item", {"workItemId": 9, "fields": {"title": "x"}})
    assert text_of(work_item) == "Bug #9 resolved as Won't Fix. State set to Resolved."
    assert len(answerer.asked) == 1


async def test_modern_rounds_driven_by_hand() -> None:
    """Drive update_work_item round by round: two input_required rounds, exact keys, sealed requestState."""
    answerer = Answerer()
    async with demo_client("modern", answerer) as client:
        arguments = {"workItemId": 4300, "fields": {}}
        first = await client.session.call_tool("update_work_item", arguments, allow_input_required=True)
        assert isinstance(first, InputRequiredResult)
        assert list(first.input_requests or {}) == ["resolution"]
        assert first.request_state is None  # round one has nothing to carry

        answer: InputResponses = {"resolution": ElicitResult(action="accept", content={"resolution": "Duplicate"})}
        second = await client.session.call_tool(
            "update_work_item", arguments, input_responses=answer, allow_input_required=True
        )
        assert isinstance(second, InputRequiredResult)
        assert list(second.input_requests or {}) == ["duplicate_of"]
        # MCPServer seals the handler's plaintext state (AES-GCM) at the wire boundary.
        assert second.request_state is not None and second.request_state.startswith("v1.")

        duplicate: InputResponses = {"duplicate_of": ElicitResult(action="accept", content={"duplicateOfId": 4301})}
        final = await client.session.call_tool(
            "update_work_item",
            arguments,
            input_responses=duplicate,
            request_state=second.request_state,
            allow_input_required=True,
        )
        assert not isinstance(final, InputRequiredResult)
        assert "Duplicate of Bug #4301" in text_of(final)


async def test_modern_missing_capability_is_32021() -> None:
    async with demo_client("modern", callbacks=False) as client:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("ask_capital", {})
    assert raised.value.error.code == MISSING_REQUIRED_CLIENT_CAPABILITY
    assert raised.value.error.data == {"requiredCapabilities": {"sampling": {}}}


@pytest.mark.parametrize("era", ERAS)
async def test_task_tools_for_a_client_without_tasks(era: str) -> None:
    """The SDK client declares no tasks: the optional task tool runs inline on the call (2026: MRTR rounds for the
    environment, then the approval, with the work done so far carried in requestState; legacy: server requests),
    reporting its steps as progress; the task-required tool is refused."""
    answerer = Answerer()
    seen: list[str | None] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        seen.append(message)

    async with demo_client(era, answerer) as client:
        released = await client.call_tool("deploy_release", {"version": "4.2"}, progress_callback=on_progress)
        assert text_of(released) == "Released v4.2 to production (approved)."
        with pytest.raises(MCPError) as raised:
            await client.call_tool("nightly_build", {})
    assert seen == ["building", "testing", "releasing"]
    if era == "modern":
        assert answerer.keys == ["environment", "approve_release"]
        assert raised.value.error.code == MISSING_REQUIRED_CLIENT_CAPABILITY
        assert raised.value.error.data == {
            "requiredCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}}
        }
    else:
        assert raised.value.error.code == -32601  # taskSupport "required" without params.task
    assert [ask["requestedSchema"]["required"] for ask in answerer.asked] == [["environment"], ["approved"]]
