"""The task driver over fake closures (no transport): polling at the hint, each input key answered once, updates with
the outstanding keys only, cooperative cancellation, the 2025 blocking tasks/result and SEP-2322's persistent flow."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from inspector.answers.source import CallCancelled
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.task_polling import DEFAULT_POLL_S, MAX_POLL_S, MIN_POLL_S
from inspector.session.task_driver import drive_task

FORM = {"method": "elicitation/create", "params": {"message": "Approve?", "requestedSchema": {"type": "object"}}}


class Server:
    """A scripted task server: ``polls`` is what each tasks/get returns, in order (the last one repeats)."""

    def __init__(self, polls: list[JsonObject], payload: JsonObject | None = None) -> None:
        self.polls = polls
        self.payload = payload or {"content": [{"type": "text", "text": "done"}]}
        self.calls: list[tuple[str, Any]] = []
        self.slept: list[float] = []

    async def get(self) -> JsonObject:
        self.calls.append(("get", None))
        return self.polls.pop(0) if len(self.polls) > 1 else self.polls[0]

    async def update(self, responses: JsonObject) -> JsonObject:
        self.calls.append(("update", sorted(responses)))
        return {"resultType": "complete"}

    async def result(self) -> JsonObject:
        self.calls.append(("result", None))
        return self.payload

    async def cancel(self) -> JsonObject:
        self.calls.append(("cancel", None))
        return {"resultType": "complete"}

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)

    async def answer(self, key: str, request: JsonObject) -> JsonObject:
        self.calls.append(("answer", key))
        return {"action": "accept", "content": {"approved": True}}


def task(status: str, **more: Any) -> JsonObject:
    return {"taskId": "t1", "status": status, "createdAt": "x", "lastUpdatedAt": "x", "ttlMs": None, **more}


async def run(server: Server, created: JsonObject, shape: Any = "ext-2026", cancel: bool = False) -> Any:
    event = asyncio.Event()
    if cancel:
        event.set()
    return await drive_task(
        created,
        shape=shape,
        get=server.get,
        update=server.update,
        result=server.result,
        cancel=server.cancel,
        answer=server.answer,
        cancel_requested=event,
        sleep=server.sleep,
        clock=lambda: 0.0,
    )


async def test_polls_at_the_hint_until_completed_and_returns_the_inline_result() -> None:
    done = task("completed", result={"content": [{"type": "text", "text": "ok"}]}, pollIntervalMs=250)
    server = Server([task("working", pollIntervalMs=250), done])
    end = await run(server, task("working", pollIntervalMs=500))
    assert (end.status, end.result) == ("completed", done["result"])
    assert server.slept == [0.5, 0.25], "each wait is the latest hint, never less"
    assert [c for c, _ in server.calls] == ["get", "get"]


async def test_no_hint_polls_each_second_and_a_zero_hint_is_not_a_busy_loop() -> None:
    server = Server([task("working", pollIntervalMs=0), task("completed", result={})])
    await run(server, task("working"))
    assert server.slept == [DEFAULT_POLL_S, MIN_POLL_S]


async def test_an_infinite_or_nan_hint_from_the_server_text_polls_at_the_default_not_never() -> None:
    # (Python's parser reads these from a server's line; JSON has no such number, and waiting Infinity ms hangs)
    infinite, nan = (json.loads(f'{{"pollIntervalMs": {hint}}}') for hint in ("Infinity", "NaN"))
    server = Server([task("working", **nan), task("completed", result={})])
    await run(server, task("working", **infinite))
    assert server.slept == [DEFAULT_POLL_S, DEFAULT_POLL_S]


async def test_a_huge_hint_is_waited_at_most_five_minutes_so_the_call_cannot_hang_for_it() -> None:
    years = 10**12  # ms: 31.7 years
    server = Server([task("working", pollIntervalMs=years), task("completed", result={})])
    end = await run(server, task("working", pollIntervalMs=3_600_000))
    assert end.status == "completed"
    assert server.slept == [MAX_POLL_S, MAX_POLL_S] and MAX_POLL_S == 300.0, "an hour's hint and 31 years', capped"


async def test_input_repeated_on_every_poll_is_answered_once_and_updated_once() -> None:
    asking = task("input_required", inputRequests={"approve": FORM})
    also = task("input_required", inputRequests={"approve": FORM, "note": FORM})
    server = Server([asking, asking, also, also, task("completed", result={})])
    end = await run(server, task("working"))
    assert end.status == "completed"
    assert [c for c in server.calls if c[0] in ("answer", "update")] == [
        ("answer", "approve"),
        ("update", ["approve"]),
        ("answer", "note"),
        ("update", ["note"]),
    ], "each key once, the update carrying only the keys not answered before"


async def test_cancel_is_sent_once_and_the_task_is_followed_to_what_it_really_did() -> None:
    server = Server([task("working"), task("completed", result={"content": []})])
    end = await run(server, task("working"), cancel=True)
    assert [c for c, _ in server.calls].count("cancel") == 1
    assert end.status == "completed" and end.cancel_sent, "cooperative: it completed anyway, and that is shown"


async def test_a_question_cancelled_by_the_person_cancels_the_task_on_the_server() -> None:
    """Escape on a task's question (``CallCancelled``) is no answer and no end on the screen only: ``tasks/cancel``
    goes out at once, no update, and the task is followed to how the server ended it."""

    class Refusing(Server):
        async def answer(self, key: str, request: JsonObject) -> JsonObject:
            self.calls.append(("answer", key))
            raise CallCancelled("escape")

    asking = task("input_required", inputRequests={"approve": FORM})
    server = Refusing([task("cancelled")])
    event = asyncio.Event()
    end = await drive_task(
        asking,
        shape="ext-2026",
        get=server.get,
        update=server.update,
        result=None,
        cancel=server.cancel,
        answer=server.answer,
        cancel_requested=event,
        sleep=server.sleep,
        clock=lambda: 0.0,
    )
    assert [c for c, _ in server.calls] == ["answer", "cancel", "get"], "the cancel first, before any poll"
    assert end.status == "cancelled" and end.cancel_sent and event.is_set()


async def test_a_cancelled_task_that_never_ends_is_detached() -> None:
    server = Server([task("working")])
    now = [0.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    event = asyncio.Event()
    event.set()
    end = await drive_task(
        task("working", pollIntervalMs=1000),
        shape="ext-2026",
        get=server.get,
        update=server.update,
        result=None,
        cancel=server.cancel,
        answer=server.answer,
        cancel_requested=event,
        sleep=sleep,
        clock=lambda: now[0],
        after_cancel_s=5.0,
    )
    assert end.status == "detached" and end.cancel_sent
    assert [c for c, _ in server.calls].count("cancel") == 1


async def test_legacy_input_goes_through_the_blocking_result_and_the_payload_ends_it() -> None:
    nested = {"task": task("working", pollInterval=100)}
    payload = {"content": [{"type": "text", "text": "report"}]}
    server = Server([task("input_required", pollInterval=100), task("completed")], payload)
    end = await run(server, nested, shape="legacy-2025")
    assert end.status == "completed" and end.result == payload
    assert [c for c, _ in server.calls] == ["get", "result", "get"], (
        "the blocking result delivered the outcome; one more poll shows the task's final status, no second result"
    )


async def test_a_legacy_task_that_completes_is_asked_for_its_result_once() -> None:
    server = Server([task("completed")], {"content": []})
    end = await run(server, {"task": task("working")}, shape="legacy-2025")
    assert end.result == {"content": []} and [c for c, _ in server.calls] == ["get", "result"]


async def test_sep_2322_tasks_result_with_input_required_is_answered_with_update() -> None:
    asks: JsonObject = {"resultType": "input_required", "inputRequests": {"echo_input": FORM}}
    server = Server([task("input_required"), task("working"), task("completed")], asks)
    payloads: list[JsonObject] = [asks, {"content": [{"type": "text", "text": "echoed"}]}]

    async def result() -> JsonObject:
        server.calls.append(("result", None))
        return payloads.pop(0)

    end = await drive_task(
        {"task": task("working")},
        shape="legacy-2025",
        get=server.get,
        update=server.update,
        result=result,
        cancel=server.cancel,
        answer=server.answer,
        cancel_requested=asyncio.Event(),
        sleep=server.sleep,
    )
    assert ("answer", "echo_input") in server.calls and ("update", ["echo_input"]) in server.calls
    assert end.status == "completed" and end.result == {"content": [{"type": "text", "text": "echoed"}]}


async def follow_with_timeout(server: Server, created: JsonObject, shape: Any, timeout_s: float) -> tuple[Any, float]:
    """Follow ``created`` on a clock that the driver's waits move; the end, and the time it came."""
    now = [0.0]

    async def sleep(seconds: float) -> None:
        server.slept.append(seconds)
        now[0] += seconds

    end = await drive_task(
        created,
        shape=shape,
        get=server.get,
        update=server.update,
        result=server.result if shape != "ext-2026" else None,
        cancel=server.cancel,
        answer=server.answer,
        cancel_requested=asyncio.Event(),
        sleep=sleep,
        clock=lambda: now[0],
        timeout_s=timeout_s,
    )
    return end, now[0]


