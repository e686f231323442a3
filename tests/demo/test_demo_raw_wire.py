"""The demo server on the raw wire: newline-delimited JSON-RPC written by hand over stdio.

These tests prove what an SDK client hides: the exact input-request keys, that each retry is a new request
(new id, original params, `inputResponses`, `requestState` echoed byte for byte), that the state is sealed,
and what a 2025-06-18 client sees instead (standalone `elicitation/create` requests).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from mcp_types import methods
from raw_support import MODERN, RawStdio, raw_demo

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
    _, discovered = await raw.request("server/discover", {})
    assert MODERN in discovered["result"]["supportedVersions"]
    assert discovered["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "inspector-demo"

    call = {"name": "get_weather", "arguments": {"location": "New York"}}
    first_text, first = await raw.request("tools/call", call)
    result = result_of(first, "tools/call")
    assert result["resultType"] == "input_required"
    assert result["inputRequests"] == {
        "github_login": {
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": "Please provide your GitHub username",
                "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
            },
        }
    }
    state = result["requestState"]
    assert state.startswith("v1.")  # sealed by MCPServer's RequestStateBoundary
    assert f'"requestState":"{state}"' in first_text  # the raw wire text, not a re-encoding

    # A tampered state is refused: the server treats the echo as attacker-controlled.
    tampered = state[:-2] + ("A" if state[-2] != "A" else "B") + state[-1]
    responses = {"github_login": {"action": "accept", "content": {"name": "octocat"}}}
    _, refused = await raw.request("tools/call", {**call, "inputResponses": responses, "requestState": tampered})
    assert refused["error"]["code"] == -32602

    retry_line_count = len(raw.sent)
    _, final = await raw.request("tools/call", {**call, "inputResponses": responses, "requestState": state})
    retry_line = raw.sent[retry_line_count]
    assert f'"requestState":"{state}"' in retry_line
    assert json.loads(retry_line)["id"] not in {json.loads(line)["id"] for line in raw.sent[:retry_line_count]}
    done = result_of(final, "tools/call")
    assert done["resultType"] == "complete"
    text = done["content"][0]["text"]
    assert "New York" in text and "octocat" in text


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
    assert capital["result"]["inputRequests"]["capital_of_france"] == {
        "method": "sampling/createMessage",
        "params": {
            "messages": [{"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}}],
            "maxTokens": 100,
        },
    }
    _, roots = await raw.request("tools/call", {"name": "show_roots", "arguments": {}})
    assert roots["result"]["inputRequests"]["roots"] == {"method": "roots/list"}
    _, dashboard = await raw.request("tools/call", {"name": "open_dashboard", "arguments": {}})
    assert dashboard["result"]["inputRequests"]["dashboard"]["params"] == {
        "mode": "url",
        "message": "Connect the demo dashboard in your browser, then come back here",
        "url": "https://dashboard.example.com/connect?session=demo",
    }


async def test_update_work_item_takes_two_rounds_with_resolution_in_state(raw: RawStdio) -> None:
    call = {"name": "update_work_item", "arguments": {"workItemId": 4300, "fields": {"state": "Closed"}}}
    _, first = await raw.request("tools/call", call)
    assert "requestState" not in first["result"]

    answer = {"resolution": {"action": "accept", "content": {"resolution": "Duplicate"}}}
    _, second = await raw.request("tools/call", {**call, "inputResponses": answer})
    round_two = result_of(second, "tools/call")
    assert round_two["resultType"] == "input_required"
    assert (
        round_two["inputRequests"]["duplicate_of"]["params"]["requestedSchema"]["properties"]["duplicate_of"]["type"]
        == "integer"
    )
    state = round_two["requestState"]

    duplicate = {"duplicate_of": {"action": "accept", "content": {"duplicate_of": 4301}}}
    _, final = await raw.request("tools/call", {**call, "inputResponses": duplicate, "requestState": state})
    done = result_of(final, "tools/call")
    assert done["resultType"] == "complete"
    assert "Duplicate of #4301" in done["content"][0]["text"]


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
    assert done["result"]["content"][0]["text"].startswith("Weather in Lima for @octocat")

    # elicitation: {} means form only, so the URL-mode flow refuses instead of asking.
    dashboard = {"name": "open_dashboard", "arguments": {}}
    await raw.send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": dashboard})
    _, refused = await raw.receive()
    assert refused["id"] == 3 and refused["error"]["code"] == -32600
