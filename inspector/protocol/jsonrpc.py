"""JSON-RPC 2.0 text <-> values, keeping the exact wire text beside the parsed form.

An inspector exists to show broken traffic, so parsing never raises: a line that is not JSON, or not a JSON-RPC
message, comes back as a ``WireParse`` whose ``kind`` is ``"invalid"`` and whose ``problem`` says why.
"""

from __future__ import annotations

import json
from dataclasses import field
from typing import Any, Literal, TypeAlias

import msgspec

from inspector.protocol.json_values import json_id
from inspector.protocol.values import message_value

JsonObject: TypeAlias = dict[str, Any]
RequestId: TypeAlias = int | str

MessageKind = Literal["request", "notification", "response", "error", "invalid"]


@message_value
class WireParse:
    """One message as it crossed the wire: its exact text, its kind and (when it parsed) its object.

    ``id`` and ``method`` are read once here, because every layer above asks for them.
    """

    raw: str
    kind: MessageKind
    message: JsonObject | None = None
    problem: str | None = None
    id: RequestId | None = field(default=None, init=False)
    """The JSON-RPC id, when the message has a usable one (a string or an integer, never a boolean)."""
    method: str | None = field(default=None, init=False)
    """The method name of a request or notification."""

    def __post_init__(self) -> None:
        message = self.message
        if message is not None:
            value = message.get("id")
            if value.__class__ is int or value.__class__ is str:
                object.__setattr__(self, "id", value)
            method = message.get("method")
            if method.__class__ is str:
                object.__setattr__(self, "method", method)


_raw_decode = json.JSONDecoder().raw_decode
"""What ``json.loads`` runs after stripping whitespace and refusing a BOM (the C scanner, from an index)."""
_fast_decode = msgspec.json.Decoder().decode
"""msgspec's JSON decoder: for what it accepts, the value ``json.loads`` gives (integers of any size exact, the last
of duplicate keys kept; ``tests/protocol/test_jsonrpc.py`` compares them), in a third of the time for a reply (0.9 us
against 2.4 us for the echo server's). What it refuses and ``json.loads`` takes (``NaN``, ``1e400``, an escaped lone
surrogate, or a text holding a lone surrogate, which it cannot encode as UTF-8) goes the standard way. Not orjson:
it turns an integer beyond 64 bits into a float without a word, and a guard that looks for one costs more than the
decoder saves."""


def _whole_object(raw: str) -> tuple[Any, bool]:
    """``raw`` (which starts with ``{`` and ends with ``}``) as ``json.loads`` reads it, and whether it read."""
    try:
        return _fast_decode(raw), True
    except Exception:  # (whatever it refuses, json reads or words: DecodeError, UnicodeEncodeError, RecursionError)
        pass
    try:
        value, end = _raw_decode(raw)
    except Exception:  # reparsed by the caller, which words the error
        return None, False
    return value, end == len(raw)


def classify(raw: str) -> WireParse:
    """Parse one wire message without ever raising."""
    if raw[:1] == "{" and raw[-1:] == "}":
        # The common case, a whole object with no surrounding whitespace: the decoder alone gives what json.loads
        # would (anything else takes the full path below, which also words the errors).
        value, whole = _whole_object(raw)
        if whole:
            result = value.get("result")
            ident = value.get("id")
            if (
                result.__class__ is dict
                and (ident.__class__ is int or ident.__class__ is str)
                and value.get("jsonrpc") == "2.0"
                and "method" not in value
                and "error" not in value
            ):
                return WireParse(raw, "response", value)  # the shape of nearly every line: a success response
            return _classify_object(raw, value)
    try:
        value = json.loads(raw)
    except (json.JSONDecodeError, RecursionError) as exc:
        return WireParse(raw, "invalid", None, f"not JSON: {exc}")
    if isinstance(value, list):
        return WireParse(
            raw, "invalid", None, "a JSON-RPC batch (arrays are not part of the protocol since 2025-06-18)"
        )
    if not isinstance(value, dict):
        return WireParse(raw, "invalid", None, f"JSON {type(value).__name__}, not a JSON-RPC object")
    return _classify_object(raw, value)


def _classify_object(raw: str, message: JsonObject) -> WireParse:
    if message.get("jsonrpc") != "2.0":
        return WireParse(raw, "invalid", message, 'missing or wrong "jsonrpc": "2.0"')
    has_id = "id" in message
    if "method" in message:
        if not isinstance(message["method"], str):
            return WireParse(raw, "invalid", message, '"method" is not a string')
        if not has_id:
            return WireParse(raw, "notification", message)
        if json_id(message["id"]) is None:
            return WireParse(raw, "invalid", message, 'request "id" must be a string or an integer')
        return WireParse(raw, "request", message)
    if "result" in message and "error" in message:
        return WireParse(raw, "invalid", message, 'a response carries both "result" and "error"')
    if "error" in message:
        error = message["error"]
        if not isinstance(error, dict) or not isinstance(error.get("code"), int):
            return WireParse(raw, "invalid", message, 'error object without an integer "code"')
        return WireParse(raw, "error", message)
    if "result" in message:
        if not has_id or json_id(message["id"]) is None:
            return WireParse(raw, "invalid", message, 'response "id" must be a string or an integer')
        if not isinstance(message["result"], dict):
            return WireParse(raw, "invalid", message, '"result" is not an object')
        return WireParse(raw, "response", message)
    return WireParse(raw, "invalid", message, 'neither "method", "result" nor "error"')


def notification(method: str, params: JsonObject | None) -> JsonObject:
    """A JSON-RPC notification object."""
    message: JsonObject = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def result_response(id_: RequestId, result: JsonObject) -> JsonObject:
    """A JSON-RPC success response (only legacy servers ever receive one from us)."""
    return {"jsonrpc": "2.0", "id": id_, "result": result}


def error_response(id_: RequestId | None, code: int, message: str, data: Any = None) -> JsonObject:
    """A JSON-RPC error response."""
    error: JsonObject = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": id_, "error": error}
