"""Every JSON text the inspector makes by hand, in one place, each equal byte for byte to the standard encoding.

The exact text of a message is what crosses the wire, what the recording keeps and what proves a ``requestState``
was echoed, so a faster way of making it must give what ``json.dumps(value, ensure_ascii=False,
separators=(",", ":"))`` gives. Each function here has a property test (``tests/protocol/test_wire_text.py``) that
generates values and compares. Why each exists (measured on a ``tools/call`` round trip over stdio, the figures of
``tests/perf/bench_stdio.py``):

- ``dumps``: ``JSONEncoder.encode`` builds a new C encoder on every call, which costs about as much as encoding a
  small message (1.7 us against 0.7 us for a tool's params); the encoder is built once here instead.
- ``request_text`` and ``Encoded`` (the ``_meta`` envelope): the envelope is most of a small request's bytes (300
  of ~420) and the same on every request, so its text is made once a session and spliced in.
- ``recording_line``: the common wire record is serialized without walking a dict (its message text is most of
  the line, and for a message we wrote it is already made).
"""

from __future__ import annotations

import json
import json.encoder
from collections.abc import Callable
from typing import Any, Final

JsonObject = dict[str, Any]


def _compact_encoder() -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``, straight through the C encoder, built once,
    without the circular-reference check (``check_circular=False``): what we encode came from JSON or was built by
    us."""
    python_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False).encode
    make_c_encoder = getattr(json.encoder, "c_make_encoder", None)
    if make_c_encoder is None:  # a Python built without the _json accelerator
        return python_encode
    c_encode = make_c_encoder(
        None, json.JSONEncoder().default, json.encoder.encode_basestring, None, ":", ",", False, False, True
    )
    join = "".join

    def encode(value: Any) -> str:
        return join(c_encode(value, 0))

    return encode


dumps: Callable[[Any], str] = _compact_encoder()
"""Compact, non-ASCII-preserving JSON: one line, as stdio framing requires (json escapes newlines)."""
encode_string: Callable[[str], str] = json.encoder.encode_basestring
"""A string as a JSON string literal (what ``dumps`` gives for a ``str``), without the encoder's call overhead."""


class Encoded:
    """A JSON object with its exact text (``dumps(value)``), made once and shared: nothing may change ``value``."""

    __slots__ = ("text", "value")

    def __init__(self, value: JsonObject, text: str | None = None) -> None:
        self.value = value
        self.text = dumps(value) if text is None else text

    def extended(self, extra: JsonObject | None) -> Encoded:
        """This object with ``extra``'s keys after its own (a request's ``progressToken`` after the envelope)."""
        if not extra:
            return self
        value = self.value
        if len(extra) == 1:
            ((key, item),) = extra.items()
            if key.__class__ is str and item.__class__ is str and key not in value:
                # A progress token on every request: two string literals spliced in one f-string, without the
                # encoder's call, the merged dict's length check or the intermediate strings; 0.4 us of the 1.6 a
                # request's envelope took (timeit), 1,700 instructions a load call (tests/perf/bench_instructions.py
                # --as-load --concurrency 10).
                text = self.text
                comma = "," if value else ""
                return Encoded({**value, key: item}, f"{text[:-1]}{comma}{encode_string(key)}:{encode_string(item)}}}")
        merged = {**value, **extra}
        if len(merged) != len(value) + len(extra):  # a key replaced in place: encode it all
            return Encoded(merged)
        return Encoded(merged, (self.text[:-1] + "," if len(value) else "{") + dumps(extra)[1:])


def request(
    id_: int | str, method: str, params: JsonObject | None, meta: Encoded | None = None
) -> tuple[JsonObject, str]:
    """A JSON-RPC request and its exact text. ``meta`` (a modern request's envelope) goes into the params as
    ``_meta``, after the keys they have; params that carry a ``_meta`` of their own keep its keys over the
    envelope's."""
    message: JsonObject = {"jsonrpc": "2.0", "id": id_, "method": method}
    if meta is not None and params is not None and "_meta" not in params:
        message["params"] = {**params, "_meta": meta.value}
        return message, request_text(id_, method, params, meta.text)
    if meta is not None:
        given = dict(params or {})
        own = given.get("_meta")
        given["_meta"] = {**meta.value, **own} if isinstance(own, dict) else meta.value
        params = given
    if params is not None:
        message["params"] = params
    return message, dumps(message)


def request_text(id_: int | str, method: str, params: JsonObject, meta_text: str) -> str:
    """Exactly ``dumps({"jsonrpc": "2.0", "id": id_, "method": method, "params": {**params, "_meta": meta}})`` given
    ``meta_text == dumps(meta)``, without encoding the meta again. ``params`` must not hold ``_meta`` itself."""
    head = dumps(params)
    params_text = (head[:-1] + ',"_meta":' if len(head) > 2 else '{"_meta":') + meta_text + "}"
    ident = str(id_) if id_.__class__ is int else dumps(id_)
    return '{"jsonrpc":"2.0","id":' + ident + ',"method":' + encode_string(method) + ',"params":' + params_text + "}"


# The shapes of the common wire and stderr records, in the key order ``records.wire`` and ``records.stderr`` build.
_FAST_SHAPES: Final[dict[tuple[str, ...], str]] = {
    ("t", "dir", "raw"): "raw",
    ("t", "dir", "raw", "call"): "raw",
    ("t", "dir", "msg"): "msg",
    ("t", "dir", "msg", "call"): "msg",
}
_PLAIN_DIRECTIONS: Final = frozenset({"c2s", "s2c", "stderr"})


def recording_line(record: JsonObject, msg_text: str | None = None) -> str:
    """One recording line: exactly ``dumps(record)``. ``msg_text``, when given, is ``dumps(record["msg"])``.

    The common wire record is made without walking a dict; any other record is encoded as usual."""
    shape = _FAST_SHAPES.get(tuple(record))
    t = record["t"] if shape is not None else None
    if t.__class__ is not float or record["dir"] not in _PLAIN_DIRECTIONS:
        return dumps(record)
    if shape == "raw":
        raw = record["raw"]
        if raw.__class__ is not str:
            return dumps(record)
        body = '","raw":' + encode_string(raw)
    elif msg_text is not None:
        body = '","msg":' + msg_text
    else:
        return dumps(record)
    if "call" not in record:
        return f'{{"t":{t!r},"dir":"{record["dir"]}{body}}}'
    call = record["call"]
    if call.__class__ is not int:
        return dumps(record)
    return f'{{"t":{t!r},"dir":"{record["dir"]}{body},"call":{call}}}'
