"""The MRTR driver, with no transport: injected answer and retry closures."""

from __future__ import annotations

import pytest

from inspector.protocol.jsonrpc import JsonObject
from inspector.session.mrtr_driver import MalformedInputRequired, RoundCapReached, drive_input_required

ELICIT = {"method": "elicitation/create", "params": {"message": "login?", "requestedSchema": {"type": "object"}}}


async def no_sleep(_: float) -> None:
    return None


async def test_answers_every_key_and_echoes_state_byte_for_byte() -> None:
    state = 'eyJ\\u00e9"x' + "é"
    first: JsonObject = {
        "resultType": "input_required",
        "inputRequests": {"a": ELICIT, "b": ELICIT},
        "requestState": state,
    }
    asked: list[str] = []
    sent: list[tuple[JsonObject | None, str | None]] = []

    async def answer(key: str, request: JsonObject) -> JsonObject:
        asked.append(key)
        return {"action": "accept", "content": {"k": key}}

    async def retry(responses: JsonObject | None, echoed: str | None) -> JsonObject:
        sent.append((responses, echoed))
        return {"resultType": "complete", "content": []}

    driven = await drive_input_required(first, answer=answer, retry=retry, sleep=no_sleep)
    assert asked == ["a", "b"]
    assert sent == [
        ({"a": {"action": "accept", "content": {"k": "a"}}, "b": {"action": "accept", "content": {"k": "b"}}}, state)
    ]
    assert sent[0][1] is state  # the very same string object: never decoded or rebuilt
    assert driven.rounds == 2


async def test_state_is_omitted_when_absent() -> None:
    sent: list[str | None] = []

    async def answer(key: str, request: JsonObject) -> JsonObject:
        return {"action": "decline"}

    async def retry(responses: JsonObject | None, echoed: str | None) -> JsonObject:
        sent.append(echoed)
        return {"resultType": "complete"}

    await drive_input_required(
        {"resultType": "input_required", "inputRequests": {"a": ELICIT}}, answer=answer, retry=retry, sleep=no_sleep
    )
    assert sent == [None]


async def test_state_only_rounds_back_off_and_send_no_responses() -> None:
    waits: list[float] = []
    results = iter(
        [
            {"resultType": "input_required", "requestState": "s2"},
            {"resultType": "input_required", "requestState": "s3"},
            {"resultType": "complete"},
        ]
    )
    sent: list[tuple[JsonObject | None, str | None]] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    async def answer(key: str, request: JsonObject) -> JsonObject:
        raise AssertionError("a state-only round asks nothing")

    async def retry(responses: JsonObject | None, echoed: str | None) -> JsonObject:
        sent.append((responses, echoed))
        return next(results)

    driven = await drive_input_required(
        {"resultType": "input_required", "requestState": "s1"}, answer=answer, retry=retry, sleep=sleep
    )
    assert sent == [(None, "s1"), (None, "s2"), (None, "s3")]
    assert waits == [0.05, 0.1, 0.2]
    assert driven.rounds == 4


async def test_round_cap_stops_a_looping_server() -> None:
    calls = 0

    async def answer(key: str, request: JsonObject) -> JsonObject:
        return {"action": "accept", "content": {}}

    async def retry(responses: JsonObject | None, echoed: str | None) -> JsonObject:
        nonlocal calls
        calls += 1
        return {"resultType": "input_required", "inputRequests": {"again": ELICIT}}

    with pytest.raises(RoundCapReached) as caught:
        await drive_input_required(
            {"resultType": "input_required", "inputRequests": {"a": ELICIT}},
            answer=answer,
            retry=retry,
            max_rounds=3,
            sleep=no_sleep,
        )
    assert caught.value.rounds == 3
    assert calls == 2


async def test_a_complete_first_result_needs_no_round() -> None:
    async def answer(key: str, request: JsonObject) -> JsonObject:
        raise AssertionError

    async def retry(responses: JsonObject | None, echoed: str | None) -> JsonObject:
        raise AssertionError

    driven = await drive_input_required({"resultType": "complete", "content": []}, answer=answer, retry=retry)
    assert driven.rounds == 1


@pytest.mark.parametrize(
    ("result", "problem"),
    [
        ({"resultType": "input_required"}, "neither inputRequests nor requestState"),
        ({"resultType": "input_required", "inputRequests": ["a"]}, "inputRequests is not an object"),
        ({"resultType": "input_required", "requestState": 7}, "requestState is a JSON int"),
        ({"resultType": "input_required", "inputRequests": {"a": "login?"}}, "inputRequests['a'] is not an object"),
        ({"resultType": "input_required", "inputRequests": {"a": {"method": "tools/call"}}}, "'tools/call'"),
    ],
)
async def test_a_malformed_input_required_result_is_neither_answered_nor_retried(
    result: JsonObject, problem: str
) -> None:
    async def answer(key: str, request: JsonObject) -> JsonObject:
        raise AssertionError("answered a malformed InputRequiredResult")

    async def retry(responses: JsonObject | None, echoed: str | None) -> JsonObject:
        raise AssertionError("retried a malformed InputRequiredResult")

    with pytest.raises(MalformedInputRequired) as caught:
        await drive_input_required(result, answer=answer, retry=retry, sleep=no_sleep)
    assert problem in str(caught.value)
    assert caught.value.result is result


async def test_a_malformed_result_in_a_later_round_stops_the_loop() -> None:
    sent: list[str | None] = []

    async def answer(key: str, request: JsonObject) -> JsonObject:
        return {"action": "decline"}

    async def retry(responses: JsonObject | None, echoed: str | None) -> JsonObject:
        sent.append(echoed)
        return {"resultType": "input_required", "requestState": {"not": "a string"}}

    with pytest.raises(MalformedInputRequired):
        await drive_input_required(
            {"resultType": "input_required", "inputRequests": {"a": ELICIT}, "requestState": "s1"},
            answer=answer,
            retry=retry,
            sleep=no_sleep,
        )
    assert sent == ["s1"]
