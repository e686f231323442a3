"""Secrets out of everything the inspector writes or shows, in every spelling a server could echo them back in.

A secret is a value the user gave (``--bearer``, a credential header, an env value marked ``--secret``) or one a
login produced. A hostile or careless server may send it back as is, or encoded: JSON-escaped (once per level of
nesting: a stderr line in a recording, a message's text, JSON a tool returned as text), base64 (standard and
URL-safe, with or without padding, of the secret alone, of ``Bearer <secret>``, of ``user:<secret>`` or anything
else around it), percent-encoded, or hex. ``Redactor`` finds all of them and puts ``[redacted]`` in their place.

Base64 of a secret inside a longer text depends on where the secret starts (its offset modulo 3): for each of the
three alignments, the characters that encode only the secret's own bytes are the same whatever surrounds it, so
those are what is searched for; the one or two characters at each end that mix in a neighbour's bits are removed
with them (they are base64 characters next to the match).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterable
from functools import cache
from typing import Any, Final
from urllib.parse import quote, quote_plus

REDACTED: Final = "[redacted]"
MIN_SECRET: Final = 4
"""Shorter values are not redacted: they would blank out ordinary text."""
_B64_CHARS: Final = "A-Za-z0-9+/_\\-"


class Redactor:
    """Replaces every known secret, in every spelling, with ``[redacted]``. Empty: returns text unchanged."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets: list[str] = []
        self._pattern: re.Pattern[str] | None = None
        for secret in secrets:
            self.add(secret)

    def __bool__(self) -> bool:
        return bool(self._secrets)

    def add(self, secret: str) -> None:
        """Redact ``secret`` from now on (values shorter than ``MIN_SECRET`` are ignored)."""
        if len(secret) < MIN_SECRET or secret in self._secrets:
            return
        self._secrets.append(secret)
        forms = sorted({form for s in self._secrets for form in spellings(s)}, key=len, reverse=True)
        self._pattern = re.compile("|".join(_pattern_of(form) for form in forms))

    def redact(self, text: str) -> str:
        """``text`` with every spelling of every secret replaced."""
        if self._pattern is None:
            return text
        return self._pattern.sub(REDACTED, text)

    def found(self, text: str) -> bool:
        """True when ``text`` holds a secret in some spelling."""
        return self._pattern is not None and self._pattern.search(text) is not None

    def redact_value(self, value: Any) -> Any:
        """A JSON value with every string in it (keys too) redacted; the same object when nothing is found."""
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self.redact(value)
        if isinstance(value, dict):
            return {self.redact(str(k)): self.redact_value(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.redact_value(v) for v in value]
        return value


def _pattern_of(form: str) -> str:
    if form.startswith("\0b64:"):
        # a base64 core: take the neighbouring base64 characters that mix in the secret's bits with it
        return f"[{_B64_CHARS}]?{re.escape(form[5:])}[{_B64_CHARS}]?=*"
    return re.escape(form)


@cache
def spellings(secret: str) -> frozenset[str]:
    """Every form ``secret`` is searched for (base64 cores are marked ``\\0b64:``)."""
    forms: set[str] = set()
    for text in _escaped(secret) | _escaped(f"Bearer {secret}"):
        forms.add(text)
    raw = secret.encode("utf-8")
    forms.add(quote(secret, safe=""))
    forms.add(quote(secret))
    forms.add(quote_plus(secret))
    forms.add(binascii.hexlify(raw).decode())
    forms.add(binascii.hexlify(raw).decode().upper())
    for plain in (raw, b"Bearer " + raw):
        for core in _base64_cores(plain):
            forms.add("\0b64:" + core)
    return frozenset(form for form in forms if len(form.removeprefix("\0b64:")) >= MIN_SECRET)


def _escaped(secret: str) -> set[str]:
    """The secret as is and JSON-escaped up to three times, with and without ``\\uXXXX`` escapes."""
    forms = {secret}
    level = {secret}
    for _ in range(3):
        level = {json.dumps(form, ensure_ascii=ascii_only)[1:-1] for form in level for ascii_only in (False, True)}
        forms |= level
    return forms


def _base64_cores(raw: bytes) -> set[str]:
    """For each alignment of ``raw`` in a longer byte string, the base64 characters that encode only its bytes, in
    the standard and the URL-safe alphabet."""
    cores: set[str] = set()
    for offset in range(3):
        encoded = base64.b64encode(b"\0" * offset + raw + b"\0\0").decode()
        # characters fully inside raw: from the first 6-bit group that starts at or after raw's first bit, to the
        # last that ends at or before its last bit
        first = -(-offset * 8 // 6)
        last = (offset + len(raw)) * 8 // 6
        core = encoded[first:last]
        cores.add(core)
        cores.add(core.replace("+", "-").replace("/", "_"))
    return cores
