"""Writes records to a JSONL file as they happen, one flushed line each, with secrets replaced.

A killed process loses at most the line being written: every record is written and flushed on its own.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import IO

from inspector.session.records import Record

REDACTED = "[redacted]"


class Recorder:
    """Append-only JSONL writer. ``secrets`` are literal strings (a bearer token, an env value marked secret)."""

    def __init__(self, path: Path, header: Record, secrets: list[str] | None = None) -> None:
        self.path = path
        self._secrets = sorted({s for s in (secrets or []) if len(s) >= 4}, key=len, reverse=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Unbuffered binary: one os-level write per record is both the flush and the whole cost.
        self._file: IO[bytes] | None = path.open("wb", buffering=0)
        self.bytes_written = 0
        self.write(header)

    def add_secret(self, value: str) -> None:
        """Redact ``value`` from every later line (short values are ignored: they would redact ordinary text)."""
        if len(value) >= 4 and value not in self._secrets:
            self._secrets.append(value)
            self._secrets.sort(key=len, reverse=True)

    def write(self, record: Record) -> None:
        """Write one record as one line and flush it."""
        if self._file is None:
            return
        line = _fast_wire_line(record) or json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        for secret in self._secrets:
            for form in _spellings(secret):
                if form in line:
                    line = line.replace(form, REDACTED)
        data = (line + "\n").encode("utf-8")
        self._file.write(data)
        self.bytes_written += len(data)

    def close(self) -> None:
        """Close the file; later writes are ignored."""
        if self._file is not None:
            self._file.close()
            self._file = None


@cache
def _spellings(secret: str) -> tuple[str, ...]:
    """How ``secret`` can appear in a line, longest first: as is, and JSON-escaped up to three times (a stderr line
    is escaped once by the recording; a message's ``raw`` text twice; JSON a tool returns as text three times),
    with and without ``\\uXXXX`` escapes. A secret of plain ASCII without quotes or backslashes has one spelling."""
    forms = {secret}
    level = {secret}
    for _ in range(3):
        level = {json.dumps(form, ensure_ascii=ascii_only)[1:-1] for form in level for ascii_only in (False, True)}
        forms |= level
    return tuple(sorted(forms, key=len, reverse=True))


_encode_string = json.JSONEncoder(ensure_ascii=False).encode
_WIRE_KEYS = frozenset({"t", "dir", "raw", "call"})


def _fast_wire_line(record: Record) -> str | None:
    """The common wire record, serialized without walking a dict (the raw text is most of the work).

    Produces exactly what ``json.dumps(record, separators=(",", ":"), ensure_ascii=False)`` would.
    """
    if record.keys() - _WIRE_KEYS or not isinstance(record.get("raw"), str) or not isinstance(record.get("t"), float):
        return None
    call = record.get("call")
    tail = (
        f',"call":{call}}}' if isinstance(call, int) and not isinstance(call, bool) else "}" if call is None else None
    )
    if tail is None or ("call" in record and call is None):
        return None
    return f'{{"t":{record["t"]!r},"dir":"{record["dir"]}","raw":{_encode_string(record["raw"])}{tail}'
