"""The builder's caching and result checks on records (what a recording holds), for what no server in a test can be
made to do on cue: the same ``public`` read answered otherwise once the session logged in again with a new token
(a result that varies by login), against the same read with no new token or the same answer. And where two
stories disagree, said path by path, and which texts are a serialization of ``structuredContent`` at all."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline
from inspector.timeline.build.tool_stories import ABSENT, disagreements, serialization_of
from inspector.timeline.model import Timeline
from inspector.timeline.records import Record

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}


def read(call: int, request_id: int, text: str, t: float) -> list[Record]:
    """A read of ``note://a`` as call ``call``, answered ``text``, public for a minute."""
    request = {"jsonrpc": "2.0", "id": request_id, "method": "resources/read",
               "params": {"uri": "note://a", "_meta": META}}  # fmt: skip
    contents = [{"uri": "note://a", "text": text}]
    result = {"resultType": "complete", "contents": contents, "ttlMs": 60_000, "cacheScope": "public"}
    return [
        records.call_started(t, call, "resources/read", {"uri": "note://a"}),
        records.wire(t + 0.01, "c2s", json.dumps(request), call=call),
        records.wire(t + 0.02, "s2c", json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result})),
    ]


def token(t: float) -> Record:
    """A login step that brought a new token (no call in flight: the session's)."""
    return {"t": t, "dir": "auth", "step": "token", "outcome": "ok", "what": "Bearer token, scope 'notes:all'"}


def codes(timeline: Timeline) -> list[tuple[str, int | None, str]]:
    return [(f.code, f.call_index, f.message) for f in timeline.findings if f.code == "cache-scope-public-varies"]


def test_a_public_read_that_answers_otherwise_after_a_new_token_varies_by_login() -> None:
    timeline = build_timeline([*read(1, 1, "my notes", 0.0), token(1.0), *read(2, 2, "the admin's notes", 2.0)])
    assert codes(timeline) == [
        (
            "cache-scope-public-varies",
            2,
            "resources/read is cacheScope public, but it answered otherwise than #1 once the session had a new token "
            "(token at 1.0 s): a result that varies by login",
        )
    ]


@pytest.mark.parametrize(
    "between, second",
    [([], "the admin's notes"), ([token(1.0)], "my notes")],
    ids=["no new token", "the same answer"],
)
def test_no_new_token_or_the_same_answer_is_no_finding(between: list[Record], second: str) -> None:
    timeline = build_timeline([*read(1, 1, "my notes", 0.0), *between, *read(2, 2, second, 2.0)])
    assert codes(timeline) == []


def test_the_two_stories_are_said_path_by_path_with_both_values() -> None:
    structured: Any = {"temperature": 22.5, "unit": "C", "ok": True, "hours": [1, 2], "wind": {"kmh": 10}}
    told: Any = {"temperature": 23, "unit": "C", "ok": 1, "hours": [1, 3], "wind": {"kmh": 10}, "extra": None}
    assert disagreements(structured, told) == [
        "temperature: structuredContent 22.5, text 23",
        "ok: structuredContent true, text 1",
        "hours[1]: structuredContent 2, text 3",
        "extra: structuredContent (none), text null",
    ]
    assert disagreements({"n": 1}, {"n": 1.0}) == [], "one JSON number"


@pytest.mark.parametrize(
    "text, serialization",
    [
        ('{"temperature": 23, "unit": "C"}', True),
        ('{"temperature": 23}', True),  # half the keys: a serialization that left one out
        ('{"city": "Lisbon", "country": "PT"}', False),  # other JSON, not this one
        ("It is 23 degrees.", False),
        ("[1, 2]", False),  # an array against an object
        ("{not json", False),
    ],
)
def test_a_text_is_a_serialization_only_when_it_reads_as_one(text: str, serialization: bool) -> None:
    assert (serialization_of(text, {"temperature": 22.5, "unit": "C"}) is not ABSENT) == serialization
