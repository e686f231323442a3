"""Writes records to a JSONL file as they happen, with secrets replaced.

Nothing is buffered in the process: a record is written on its own, or with the records made in the same moment
(``write_many``, one system call), so a killed process loses at most the lines being written.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import IO

from inspector.protocol.wire_text import recording_line
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

    def write(self, record: Record, msg_text: str | None = None) -> None:
        """Write one record as one line.

        ``msg_text``, when given, is exactly ``wire_text.dumps(record["msg"])`` (the wire text of a message we wrote):
        the line splices it in instead of serializing the message a second time.
        """
        self.write_many([(record, msg_text)])

    def write_many(self, batch: list[tuple[Record, str | None]]) -> None:
        """Write records made in the same moment (a reply, the next call's start, its request) in one system call:
        every line whole and in order, one write instead of three."""
        if self._file is None:
            return
        data = "".join([self._line(record, msg_text) + "\n" for record, msg_text in batch]).encode("utf-8")
        self._file.write(data)
        self.bytes_written += len(data)

    def _line(self, record: Record, msg_text: str | None) -> str:
        line = recording_line(record, msg_text)
        for secret in self._secrets:
            for form in _spellings(secret):
                if form in line:
                    line = line.replace(form, REDACTED)
        return line

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
