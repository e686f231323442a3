"""The demo server on the raw wire: newline-delimited JSON-RPC written by hand over stdio.

These tests prove what an SDK client hides: the exact input-request keys, that each retry is a new request
(new id, original params, `inputResponses`, `requestState` echoed byte for byte), that the state is sealed,
and what a 2025-06-18 client sees instead (standalone `elicitation/create` requests). Where SEP-2322 gives an
example (get_weather, update_work_item, capital_of_france), the wire carries the SEP's own JSON (sep_examples).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from mcp_types import methods
from raw_support import MODERN, RawStdio, raw_demo

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
import sep_examples as sep

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator


@pytest.fixture
async def raw() -> AsyncIterator[RawStdio]:
    async with raw_demo() as server:
        yield server


def result_of(response: dict[str, Any], method: str) -> dict[str, Any]:
    """The result, validated against the 2026-07-28 schema of `method` by mcp-types."""
    assert "error" not in response, response
    result: dict[str, Any] = response["result"]
    methods.validate_server_result(method, MODERN, result)
    return result


async def test_discover_then_get_weather_echoes_state_byte_for_byte(raw: RawStdio) -> None:
    """SEP-2322's ephemeral example, message by message: github_login asked, the state echoed, the weather."""
    _, discovered = await raw.request("server/discover", {})
    assert MODERN in discovered["result"]["supportedVersions"]
    assert discovered["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "inspector-demo"

    call = sep.WEATHER_CALL
    first_text, first = await raw.request("tools/call", call)
    result = result_of(first, "tools/call")
    assert result["resultType"] == "input_required"
    assert result["inputRequests"] == {"github_login": sep.GITHUB_LOGIN_REQUEST}
    state = result["requestState"]
    assert state.startswith("v1.")  # sealed by MCPServer's RequestStateBoundary
    assert f'"requestState":"{state}"' in first_text  # the raw wire text, not a re-encoding

    # A tampered state is refused: the server treats the echo as attacker-controlled.
    tampered = state[:-2] + ("A" if state[-2] != "A" else "B") + state[-1]
    responses = {"github_login": sep.GITHUB_LOGIN_RESPONSE}
    _, refused = await raw.request("tools/call", {**call, "inputResponses": responses, "requestState": tampered})
    assert refused["error"]["code"] == -32602

    # The SEP's error-handling example: an answer to a key nobody asked, so github_login is asked again.
    _, again = await raw.request("tools/call", {**call, "inputResponses": sep.NOT_REQUESTED_RESPONSES})
    assert result_of(again, "tools/call")["inputRequests"] == {"github_login": sep.GITHUB_LOGIN_REQUEST}

    retry_line_count = len(raw.sent)
    _, final = await raw.request("tools/call", {**call, "inputResponses": responses, "requestState": state})
    retry_line = raw.sent[retry_line_count]
    assert f'"requestState":"{state}"' in retry_line
    assert json.loads(retry_line)["id"] not in {json.loads(line)["id"] for line in raw.sent[:retry_line_count]}
    done = result_of(final, "tools/call")
    assert done["resultType"] == "complete" and done["isError"] is False
    assert done["content"] == sep.WEATHER_CONTENT  # "Current weather in New York:\nTemperature: 72°F\n..."


FIRST_ROUNDS: list[tuple[str, dict[str, Any], list[str] | None, bool]] = [
    # (tool, arguments, inputRequests keys or None when absent, requestState present)
    ("get_weather", {"location": "Paris"}, ["github_login"], True),
    ("update_work_item", {"workItemId": 1, "fields": {}}, ["resolution"], False),
    ("ask_capital", {}, ["capital_of_france"], False),
    ("rolling_login", {}, ["github_login", "google_login"], False),
    ("heavy_report", {}, None, True),
    ("show_roots", {}, ["roots"], False),
    ("book_meeting", {}, ["meeting"], False),
    ("open_dashboard", {}, ["dashboard"], False),
]


async def test_first_round_of_every_flow(raw: RawStdio) -> None:
    for name, arguments, keys, has_state in FIRST_ROUNDS:
        _, response = await raw.request("tools/call", {"name": name, "arguments": arguments})
        result = result_of(response, "tools/call")
        assert result["resultType"] == "input_required", name
        assert (sorted(result["inputRequests"]) if "inputRequests" in result else None) == keys, name
        assert ("requestState" in result) == has_state, name
        if has_state:
            assert result["requestState"].startswith("v1."), name

    _, prompt = await raw.request("prompts/get", {"name": "code_review", "arguments": {"code": "x = 1"}})
    assert list(result_of(prompt, "prompts/get")["inputRequests"]) == ["language"]
    _, resource = await raw.request("resources/read", {"uri": "demo://report"})
    assert list(result_of(resource, "resources/read")["inputRequests"]) == ["confirm"]

    _, capital = await raw.request("tools/call", {"name": "ask_capital", "arguments": {}})
    assert capital["result"]["inputRequests"] == {"capital_of_france": sep.CAPITAL_REQUEST}
    answered = {"capital_of_france": sep.CAPITAL_RESPONSE}
    _, said = await raw.request("tools/call", {"name": "ask_capital", "arguments": {}, "inputResponses": answered})
    assert result_of(said, "tools/call")["content"][0]["text"] == (
        "The model (claude-3-sonnet-20240307) says: The capital of France is Paris."
    )
    _, roots = await raw.request("tools/call", {"name": "show_roots", "arguments": {}})
    assert roots["result"]["inputRequests"]["roots"] == {"method": "roots/list"}
    _, dashboard = await raw.request("tools/call", {"name": "open_dashboard", "arguments": {}})
    assert dashboard["result"]["inputRequests"]["dashboard"]["params"] == {
        "mode": "url",
        "message": "Connect the demo dashboard in your browser, then come back here",
        "url": "https://dashboard.example.com/connect?session=demo",
    }


async def test_update_work_item_is_the_seps_azure_devops_example(raw: RawStdio) -> None:
    """SEP-2322's real-world example, each message as the SEP writes it: the resolution asked with no state, the
    duplicate asked with the resolution sealed in requestState, and the SEP's closing sentence."""
    call = sep.WORK_ITEM_CALL
    _, first = await raw.request("tools/call", call)
    round_one = result_of(first, "tools/call")
    assert round_one["resultType"] == "input_required"
    assert round_one["inputRequests"] == {"resolution": sep.with_form_mode(sep.RESOLUTION_REQUEST)}
    assert "requestState" not in round_one  # the SEP: the arguments are sent again, nothing to carry yet

    _, second = await raw.request("tools/call", {**call, "inputResponses": {"resolution": sep.RESOLUTION_RESPONSE}})
    round_two = result_of(second, "tools/call")
    assert round_two["resultType"] == "input_required"
    assert round_two["inputRequests"] == {"duplicate_of": sep.with_form_mode(sep.DUPLICATE_OF_REQUEST)}
    state = round_two["requestState"]
    assert state.startswith("v1.")

    duplicate = {"duplicate_of": sep.DUPLICATE_OF_RESPONSE}
    _, final = await raw.request("tools/call", {**call, "inputResponses": duplicate, "requestState": state})
    done = result_of(final, "tools/call")
    assert done["resultType"] == "complete" and done["isError"] is False
    assert done["content"] == sep.WORK_ITEM_CONTENT
    assert done["content"][0]["text"] == (
        "Bug #4522 resolved as Duplicate of Bug #4301. State set to Resolved and duplicate link created."
    )

    # Without the state, the answer to duplicate_of alone cannot say the resolution: it is asked again.
    _, lost = await raw.request("tools/call", {**call, "inputResponses": duplicate})
    assert list(result_of(lost, "tools/call")["inputRequests"]) == ["resolution"]


async def test_slow_count_says_its_limit_in_its_schema(raw: RawStdio) -> None:
    """A client learns the limit from tools/list (a form can say "at most 200" before sending), and a call past it
    is refused by the SDK's argument check, as a tool error."""
    _, listed = await raw.request("tools/list", {})
    (slow,) = [tool for tool in result_of(listed, "tools/list")["tools"] if tool["name"] == "slow_count"]
    assert slow["inputSchema"]["properties"]["n"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 200,
        "title": "N",
        "description": "How far to count (one progress step each)",
    }
    assert slow["inputSchema"]["required"] == ["n"]
    _, refused = await raw.request("tools/call", {"name": "slow_count", "arguments": {"n": 201}})
    result = result_of(refused, "tools/call")
    assert result["isError"] is True and "less than or equal to 200" in result["content"][0]["text"]


async def test_rolling_login_and_load_shedding(raw: RawStdio) -> None:
    call: dict[str, Any] = {"name": "rolling_login", "arguments": {}}
    answers = {
        "github_login": {"action": "accept", "content": {"name": "octocat"}},
        "google_login": {"action": "accept", "content": {"email": "octo@gmail.example"}},
    }
    _, second = await raw.request("tools/call", {**call, "inputResponses": answers})
    round_two = result_of(second, "tools/call")
    assert list(round_two["inputRequests"]) == ["microsoft_login"]
    microsoft = {"microsoft_login": {"action": "accept", "content": {"email": "octo@outlook.example"}}}
    retry = {**call, "inputResponses": microsoft, "requestState": round_two["requestState"]}
    _, final = await raw.request("tools/call", retry)
    assert result_of(final, "tools/call")["content"][0]["text"] == (
        "Signed in: GitHub @octocat, Google octo@gmail.example, Microsoft octo@outlook.example."
    )

    heavy: dict[str, Any] = {"name": "heavy_report", "arguments": {}}
    _, shed = await raw.request("tools/call", heavy)
    assert "inputRequests" not in shed["result"]
    _, resumed = await raw.request("tools/call", {**heavy, "requestState": shed["result"]["requestState"]})
    assert "resumed from ticket" in result_of(resumed, "tools/call")["content"][0]["text"]


async def test_legacy_2025_06_18_gets_the_same_request_as_a_server_request(raw: RawStdio) -> None:
    init = {
        "protocolVersion": "2025-06-18",
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "raw-legacy", "version": "0"},
    }
    _, initialized = await raw.request("initialize", init, meta=None)
    assert initialized["result"]["protocolVersion"] == "2025-06-18"
    assert initialized["result"]["serverInfo"]["name"] == "inspector-demo"
    await raw.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    weather = {"name": "get_weather", "arguments": {"location": "Lima"}}
    await raw.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": weather})
    _, asked = await raw.receive()
    assert asked["method"] == "elicitation/create"
    assert asked["params"]["message"] == "Please provide your GitHub username"
    assert asked["params"]["requestedSchema"]["required"] == ["name"]
    answer = {"action": "accept", "content": {"name": "octocat"}}
    await raw.send({"jsonrpc": "2.0", "id": asked["id"], "result": answer})
    _, done = await raw.receive()
    assert done["id"] == 2
    assert done["result"]["content"][0]["text"].startswith("Current weather in Lima:")

    # elicitation: {} means form only, so the URL-mode flow refuses instead of asking.
    dashboard = {"name": "open_dashboard", "arguments": {}}
    await raw.send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": dashboard})
    _, refused = await raw.receive()
    assert refused["id"] == 3 and refused["error"]["code"] == -32600
