"""What a re-run needs of one recorded call, as plain data: what was sent, the answers given to what the server
asked, and how it ended.

``replay --against`` takes one of each recorded call it re-runs; a module written by ``export --as pytest`` holds
them as literals (``RecordedCall(number=5, method="tools/call", params=..., result=...)``), so the test re-runs a
call without the recording or its timeline. One definition of "the recorded ending" for both: a catalog list is the
items of every page, as ``list_all`` returns them; a subscription is how long it lasted and what it asked for.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.protocol.caching import CacheHints
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import LIST_METHODS, SUBSCRIBE, SUBSCRIPTION_METHODS
from inspector.replay.recorded_answers import RecordedAnswer, recorded_answers
from inspector.timeline.model import Call, CallStatus

SUBSCRIPTION_LENGTH_MAX_S: Final = 60.0
"""A recorded subscription is re-run for as long as it lasted, up to this (a day-long listen is not re-lived)."""


@dataclass(frozen=True, slots=True)
class RecordedCall:
    """One recorded call: ``#number``, its request, its answers in the order given, its status and final result
    (or JSON-RPC error)."""

    number: int
    method: str
    params: JsonObject
    """As the user asked, before ``_meta``, ``inputResponses`` and ``requestState`` were added."""
    status: CallStatus
    result: JsonObject | None = None
    """The final result; for a catalog list, every page's items as one result."""
    error: JsonObject | None = None
    answers: list[RecordedAnswer] = field(default_factory=list)
    lasted_s: float = 0.0
    """A subscription: how long it lasted when recorded (at most ``SUBSCRIPTION_LENGTH_MAX_S``)."""
    uris: list[str] = field(default_factory=list)
    """A 2025-11-25 ``resources/subscribe`` subscription: the URIs it asked for."""

    @classmethod
    def of(cls, call: Call) -> RecordedCall:
        """What ``call`` of a recorded timeline sent, was answered and ended with."""
        result = _list_items(call) if call.method in LIST_METHODS and call.status == "complete" else call.result
        lasted_s, uris = 0.0, []
        if call.method in SUBSCRIPTION_METHODS:
            lasted_s = _length_s(call)
            asked = call.listen.asked.get("resourceSubscriptions") if call.listen is not None else None
            if call.method == SUBSCRIBE and isinstance(asked, list):
                uris = [uri for uri in asked if isinstance(uri, str)]
        return cls(
            call.index,
            call.method,
            call.params,
            call.status,
            result,
            call.error,
            recorded_answers(call),
            lasted_s,
            uris,
        )

    def fresh_answers(self) -> list[RecordedAnswer]:
        """Its answers, none used yet (a re-run marks each one it gives; the recorded call stays as it was)."""
        return [dataclasses.replace(answer, used=False) for answer in self.answers]


def _length_s(call: Call) -> float:
    """How long a recorded subscription lasted (its end, or its last round), at most ``SUBSCRIPTION_LENGTH_MAX_S``."""
    if not call.rounds and call.finished_at is None:
        return 0.0
    end = call.finished_at if call.finished_at is not None else max(r.started_at for r in call.rounds)
    return max(0.0, min(end - call.started_at, SUBSCRIPTION_LENGTH_MAX_S))


def _list_items(call: Call) -> JsonObject | None:
    """A recorded catalog list as one result: the items of every page, like ``list_all`` returns them."""
    if call.cached is not None:
        return call.cached.result  # (served from the client's cache: no page, the result as list_all gave it)
    field_name = LIST_METHODS[call.method].items_field
    items: list[Any] = []
    pages: list[JsonObject] = []
    for round_ in call.rounds:
        page = round_.result
        if page is None:
            return call.result
        pages.append(page)
        found = page.get(field_name)
        if isinstance(found, list):
            items.extend(item for item in found if isinstance(item, dict))
    return {field_name: items, **CacheHints.of_pages(pages).fields()}
