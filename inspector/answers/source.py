"""The one interface every answer source keeps: ``answer(key, input_request) -> input_response``.

An *input request* is ``{"method": "elicitation/create" | "sampling/createMessage" | "roots/list", "params": {...}}``:
an entry of an MRTR ``inputRequests`` map, or a legacy server->client request stripped of ``jsonrpc`` and ``id``.
Its *key* is the ``inputRequests`` key; a legacy server request has none (``None``).
The *input response* is the exact object sent back: an ElicitResult, CreateMessageResult or ListRootsResult.
Decline and cancel are answers (``{"action": "decline"}``), not failures.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol

InputRequest = dict[str, Any]
InputResponse = dict[str, Any]

Party = Literal["person", "model", "client"]
"""Whose time an answer took: a person's (a dialog, a form, a consent page), a model's (the stub model writing a
sampling reply), the client's own (an answers file, a policy, the configured roots, a recording)."""
PARTIES: Final[tuple[Party, ...]] = ("person", "model", "client")
YOU: Final = "you"
"""The source of an answer a person gave in a dialog, and the person's name wherever their time is shown."""

ANSWER_CLOCK: ContextVar[Callable[[], float]] = ContextVar("inspector_answer_clock", default=time.monotonic)
"""The clock of the session whose question is being answered (``ask`` sets it): a source that times a part of its
answer (``Answer.model_ms``) reads it, so the part is on the same clock as the session's records (a step clock in
screenshots, a test's own clock)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """An input response plus who gave it (shown on the timeline: "you", "answers file", "stub model", ...) and
    whose time it took."""

    response: InputResponse
    source: str
    party: Party = "client"
    """Who was waited on for it: the person (a dialog was shown), a model, or the client's own sources."""
    model_ms: float | None = None
    """The part of the wait a model computed, when the party waited on handed the question to a model (the person
    who pressed "stub model" in the sampling dialog): the model's time, told apart from the person's reading."""


class NoAnswer(Exception):
    """No source could answer this input request; the call stops with exit code 5.

    ``reason`` says what happened and what to try (e.g. "add a 'github_login' entry to the answers file").
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Skip(NoAnswer):
    """This source has nothing for this request ("not mine"); an ``AnswerChain`` tries the next source.

    It is a ``NoAnswer`` so that a source used on its own still fails with a reason the user can act on;
    only the chain treats it as "fall through". ``reason`` is kept and shown if no later source answers.
    """


class NotAsked(Skip):
    """A ``Skip`` from a source the user did not configure (the empty roots given when no ``--root`` was): the chain
    falls through without listing it among what it tried, which would tell the user of a source they never set."""


class AnswerRefused(NoAnswer):
    """An answer was found but is not valid for the request (e.g. it fails ``requestedSchema``)."""


class CallCancelled(Exception):
    """The user chose to cancel the whole call rather than answer (the TUI's Escape)."""


class AnswerSource(Protocol):
    """Anything that can answer input requests."""

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """Answer one input request, or raise ``NoAnswer`` / ``CallCancelled``."""
        ...


async def ask(source: AnswerSource, key: str | None, request: InputRequest, clock: Callable[[], float]) -> Answer:
    """``source``'s answer, asked on the session's ``clock`` (``ANSWER_CLOCK``)."""
    token = ANSWER_CLOCK.set(clock)
    try:
        return await source.answer(key, request)
    finally:
        ANSWER_CLOCK.reset(token)


def describe_request(key: str | None, request: InputRequest) -> str:
    """A short name for an input request in messages: ``'github_login' (elicitation/create)``."""
    method = request.get("method", "?")
    if key is None:
        return f"legacy {method} request"
    return f"{key!r} ({method})"
