"""The demo's task tools on the raw wire, JSON-RPC written by hand over stdio, in both eras.

2026-07-28 (the Tasks extension): capability per request, the flat CreateTaskResult, tasks/get|update|cancel, the
-32021s, the methods the extension removed. 2025-11-25: the initialize capability, execution.taskSupport,
params.task, the nested CreateTaskResult, the blocking tasks/result that asks the task's question on its own
stream (also for a task another instance runs), tasks/list, tasks/cancel, notifications/tasks/status. Nothing here
waits on time: a 2026 test stops at what is true at once, a 2025 test waits on tasks/result, which the server
answers when the task has ended.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from mcp_types import methods
from raw_support import MODERN, SKILLS_EXTENSION, TASKS_EXTENSION, TASKS_META, RawStdio, raw_demo

from inspector.demo.flaw_names import TASK_DIR_ENV
from inspector.demo.task_model import SCALE_ENV

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

LEGACY = "2025-11-25"
RELATED = "io.modelcontextprotocol/related-task"
FLAT_TASK_KEYS = {"taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"}
LEGACY_TASK_KEYS = {"taskId", "status", "createdAt", "lastUpdatedAt", "ttl", "pollInterval"}


@pytest.fixture
async def raw() -> AsyncIterator[RawStdio]:
    async with raw_demo({SCALE_ENV: "0.1"}) as server:
        yield server


async def initialize(raw: RawStdio, version: str = LEGACY) -> dict[str, Any]:
    params = {
        "protocolVersion": version,
        "capabilities": {"elicitation": {"form": {}}, "tasks": {"list": {}, "cancel": {}}},
        "clientInfo": {"name": "raw-legacy", "version": "0"},
    }
    _, initialized = await raw.request("initialize", params, meta=None)
    await raw.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    result: dict[str, Any] = initialized["result"]
    return result


async def legacy_release(raw: RawStdio, version: str, environment: str) -> str:
    """A 2025 session (``initialize``) that starts deploy_release as a task (params.task); the task's id."""
    await initialize(raw)
    call = {"name": "deploy_release", "arguments": {"version": version, "environment": environment}, "task": {}}
    _, created = await raw.request("tools/call", call, meta=None)
    task_id: str = created["result"]["task"]["taskId"]
    return task_id


def error_of(response: dict[str, Any]) -> dict[str, Any]:
    assert "error" in response, response
    error: dict[str, Any] = response["error"]
    return error


# -- 2026-07-28 ----------------------------------------------------------------------------------------------------


async def test_the_extension_is_advertised_and_required_where_it_must_be(raw: RawStdio) -> None:
    _, discovered = await raw.request("server/discover", {})
    assert discovered["result"]["capabilities"]["extensions"] == {TASKS_EXTENSION: {}, SKILLS_EXTENSION: {}}
    _, listed = await raw.request("tools/list", {})
    tools = {tool["name"]: tool for tool in listed["result"]["tools"]}
    assert {"deploy_release", "nightly_build"} <= set(tools)
    assert all("execution" not in tool for tool in tools.values())  # a 2025 field: never on the 2026 wire

    _, refused = await raw.request("tools/call", {"name": "nightly_build", "arguments": {}})
    error = error_of(refused)
    assert error["code"] == -32021
    assert error["data"] == {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}}

    for method in ("tasks/get", "tasks/update", "tasks/cancel"):
        _, without = await raw.request(method, {"taskId": "x", "inputResponses": {}})
        assert error_of(without)["code"] == -32021, method
    for method in ("tasks/result", "tasks/list"):  # 2025 methods the extension removed
        _, removed = await raw.request(method, {"taskId": "x"}, meta=TASKS_META)
        assert error_of(removed)["code"] == -32601, method
    _, unknown = await raw.request("tasks/get", {"taskId": "no-such-task"}, meta=TASKS_META)
    assert error_of(unknown)["code"] == -32602


