"""Secrets are redacted in every spelling a server could echo them back in (the classes of the hostile issue:
as is, JSON-escaped, base64 standard and URL-safe with and without padding, of the secret alone, of
``Bearer <secret>``, of ``user:<secret>`` and inside longer texts at every alignment, percent-encoded, hex)."""

from __future__ import annotations

import base64
import json
import urllib.parse

import pytest

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
