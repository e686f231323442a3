"""The one interface every answer source keeps: ``answer(key, input_request) -> input_response``.

An *input request* is ``{"method": "elicitation/create" | "sampling/createMessage" | "roots/list", "params": {...}}``:
an entry of an MRTR ``inputRequests`` map, or a legacy server->client request stripped of ``jsonrpc`` and ``id``.
Its *key* is the ``inputRequests`` key; a legacy server request has none (``None``).
The *input response* is the exact object sent back: an ElicitResult, CreateMessageResult or ListRootsResult.
Decline and cancel are answers (``{"action": "decline"}``), not failures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

InputRequest = dict[str, Any]
InputResponse = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Answer:
    """An input response plus who gave it (shown on the timeline: "you", "answers file", "stub model", ...)."""

    response: InputResponse
    source: str


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


class AnswerRefused(NoAnswer):
    """An answer was found but is not valid for the request (e.g. it fails ``requestedSchema``)."""


class CallCancelled(Exception):
    """The user chose to cancel the whole call rather than answer (the TUI's Escape)."""


class AnswerSource(Protocol):
    """Anything that can answer input requests."""

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """Answer one input request, or raise ``NoAnswer`` / ``CallCancelled``."""
        ...


def describe_request(key: str | None, request: InputRequest) -> str:
    """A short name for an input request in messages: ``'github_login' (elicitation/create)``."""
    method = request.get("method", "?")
    if key is None:
        return f"legacy {method} request"
    return f"{key!r} ({method})"