async def test_a_task_is_created_polled_updated_and_cancelled(raw: RawStdio) -> None:
    created_text, created = await raw.request("tools/call", {"name": "nightly_build", "arguments": {}}, meta=TASKS_META)
    task = created["result"]
    assert task["resultType"] == "task"
    assert set(task) >= FLAT_TASK_KEYS and task["status"] == "working"
    assert task["ttlMs"] == 900000 and 50 <= task["pollIntervalMs"] <= 500
    assert '"resultType":"task"' in created_text and '"task":' not in created_text  # flat, not 2025's nesting
    task_id = task["taskId"]

    _, polled = await raw.request("tasks/get", {"taskId": task_id}, meta=TASKS_META)
    assert polled["result"]["resultType"] == "complete" and polled["result"]["taskId"] == task_id
    assert polled["result"]["status"] in ("working", "completed")

    responses = {"never-asked": {"action": "accept", "content": {}}}
    _, acked = await raw.request("tasks/update", {"taskId": task_id, "inputResponses": responses}, meta=TASKS_META)
    assert acked["result"]["resultType"] == "complete"  # unknown keys are ignored, the ack is the same
    assert set(acked["result"]) == {"resultType", "_meta"}

    _, cancel = await raw.request("tasks/cancel", {"taskId": task_id}, meta=TASKS_META)
    assert set(cancel["result"]) == {"resultType", "_meta"}
    _, after = await raw.request("tasks/get", {"taskId": task_id}, meta=TASKS_META)
    ended = after["result"]["status"]
    assert ended in ("cancelled", "completed")  # cooperative: a task that had finished stays completed
    _, again = await raw.request("tasks/cancel", {"taskId": task_id}, meta=TASKS_META)
    assert again["result"]["resultType"] == "complete"
    _, still = await raw.request("tasks/get", {"taskId": task_id}, meta=TASKS_META)
    assert still["result"]["status"] == ended  # terminal never changes


async def test_mrtr_first_then_the_task_on_the_same_tools_call(raw: RawStdio) -> None:
    call = {"name": "deploy_release", "arguments": {"version": "2.0"}}
    _, first = await raw.request("tools/call", call, meta=TASKS_META)
    asked = first["result"]
    methods.validate_server_result("tools/call", MODERN, asked)
    assert asked["resultType"] == "input_required" and list(asked["inputRequests"]) == ["environment"]
    schema = asked["inputRequests"]["environment"]["params"]["requestedSchema"]
    assert schema["properties"]["environment"]["default"] == "staging"

    answer = {"environment": {"action": "accept", "content": {"environment": "production"}}}
    _, second = await raw.request("tools/call", {**call, "inputResponses": answer}, meta=TASKS_META)
    assert second["result"]["resultType"] == "task"
    _, cancelled = await raw.request("tasks/cancel", {"taskId": second["result"]["taskId"]}, meta=TASKS_META)
    assert cancelled["result"]["resultType"] == "complete"


# -- 2025-11-25 ----------------------------------------------------------------------------------------------------


