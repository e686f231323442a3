"""Every hand-made JSON text is exactly the standard encoding, ``json.dumps(v, ensure_ascii=False,
separators=(",", ":"))``, for any value: recordings store our own messages as objects and rebuild their text with
``dumps``, and the requestState echo check compares texts, so a fast path that differs by one byte would show a
state as not echoed, or replay a message the server never saw. One property test per shape (hypothesis).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.protocol.envelope import Envelope, build_meta
from inspector.protocol.wire_text import Encoded, dumps, encode_string, recording_line, request, request_text

TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=40)
"""Any Unicode text (controls, quotes, backslashes, U+2028, astral characters), but no lone surrogates."""
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4))
OBJECTS = st.dictionaries(TEXT, JSON, max_size=5)
IDS = st.integers(min_value=-(2**63), max_value=2**63) | TEXT


def standard(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@settings(max_examples=300)
@given(JSON)
def test_dumps_is_the_standard_compact_encoding(value: Any) -> None:
    assert dumps(value) == standard(value)


@given(TEXT)
def test_encode_string_is_the_standard_string_literal(text: str) -> None:
    assert encode_string(text) == json.dumps(text, ensure_ascii=False)


@given(IDS, TEXT, OBJECTS.filter(lambda p: "_meta" not in p), OBJECTS)
def test_a_request_spliced_with_its_meta_text_equals_the_encoded_message(
    request_id: int | str, method: str, params: dict[str, Any], meta_value: dict[str, Any]
) -> None:
    meta = Encoded(meta_value)
    assert request_text(request_id, method, params, meta.text) == standard(
        {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**params, "_meta": meta_value}}
    )


@given(IDS, OBJECTS | st.none(), OBJECTS | st.none())
def test_request_gives_the_message_and_exactly_its_text(
    request_id: int | str, params: dict[str, Any] | None, meta_value: dict[str, Any] | None
) -> None:
    meta = Encoded(meta_value) if meta_value is not None else None
    message, text = request(request_id, "tools/call", params, meta)
    assert text == standard(message)
    if meta is not None:
        sent = message["params"]["_meta"]
        own = (params or {}).get("_meta")
        # keys the caller already put in _meta win over the envelope's
        assert sent == ({**meta.value, **own} if isinstance(own, dict) else meta.value)
    else:
        assert message.get("params") == params


@given(OBJECTS, OBJECTS)
def test_extending_an_encoded_object_equals_encoding_the_merged_object(
    base: dict[str, Any], extra: dict[str, Any]
) -> None:
    extended = Encoded(base).extended(extra)
    assert extended.value == {**base, **extra}
    assert extended.text == standard(extended.value)


@given(OBJECTS, TEXT, TEXT)
def test_extending_by_one_string_equals_encoding_the_merged_object(base: dict[str, Any], key: str, value: str) -> None:
    # (the progress token of every request: one string key and value, spliced without the encoder)
    extended = Encoded(base).extended({key: value})
    assert extended.value == {**base, key: value}
    assert extended.text == standard(extended.value)


def test_an_extra_key_that_replaces_an_envelope_key_is_encoded_in_place() -> None:
    meta = Envelope("2026-07-28").meta({"io.modelcontextprotocol/protocolVersion": "2099-01-01", "progressToken": "t"})
    assert meta.text == dumps(meta.value)
    assert next(iter(meta.value)) == "io.modelcontextprotocol/protocolVersion"


def test_the_envelope_keeps_its_own_copy_of_the_capabilities() -> None:
    capabilities: dict[str, Any] = {"elicitation": {"form": {}}, "sampling": {}}
    envelope = Envelope("2026-07-28", capabilities)
    capabilities["elicitation"]["url"] = {}  # the caller changes its dict afterwards
    capabilities["roots"] = {}
    meta = envelope.meta()
    assert meta.value == build_meta("2026-07-28", {"elicitation": {"form": {}}, "sampling": {}})
    assert meta.text == dumps(meta.value)


RECORD_SHAPES = st.fixed_dictionaries(
    {"t": st.floats(allow_nan=False, allow_infinity=False), "dir": st.sampled_from(["c2s", "s2c", "stderr", "event"])}
)


@settings(max_examples=300)
@given(
    RECORD_SHAPES,
    st.sampled_from(["raw", "msg"]),
    TEXT,
    OBJECTS,
    st.none() | st.integers(min_value=1, max_value=10**6),
    st.none() | st.dictionaries(st.sampled_from(["http", "reply_to"]), JSON, max_size=2),
)
def test_a_recording_line_is_the_standard_encoding_of_its_record(
    head: dict[str, Any],
    body: str,
    raw: str,
    message: dict[str, Any],
    call: int | None,
    more: dict[str, Any] | None,
) -> None:
    record: dict[str, Any] = dict(head)
    record[body] = raw if body == "raw" else message
    if call is not None:
        record["call"] = call
    record.update(more or {})
    msg_text = dumps(message) if body == "msg" else None
    assert recording_line(record, msg_text) == standard(record)
    assert recording_line(record) == standard(record)
