"""Secrets are redacted in every spelling a server could echo them back in (the classes of the hostile issues:
as is, JSON-escaped at any depth, ``\\uXXXX``-escaped, base64 standard, URL-safe and MIME-wrapped with and without
padding, of the secret alone, of ``Bearer <secret>``, of ``user:<secret>`` and inside longer texts at every
alignment, base32, percent-encoded byte by byte in either case, hex in either case with or without separators, HTML
numeric entities), for fixed secrets and as a property over random ones."""

from __future__ import annotations

import base64
import json
import urllib.parse

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.protocol.redact import REDACTED, Redactor

SECRETS = ["s3cr3t-token-0042", 'tok"en\\with-quote-é-42', "ab/c+d=ef?", "xyzw"]


def encodings(secret: str) -> dict[str, str]:
    raw = secret.encode()
    forms = {
        "plain": secret,
        "json once": json.dumps(secret)[1:-1],
        "json twice": json.dumps(json.dumps(secret))[1:-1],
        "json ascii": json.dumps(secret, ensure_ascii=True)[1:-1],
        "percent": urllib.parse.quote(secret, safe=""),
        "percent plus": urllib.parse.quote_plus(secret),
        "hex": raw.hex(),
        "HEX": raw.hex().upper(),
        "json four deep": _json_deep(secret, 4),
        "json five deep": _json_deep(secret, 5),
        "\\u escapes": "".join(f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else c for c in secret),
        "\\u escapes upper": "".join(f"\\u{ord(c):04X}" if ord(c) <= 0xFFFF else c for c in secret),
        "percent every byte": "".join(f"%{b:02x}" for b in raw),
        "PERCENT every byte": "".join(f"%{b:02X}" for b in raw),
        "percent dash only": secret.replace("-", "%2d"),
        "html decimal": "".join(f"&#{ord(c)};" for c in secret),
        "html hex": "".join(f"&#x{ord(c):x};" for c in secret),
        "hex colons": raw.hex(":"),
        "HEX spaces": raw.hex(" ").upper(),
        "base32": base64.b32encode(raw).decode(),
        "base32 lower": base64.b32encode(b"k=" + raw).decode().lower().rstrip("="),
        "base64 mime": _mime(base64.b64encode(b"x" * 60 + raw).decode()),
        "base64 mime in json": json.dumps(_mime(base64.b64encode(b"x" * 60 + raw).decode()))[1:-1],
    }
    for label, plain in {
        "alone": raw,
        "bearer": b"Bearer " + raw,
        "user": b"user:" + raw,
        "offset 1": b"x" + raw + b"y",
        "offset 2": b"xy" + raw,
        "query": b"token=" + raw + b"&z=1",
    }.items():
        for alphabet, encode in (("std", base64.b64encode), ("urlsafe", base64.urlsafe_b64encode)):
            text = encode(plain).decode()
            forms[f"base64 {alphabet} {label}"] = text
            forms[f"base64 {alphabet} {label} unpadded"] = text.rstrip("=")
    return forms


def _json_deep(secret: str, depth: int) -> str:
    """The secret JSON-escaped ``depth`` times (a string inside a string inside ...), without the outer quotes."""
    text = secret
    for _ in range(depth):
        text = json.dumps(text)[1:-1]
    return text


def _mime(text: str) -> str:
    """Base64 wrapped as MIME does, at 76 characters a line."""
    return "\r\n".join(text[i : i + 76] for i in range(0, len(text), 76))


@pytest.mark.parametrize("secret", SECRETS)
def test_every_encoding_of_a_secret_is_redacted(secret: str) -> None:
    redactor = Redactor([secret])
    for label, form in encodings(secret).items():
        shown = redactor.redact(f"before {form} after")
        assert REDACTED in shown, label
        assert form not in shown, label
        rest = shown.replace(REDACTED, "")
        for other in encodings(secret).values():
            assert other not in rest or len(other) < 4, (label, other)


def test_base64_of_a_secret_decodes_to_nothing_that_holds_it() -> None:
    secret = "s3cr3t-token-0042"
    redactor = Redactor([secret])
    for prefix in (b"", b"u:", b"user:", b"Bearer ", b"k=v&token="):
        encoded = base64.b64encode(prefix + secret.encode() + b"!").decode()
        shown = redactor.redact(encoded)
        for piece in shown.split(REDACTED):
            padded = piece + "=" * (-len(piece) % 4)
            try:
                decoded = base64.b64decode(padded, validate=False)
            except ValueError:
                continue
            assert secret.encode()[:6] not in decoded


def test_ordinary_text_and_short_values_are_left_alone() -> None:
    redactor = Redactor(["abc", "s3cr3t-token-0042"])  # "abc" is too short to redact safely
    text = "abc def: the quick brown fox; base64 of nothing: aGVsbG8="
    assert redactor.redact(text) == text
    assert not Redactor() and Redactor().redact(text) == text


def test_json_values_are_redacted_key_and_value() -> None:
    redactor = Redactor(["s3cr3t-token-0042"])
    value = {"s3cr3t-token-0042": ["x s3cr3t-token-0042 y", 3, None], "ok": {"nested": "s3cr3t-token-0042"}}
    assert json.dumps(redactor.redact_value(value)).count(REDACTED) == 3


@settings(max_examples=60, deadline=None)
@given(secret=st.text(st.characters(codec="utf-8"), min_size=8, max_size=40))
def test_any_secret_in_any_ordinary_encoding_is_redacted(secret: str) -> None:
    """A property: random secrets (any character UTF-8 can spell: no lone surrogates), each spelling of
    ``encodings`` inside other text, is found and replaced, whatever the secret holds."""
    redactor = Redactor([secret])
    for label, form in encodings(secret).items():
        shown = redactor.redact(f"before {form} after")
        assert REDACTED in shown and form not in shown.replace(REDACTED, "\0"), (label, form)
