"""An incremental Server-Sent Events parser (WHATWG HTML, "Parsing an event stream").

Fed raw bytes in whatever chunks the network delivers; yields events as their blank line arrives. Lines end with
CRLF, LF or CR (a CR at the end of a chunk waits for the next one, in case an LF follows); they are split as bytes
and each is decoded on its own, so an event whose data is not valid UTF-8 keeps its exact bytes
(``SseEvent.undecodable``). Unknown fields are ignored. ``id`` and ``retry`` update the stream state even on events
with no data, which is how a server "primes" a resumable stream. What carries no JSON-RPC message (comment lines,
keep-alives such as ``: ping``, a block with no data) is yielded verbatim as an ``SseNote``, so it can be recorded.
An event cut off by the end of the stream is not dispatched; its text stays visible through
:attr:`SseParser.pending` so a cut can be reported with what was lost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.transport.base import decode_wire

_EOL = re.compile(rb"\r\n|\r|\n")
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One dispatched event. ``data`` lines are joined with ``\\n``; ``event`` is ``"message"`` when absent."""

    event: str
    data: str
    id: str | None
    """The stream's last event ID when this event was dispatched (None when no ``id:`` was seen yet)."""
    retry_ms: int | None
    """The reconnection time in effect (the last valid ``retry:`` field), if any."""
    undecodable: bytes | None = None
    """The data's exact bytes (its lines joined with LF), when they were not valid UTF-8."""


@dataclass(frozen=True, slots=True)
class SseNote:
    """Lines of the stream that carry no message: comments (keep-alives), or a block with no data (priming)."""

    text: str


class SseParser:
    """Feed bytes with :meth:`feed`; call :meth:`finish` at end of stream."""

    def __init__(self, last_event_id: str | None = None, retry_ms: int | None = None) -> None:
        self.last_event_id = last_event_id
        """The last ``id:`` seen on this stream (carried over from an earlier connection when resuming)."""
        self.retry_ms = retry_ms
        """The last valid ``retry:`` value, in milliseconds."""
        self._partial = bytearray()
        self._skip_lf = False
        self._first = True
        self._head = bytearray()
        self._data: list[str] = []
        self._data_bytes: list[bytes] = []
        self._undecodable = False
        self._has_data = False
        self._event_type = ""
        self._id_buffer = last_event_id
        self._block: list[str] = []
        self._comments: list[str] = []

    @property
    def pending(self) -> str:
        """Text of the event being received (lines since the last blank line, plus any unfinished line)."""
        unfinished = decode_wire(bytes(self._partial))[0]
        return "\n".join([*self._block, unfinished]).strip("\n")

    def feed(self, chunk: bytes) -> list[SseEvent | SseNote]:
        """Parse one chunk of the stream; return the events and notes it completed, in order."""
        if self._first:
            # A byte-order mark at the start is dropped, even when it comes a byte at a time.
            self._head += chunk
            if len(self._head) < len(_BOM) and _BOM.startswith(self._head):
                return []
            self._first = False
            chunk, self._head = bytes(self._head).removeprefix(_BOM), bytearray()
        return self._lines(chunk)

    def finish(self) -> list[SseEvent | SseNote]:
        """End of stream. An event without its blank line is not dispatched (its text stays in ``pending``)."""
        return []

    def _lines(self, data: bytes) -> list[SseEvent | SseNote]:
        out: list[SseEvent | SseNote] = []
        if not data:
            return out
        if self._skip_lf:
            self._skip_lf = False
            data = data.removeprefix(b"\n")
        start = 0
        for match in _EOL.finditer(data):
            self._partial += data[start : match.start()]
            line = bytes(self._partial)
            self._partial.clear()
            start = match.end()
            if match.group() == b"\r" and start == len(data):
                # Maybe the first half of a CRLF split across chunks: an LF opening the next chunk is not a line.
                self._skip_lf = True
            out.extend(self._line(line))
        if start < len(data):
            self._partial += data[start:]
        return out

    def _line(self, raw: bytes) -> list[SseEvent | SseNote]:
        if raw == b"":
            return self._dispatch()
        line, undecodable = decode_wire(raw)
        self._block.append(line)
        if line.startswith(":"):
            self._comments.append(line)
            return []
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
            raw_value = raw.partition(b":")[2]
            self._data_bytes.append(raw_value[1:] if raw_value.startswith(b" ") else raw_value)
            self._undecodable = self._undecodable or undecodable is not None
            self._has_data = True
        elif name == "event":
            self._event_type = value
        elif name == "id":
            if "\x00" not in value:
                self._id_buffer = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self.retry_ms = int(value)
        return []

    def _dispatch(self) -> list[SseEvent | SseNote]:
        block, self._block = self._block, []
        comments, self._comments = self._comments, []
        self.last_event_id = self._id_buffer or None
        has_data, data, event_type = self._has_data, "\n".join(self._data), self._event_type or "message"
        undecodable = b"\n".join(self._data_bytes) if self._undecodable else None
        self._data.clear()
        self._data_bytes.clear()
        self._undecodable = False
        self._has_data = False
        self._event_type = ""
        if not has_data:
            return [SseNote("\n".join(block))] if block else []
        out: list[SseEvent | SseNote] = [SseNote("\n".join(comments))] if comments else []
        out.append(SseEvent(event_type, data, self.last_event_id, self.retry_ms, undecodable))
        return out
