"""Writes records to a JSONL file as they happen (secrets are already out of them: ``SessionLog`` redacts first).

Nothing is buffered in the process: a record is written on its own, or with the records made in the same moment
(``write_many``, one system call), so a killed process loses at most the lines being written.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from inspector.paths import open_private
from inspector.protocol.wire_text import recording_line
from inspector.timeline.records import Record


class Recorder:
    """Append-only JSONL writer."""

    def __init__(self, path: Path, header: Record) -> None:
        self.path = path
        # Unbuffered binary: one os-level write per record is both the flush and the whole cost. Readable by the
        # user only (0600, in folders made 0700): it holds what the server said and what the user answered.
        self._file: IO[bytes] | None = os.fdopen(open_private(path), "wb", buffering=0)
        self.bytes_written = 0
        self.write(header)

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
        return recording_line(record, msg_text)

    def close(self) -> None:
        """Close the file; later writes are ignored."""
        if self._file is not None:
            self._file.close()
            self._file = None
