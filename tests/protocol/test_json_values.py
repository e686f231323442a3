"""A number or an id read as JSON types it: ``true`` parses to Python's ``True``, an ``int``, and must never pass for 1
(a ``maxTokens: true`` limiting a reply to one token, a ``ttlMs: true`` of one millisecond, ``id: true`` matching
request 1). Nor may ``NaN`` or ``Infinity``, which Python's parser reads from a server's text though JSON has no such
number."""

from __future__ import annotations

import json

import pytest

from inspector.protocol.json_values import json_id, json_int, json_number


@pytest.mark.parametrize(
    ("text", "integer", "number", "ident"),
    [
        ("1", 1, 1, 1),
        ("0", 0, 0, 0),
        ("-7", -7, -7, -7),
        ("2.5", None, 2.5, None),
        ("1.0", None, 1.0, None),
        ('"1"', None, None, "1"),
        ("true", None, None, None),
        ("false", None, None, None),
        ("null", None, None, None),
        ("NaN", None, None, None),
        ("Infinity", None, None, None),
        ("-Infinity", None, None, None),
        ("[1]", None, None, None),
        ('{"n": 1}', None, None, None),
    ],
)
def test_json_values_as_the_protocol_types_them(
    text: str, integer: int | None, number: float | None, ident: int | str | None
) -> None:
    value = json.loads(text)
    assert json_int(value) == integer
    assert json_number(value) == number
    assert json_id(value) == ident
    for got, want in ((json_int(value), integer), (json_number(value), number), (json_id(value), ident)):
        assert type(got) is type(want), f"{text}: {got!r} is not {want!r}"  # (True == 1: compare the types too)
