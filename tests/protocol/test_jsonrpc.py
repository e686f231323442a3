"""A wire message is read exactly as ``json.loads`` reads it, whichever decoder does the reading: the inspector shows
and lints the values a server sent (a request id of 2**70, a duplicate key, a NaN), so the fast decoder behind
``classify`` must never give a different value, and what it refuses must still parse the standard way."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.protocol.jsonrpc import classify

TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=30)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4))


def same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (1 is not 1.0, -0.0 is not 0.0, NaN is NaN)."""
    return repr(a) == repr(b)


@settings(max_examples=300)
@given(st.dictionaries(TEXT, JSON, max_size=5), st.booleans())
def test_a_message_parses_to_what_json_loads_gives(result: dict[str, Any], ascii_only: bool) -> None:
    raw = json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}, ensure_ascii=ascii_only)
    parsed = classify(raw)
    assert parsed.kind == "response"
    assert same(parsed.message, json.loads(raw))


@pytest.mark.parametrize(
    "value",
    [
        "2361183241434822606848",  # 2**71: beyond 64 bits, still an exact integer
        "-9223372036854775809",
        "NaN",
        "-Infinity",
        "1e400",  # beyond a double: inf, as json.loads reads it
        '"\\ud800"',  # an escaped lone surrogate
        "2.2250738585072011e-308",
        "0.30000000000000004",
        "-0.0",
        "1E5",
    ],
)
def test_values_the_fast_decoder_may_refuse_or_round_read_as_json_loads_reads_them(value: str) -> None:
    raw = '{"jsonrpc":"2.0","id":7,"result":{"v":' + value + "}}"
    parsed = classify(raw)
    assert parsed.kind == "response"
    assert same(parsed.message, json.loads(raw))


def test_a_text_holding_a_lone_surrogate_is_read_as_json_loads_reads_it() -> None:
    """A transport that hands up text with a lone surrogate (not UTF-8 encodable): the fast decoder cannot take it,
    and ``classify`` must still never raise."""
    raw = '{"jsonrpc":"2.0","id":3,"result":{"a":"' + chr(0xD800) + '"}}'
    parsed = classify(raw)
    assert parsed.kind == "response"
    assert same(parsed.message, json.loads(raw))


def test_a_duplicate_key_keeps_its_last_value_and_a_huge_id_stays_an_integer() -> None:
    parsed = classify('{"jsonrpc":"2.0","id":36893488147419103232,"result":{"a":1,"a":2}}')
    assert parsed.message == {"jsonrpc": "2.0", "id": 36893488147419103232, "result": {"a": 2}}
    assert parsed.id == 2**65


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ('{"jsonrpc":"2.0","id":1,"result":{}} {}', "not JSON"),
        ('{"jsonrpc":"2.0","id":1,"result":{"a":"\x00"}}', "not JSON"),
        ("{" * 5000 + "}" * 5000, "not JSON"),
        ('{"jsonrpc":"2.0","id":1,"result":[]}', '"result" is not an object'),
    ],
)
def test_what_no_decoder_reads_is_an_invalid_message_with_the_reason(raw: str, problem: str) -> None:
    parsed = classify(raw)
    assert parsed.kind == "invalid"
    assert parsed.problem is not None and parsed.problem.startswith(problem)
