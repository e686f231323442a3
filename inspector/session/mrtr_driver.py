"""The MRTR driver (SEP-2322): answer input requests and retry until the server completes.

A plain async function over injected closures, so it is tested with no transport at all (the shape of the official
Python SDK's ``_input_required.py``). ``answer(key, input_request)`` returns the input response; ``retry(responses,
state)`` sends the original request again with a NEW id, the ``inputResponses`` and the ``requestState`` echoed byte
for byte (``None`` = omit), and returns the next result object.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from inspector.protocol.jsonrpc import JsonObject
from inspector.timeline.findings import input_required_problems

AnswerFn = Callable[[str, JsonObject], Awaitable[JsonObject]]
RetryFn = Callable[[JsonObject | None, str | None], Awaitable[JsonObject]]
SleepFn = Callable[[float], Awaitable[None]]

DEFAULT_MAX_ROUNDS = 10
BACKOFF_START_S = 0.05
BACKOFF_MAX_S = 0.25


class RoundCapReached(Exception):
    """The server answered input_required ``rounds`` times in a row."""

    def __init__(self, rounds: int, last: JsonObject) -> None:
        super().__init__(f"still input_required after {rounds} rounds")
        self.rounds = rounds
        self.last = last


class MalformedInputRequired(Exception):
    """An InputRequiredResult that cannot be answered or retried (an invalid response): ``problems`` say why."""

    def __init__(self, problems: list[str], result: JsonObject) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems
        self.result = result


@dataclass(frozen=True, slots=True)
class Driven:
    """The final result and how many rounds it took (1 = no input was required)."""

    result: JsonObject
    rounds: int


def is_input_required(result: JsonObject) -> bool:
    """True when the result asks for input (or is a state-only retry request)."""
    return result.get("resultType") == "input_required"


async def drive_input_required(
    first: JsonObject,
    *,
    answer: AnswerFn,
    retry: RetryFn,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    sleep: SleepFn = asyncio.sleep,
) -> Driven:
    """Loop until a result is not ``input_required``; raise ``RoundCapReached`` after ``max_rounds`` rounds.

    A malformed InputRequiredResult (neither inputRequests nor requestState, a non-object inputRequests, a
    non-string requestState, an entry that is not an input request) raises ``MalformedInputRequired`` before
    anything is answered or retried: it cannot be echoed faithfully, and retrying it would only loop.

    Input requests of one round are answered one after another (a person answers them in turn), and the retry is
    sent only when all are answered. A state-only round (no inputRequests) is retried after a backoff that starts at
    50 ms and doubles up to 250 ms, as the SDKs do, so a load-shedding server is not hammered.
    """
    result = first
    rounds = 1
    backoff = BACKOFF_START_S
    while is_input_required(result):
        problems = input_required_problems(result)
        if problems:
            raise MalformedInputRequired(problems, result)
        if rounds >= max_rounds:
            raise RoundCapReached(rounds, result)
        requests = result.get("inputRequests")
        state = result.get("requestState")
        echoed = state if isinstance(state, str) else None
        responses: JsonObject | None = None
        if isinstance(requests, dict) and requests:
            responses = {}
            for key, request in requests.items():
                responses[key] = await answer(key, request if isinstance(request, dict) else {})
            backoff = BACKOFF_START_S
        else:
            await sleep(backoff)
            backoff = min(backoff * 2, BACKOFF_MAX_S)
        result = await retry(responses, echoed)
        rounds += 1
    return Driven(result, rounds)
