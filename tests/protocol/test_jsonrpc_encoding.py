"""The wire text we write is exactly ``json.dumps(message, ensure_ascii=False, separators=(",", ":"))``.

Recordings store our own messages as objects and rebuild their text with ``dumps`` (records.raw_text), and the
requestState echo check compares texts, so the fast encoders must agree with the standard one byte for byte.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.protocol.envelope import Envelope, build_meta
from inspector.protocol.jsonrpc import dumps, encode_string, request, request_text

VALUES: list[Any] = [
    {"text": "hello"},
    {},
    [],
    {"nested": {"list": [1, 2.5, -0.0, 1e300, None, True, False], "empty": {}}},
    {"unicode": "é ü 漢字 \U0001f600", "controls": "\n\t\r\x00\x1f\x7f", "separators": "\u2028\u2029"},
    {"quotes": '"\\/', "big": 2**70, "neg": -(2**63)},
    "a plain string",
    12345,
    {"1": "keys stay strings"},
]


@pytest.mark.parametrize("value", VALUES)
def test_dumps_is_the_standard_compact_encoding(value: Any) -> None:
    assert dumps(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_encode_string_is_the_standard_string_literal() -> None:
    for text in ["tools/call", 'é\u2028"\\\n', ""]:
        assert encode_string(text) == json.dumps(text, ensure_ascii=False)


@pytest.mark.parametrize("params", [{"name": "echo", "arguments": {"text": "hé"}}, {}, {"uri": "demo://report"}])
@pytest.mark.parametrize("request_id", [7, "id-ü", 2**40])
def test_a_request_spliced_with_its_meta_text_equals_the_encoded_message(params: Any, request_id: Any) -> None:
    envelope = Envelope("2026-07-28")
    for extra in (None, {"progressToken": "p1.2"}, {"progressToken": 3, "io.example/x": {"k": ["v"]}}):
        meta = envelope.meta(extra)
        assert meta.text == dumps(meta.value)
        message = request(request_id, "tools/call", {**params, "_meta": meta.value})
        assert request_text(request_id, "tools/call", params, meta.text) == dumps(message)


def test_an_extra_key_that_replaces_an_envelope_key_is_encoded_in_place() -> None:
    envelope = Envelope("2026-07-28")
    meta = envelope.meta({"io.modelcontextprotocol/protocolVersion": "2099-01-01", "progressToken": "t"})
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