class NeverEnding(Server):
    """A task that stays working until it is cancelled, then is cancelled (the fixture's ``task-forever``)."""

    async def get(self) -> JsonObject:
        self.calls.append(("get", None))
        cancelled = ("cancel", None) in self.calls
        return task("cancelled" if cancelled else "working", pollIntervalMs=0)


async def test_a_task_that_never_ends_is_cancelled_once_at_its_timeout_and_says_so() -> None:
    server = NeverEnding([])
    end, at = await follow_with_timeout(server, task("working", pollIntervalMs=0), "ext-2026", 2.0)
    assert end.status == "cancelled" and end.timed_out and end.cancel_sent
    assert [c for c, _ in server.calls].count("cancel") == 1
    polls = [c for c, _ in server.calls].index("cancel")
    assert polls == round(2.0 / MIN_POLL_S) - 1, "polled every 50 ms until the timeout, then cancelled instead"
    assert at == pytest.approx(2.0 + MIN_POLL_S), "one poll after the cancel shows what the server did"


async def test_a_poll_hint_longer_than_the_timeout_does_not_outlast_it() -> None:
    server = NeverEnding([])
    end, _ = await follow_with_timeout(server, task("working", pollIntervalMs=3_600_000), "ext-2026", 2.0)
    assert end.timed_out and server.slept[0] == 2.0, "the wait stops at the timeout, not at the hour's hint"
    assert [c for c, _ in server.calls][:1] == ["cancel"], "cancelled without one more poll first"