async def test_legacy_capability_and_task_support(raw: RawStdio) -> None:
    initialized = await initialize(raw)
    assert initialized["capabilities"]["tasks"] == {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
    _, listed = await raw.request("tools/list", {}, meta=None)
    support = {tool["name"]: tool.get("execution", {}).get("taskSupport") for tool in listed["result"]["tools"]}
    assert support["deploy_release"] == "optional" and support["nightly_build"] == "required"
    assert {name for name, value in support.items() if value is not None} == {"deploy_release", "nightly_build"}

    _, required = await raw.request("tools/call", {"name": "nightly_build", "arguments": {}}, meta=None)
    assert error_of(required)["code"] == -32601  # taskSupport "required" without params.task: MUST
    plain = {"name": "add", "arguments": {"a": 1, "b": 2}, "task": {}}
    _, forbidden = await raw.request("tools/call", plain, meta=None)
    assert error_of(forbidden)["code"] == -32601  # params.task on a forbidden tool: SHOULD
    _, update = await raw.request("tasks/update", {"taskId": "x", "inputResponses": {}}, meta=None)
    assert error_of(update)["code"] == -32601  # a 2026 method
    for method in ("tasks/get", "tasks/result", "tasks/cancel"):
        _, unknown = await raw.request(method, {"taskId": "no-such-task"}, meta=None)
        assert error_of(unknown)["code"] == -32602, method


async def test_legacy_task_runs_to_its_result_and_notifies(raw: RawStdio) -> None:
    await initialize(raw)
    call = {"name": "nightly_build", "arguments": {}, "task": {"ttl": 60000}}
    _, created = await raw.request("tools/call", call, meta=None)
    task = created["result"]["task"]
    assert set(created["result"]) == {"task"} and set(task) >= LEGACY_TASK_KEYS
    assert task["status"] == "working" and task["statusMessage"] == "compiling"
    assert task["ttl"] == 60000  # the ttl asked for is kept
    task_id = task["taskId"]

    _, listed = await raw.request("tasks/list", {}, meta=None)
    assert task_id in [entry["taskId"] for entry in listed["result"]["tasks"]]

    _, result = await raw.request("tasks/result", {"taskId": task_id}, meta=None)  # blocks until it ended
    payload = result["result"]
    assert payload["content"][0]["text"].startswith("Nightly build passed")
    assert payload["_meta"] == {RELATED: {"taskId": task_id}}
    notes = [m["params"] for m in raw.skipped if m.get("method") == "notifications/tasks/status"]
    # Born "compiling" (in the CreateTaskResult), so every notification follows it: one per later change.
    assert [n["statusMessage"] for n in notes] == ["running the test suite", "packaging", "done"]
    assert notes[-1]["status"] == "completed" and all(n["taskId"] == task_id for n in notes)

    _, ended = await raw.request("tasks/cancel", {"taskId": task_id}, meta=None)
    assert error_of(ended)["code"] == -32602  # already terminal: MUST reject


async def test_legacy_tasks_result_asks_the_question_with_related_task_meta(raw: RawStdio) -> None:
    task_id = await legacy_release(raw, "3.1", "staging")

    result_id = await raw.send_request("tasks/result", {"taskId": task_id}, meta=None)
    message = await raw.next_request("elicitation/create")
    params = message["params"]
    assert params["_meta"] == {RELATED: {"taskId": task_id}}
    assert params["requestedSchema"]["properties"]["approved"]["default"] is True
    await raw.send({"jsonrpc": "2.0", "id": message["id"], "result": {"action": "decline"}})
    _, message = await raw.response_to(result_id)
    assert message["result"]["content"][0]["text"] == (
        "Release v3.1 to staging stopped before going out (declined): nothing was released."
    )
    _, polled = await raw.request("tasks/get", {"taskId": task_id}, meta=None)
    assert polled["result"]["status"] == "completed" and "resultType" not in polled["result"]


async def test_legacy_cancel_returns_the_cancelled_task(raw: RawStdio) -> None:
    task_id = await legacy_release(raw, "1.0", "staging")
    _, cancelled = await raw.request("tasks/cancel", {"taskId": task_id}, meta=None)
    assert cancelled["result"]["status"] == "cancelled"  # MUST be cancelled before the response
    _, result = await raw.request("tasks/result", {"taskId": task_id}, meta=None)
    assert error_of(result)["code"] == -32603  # a cancelled request has no result


async def test_2025_06_18_has_no_tasks(raw: RawStdio) -> None:
    initialized = await initialize(raw, "2025-06-18")
    assert "tasks" not in initialized["capabilities"]
    _, listed = await raw.request("tools/list", {}, meta=None)
    assert all("execution" not in tool for tool in listed["result"]["tools"])
    _, get = await raw.request("tasks/get", {"taskId": "x"}, meta=None)
    assert error_of(get)["code"] == -32601


async def collect_until(raw: RawStdio, ids: set[int]) -> list[dict[str, Any]]:
    """Every message up to and including the responses to `ids`."""
    seen: list[dict[str, Any]] = []
    while ids:
        _, message = await raw.receive()
        seen.append(message)
        if "method" not in message:
            ids.discard(message.get("id"))
    return seen


async def test_legacy_cancel_while_the_question_is_out_withdraws_it(raw: RawStdio) -> None:
    """The client cancels instead of answering: the server withdraws its elicitation (notifications/cancelled),
    and the blocked tasks/result answers how the task ended, not waiting on an answer nobody needs."""
    task_id = await legacy_release(raw, "5.0", "production")
    result_id = await raw.send_request("tasks/result", {"taskId": task_id}, meta=None)
    asked = await raw.next_request("elicitation/create")
    cancel_id = await raw.send_request("tasks/cancel", {"taskId": task_id}, meta=None)
    seen = await collect_until(raw, {result_id, cancel_id})
    withdrawn = [m["params"]["requestId"] for m in seen if m.get("method") == "notifications/cancelled"]
    assert withdrawn == [asked["id"]]
    responses = {m["id"]: m for m in seen if "method" not in m}
    assert responses[cancel_id]["result"]["status"] == "cancelled"
    assert error_of(responses[result_id])["code"] == -32603


async def test_legacy_a_question_refused_with_an_error_is_not_asked_again_on_that_result(raw: RawStdio) -> None:
    task_id = await legacy_release(raw, "5.1", "staging")
    result_id = await raw.send_request("tasks/result", {"taskId": task_id}, meta=None)
    asked = await raw.next_request("elicitation/create")
    await raw.send({"jsonrpc": "2.0", "id": asked["id"], "error": {"code": -1, "message": "nobody to ask"}})
    _, polled = await raw.request("tasks/get", {"taskId": task_id}, meta=None)
    assert polled["result"]["status"] == "input_required"  # still waiting for its answer
    cancel_id = await raw.send_request("tasks/cancel", {"taskId": task_id}, meta=None)
    seen = await collect_until(raw, {result_id, cancel_id})
    assert [m for m in seen if m.get("method") == "elicitation/create"] == []  # not asked twice
    assert error_of(next(m for m in seen if m.get("id") == result_id))["code"] == -32603


async def test_legacy_tasks_result_on_another_instance_asks_there_and_the_answer_reaches_the_work(
    tmp_path: Path,
) -> None:
    """Two demo processes sharing one task folder, each with a 2025 session of its own: a task made on A is waited
    on with tasks/result on B, which asks the task's question on B's stream; the answer given to B reaches the work
    A runs, and both instances then tell the same end."""
    shared = {SCALE_ENV: "0.1", TASK_DIR_ENV: str(tmp_path)}
    async with raw_demo(shared) as a, raw_demo(shared) as b:
        task_id = await legacy_release(a, "3.1", "staging")
        await initialize(b)

        result_id = await b.send_request("tasks/result", {"taskId": task_id}, meta=None)
        message = await b.next_request("elicitation/create")
        assert message["params"]["_meta"] == {RELATED: {"taskId": task_id}}
        answer = {"action": "accept", "content": {"approved": True}}
        await b.send({"jsonrpc": "2.0", "id": message["id"], "result": answer})
        _, message = await b.response_to(result_id)
        released = "Released v3.1 to staging (approved)."
        assert message["result"]["content"][0]["text"] == released

        _, on_a = await a.request("tasks/result", {"taskId": task_id}, meta=None)  # A ran it: A's own result
        assert on_a["result"]["content"][0]["text"] == released
        _, polled = await a.request("tasks/get", {"taskId": task_id}, meta=None)
        assert polled["result"]["status"] == "completed"
        assert not [m for m in a.skipped if m.get("method") == "elicitation/create"], "A never asked anyone"
