"""Secrets out of everything the inspector writes or shows, in every spelling a server could echo them back in.

A secret is a value the user gave (``--bearer``, a credential header, an env value marked ``--secret``) or one a
login produced. A hostile or careless server may send it back as is, or encoded. ``Redactor`` finds these and puts
``[redacted]`` in their place:

- character by character, each character in any of its spellings, mixed freely: as is, JSON-escaped at any depth
  (a quote or backslash behind any run of backslashes), ``\\uXXXX`` (either case, behind any run of backslashes, a
  surrogate pair above the BMP), percent-encoded (its UTF-8 bytes, either case; a space as ``+`` too), an HTML
  numeric entity (decimal or hex, leading zeros);
- hex of its UTF-8 bytes, either case, with or without a separator (``:``, ``-``, a space) between bytes;
- base64 (standard and URL-safe, with or without padding, MIME-wrapped at any byte: a line break may fall between
  any two characters) and base32 (standard, either case), of the secret alone, of ``Bearer <secret>``, of
  ``user:<secret>`` or anything else around it.

Base64 of a secret inside a longer text depends on where the secret starts (its offset modulo 3; base32: modulo 5):
for each alignment, the characters that encode only the secret's own bytes are the same whatever surrounds it, so
those are what is searched for; the one or two characters at each end that mix in a neighbour's bits are removed
with them (they are base64 characters next to the match; for base32, the one after).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable
from functools import cache
from typing import Any, Final

REDACTED: Final = "[redacted]"
MIN_SECRET: Final = 4
"""Shorter values are not redacted: they would blank out ordinary text."""
_B64_CHARS: Final = "A-Za-z0-9+/_\\-"


class Redactor:
    """Replaces every known secret, in every spelling, with ``[redacted]``. Empty: returns text unchanged."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._secrets: list[str] = []
        self._pattern: re.Pattern[str] | None = None
        self._wrapped: re.Pattern[str] | None = None
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
        wrapped = ["\0b64wrapped:" + form[5:] for form in forms if form.startswith("\0b64:")]
        self._wrapped = re.compile("|".join(_pattern_of(form) for form in wrapped)) if wrapped else None

    def redact(self, text: str) -> str:
        """``text`` with every spelling of every secret replaced."""
        if self._pattern is None:
            return text
        text = self._pattern.sub(REDACTED, text)
        if self._wrapped is not None and _LINE_BREAK.search(text) is not None:
            text = self._wrapped.sub(REDACTED, text)
        return text

    def found(self, text: str) -> bool:
        """True when ``text`` holds a secret in some spelling."""
        return self._pattern is not None and self.redact(text) != text

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
    if form.startswith("\0b64wrapped:"):
        # the same, MIME-wrapped: a line break (raw, or JSON-escaped as in a recording) between any two characters
        core = _WRAP.join(re.escape(char) for char in form[12:])
        return f"[{_B64_CHARS}]?{core}[{_B64_CHARS}]?=*"
    if form.startswith("\0b32:"):
        # upper and lower case as two literals (a case-blind pattern, or a neighbour class in front, loses the
        # regex engine's literal search: 470 µs a line instead of 5); the character before the core, which mixes a
        # neighbour's bits with at most four of the secret's, stays
        core = form[5:]
        return f"{re.escape(core)}[A-Z2-7]?=*|{re.escape(core.lower())}[a-z2-7]?=*"
    if form.startswith("\0text:"):
        return "".join(_char_pattern(char) for char in form[6:])
    if form.startswith("\0hex:"):
        pairs = [f"{byte:02x}" for byte in form[5:].encode("utf-8")]
        return "(?i:" + "[:\\- ]?".join(pairs) + ")"
    return re.escape(form)


_JSON_SHORT: Final = {"\n": "n", "\r": "r", "\t": "t", "\b": "b", "\f": "f"}
"""The control characters JSON spells with a letter."""
_WRAP: Final = "(?:\\r?\\n|(?:\\\\+r)?\\\\+n)?"
"""A MIME line break, raw or JSON-escaped, allowed between base64 characters (RFC 2045 wraps at 76)."""
_LINE_BREAK: Final = re.compile(r"\n|\\n")
"""Text that may hold a wrapped base64 (the wrapped patterns cost twice the rest: only such text is searched)."""


def _char_pattern(char: str) -> str:
    """One character of a secret in any of its spellings (see the module's docstring)."""
    code = ord(char)
    options = [re.escape(char)]
    if char in '"\\/':
        options.append("\\\\+" + re.escape(char))  # JSON-escaped at some depth: a run of backslashes before it
    if char in _JSON_SHORT:
        options.append("\\\\+" + _JSON_SHORT[char])  # a newline as \n, at some depth
    if code <= 0xFFFF:
        options.append(f"\\\\+u(?i:{code:04x})")
    else:
        high, low = 0xD800 + ((code - 0x10000) >> 10), 0xDC00 + ((code - 0x10000) & 0x3FF)
        options.append(f"\\\\+u(?i:{high:04x})\\\\+u(?i:{low:04x})")
    options.append("".join(f"%(?i:{byte:02x})" for byte in char.encode("utf-8")))
    if char == " ":
        options.append("\\+")
    options.append(f"&#0*{code};")
    options.append(f"&#[xX]0*(?i:{code:x});")
    return "(?:" + "|".join(options) + ")"


@cache
def spellings(secret: str) -> frozenset[str]:
    """Every form ``secret`` is searched for (marked: ``\\0text:`` a character-by-character pattern, ``\\0hex:``
    its bytes in hex, ``\\0b64:``/``\\0b32:`` base64 and base32 cores)."""
    forms: set[str] = {"\0text:" + secret, "\0hex:" + secret}
    raw = secret.encode("utf-8")
    for plain in (raw, b"Bearer " + raw):
        for core in _base64_cores(plain):
            forms.add("\0b64:" + core)
        for core in _base32_cores(plain):
            forms.add("\0b32:" + core)
    return frozenset(form for form in forms if len(form.split(":", 1)[1]) >= MIN_SECRET)


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


def _base32_cores(raw: bytes) -> set[str]:
    """As ``_base64_cores``, for base32 (5-bit groups: five alignments)."""
    cores: set[str] = set()
    for offset in range(5):
        encoded = base64.b32encode(b"\0" * offset + raw + b"\0" * 4).decode()
        first = -(-offset * 8 // 5)
        last = (offset + len(raw)) * 8 // 5
        cores.add(encoded[first:last])
    return cores