async def test_without_a_timeout_a_task_is_followed_to_its_end_however_long() -> None:
    server = Server([task("working", pollIntervalMs=0)] * 99 + [task("completed", result={})])
    end, at = await follow_with_timeout(server, task("working", pollIntervalMs=0), "ext-2026", 0.0)
    assert end.status == "completed" and not end.timed_out and not end.cancel_sent and at > 0


async def test_a_task_that_completes_after_its_timeout_cancel_keeps_its_result() -> None:
    class Completing(Server):
        async def get(self) -> JsonObject:
            self.calls.append(("get", None))
            done = ("cancel", None) in self.calls
            return task("completed", result={"content": []}) if done else task("working", pollIntervalMs=500)

    end, _ = await follow_with_timeout(Completing([]), task("working", pollIntervalMs=500), "ext-2026", 1.0)
    assert end.status == "completed" and end.timed_out and end.result == {"content": []}


async def test_a_legacy_task_blocked_in_its_result_is_cancelled_at_its_timeout() -> None:
    """2025: a task waiting for input is asked for ``tasks/result``, which blocks until the task ends; the timeout
    stops waiting for it and cancels the task."""

    class Blocking(Server):
        async def result(self) -> JsonObject:
            self.calls.append(("result", None))
            await asyncio.Event().wait()  # never returns: the task never ends
            raise AssertionError("unreachable")

        async def get(self) -> JsonObject:
            self.calls.append(("get", None))
            return task("cancelled" if ("cancel", None) in self.calls else "input_required", pollInterval=0)

    server = Blocking([])
    end, _ = await asyncio.wait_for(
        follow_with_timeout(server, {"task": task("input_required", pollInterval=0)}, "legacy-2025", 0.05), 10.0
    )
    assert end.status == "cancelled" and end.timed_out
    assert [c for c, _ in server.calls][:2] == ["result", "cancel"]
