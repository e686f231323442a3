"""An incremental Server-Sent Events parser (WHATWG HTML, "Parsing an event stream").

Fed raw bytes in whatever chunks the network delivers; yields events as their blank line arrives. Lines end with
CRLF, LF or CR (a CR at the end of a chunk waits for the next one, in case an LF follows). Comment lines (``:``)
are ignored, as are unknown fields. ``id`` and ``retry`` update the stream state even on events with no data, which
is how a server "primes" a resumable stream. An event cut off by the end of the stream is not dispatched; its text
stays visible through :attr:`SseParser.pending` so a cut can be reported with what was lost.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

_EOL = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One dispatched event. ``data`` lines are joined with ``\\n``; ``event`` is ``"message"`` when absent."""

    event: str
    data: str
    id: str | None
    """The stream's last event ID when this event was dispatched (None when no ``id:`` was seen yet)."""
    retry_ms: int | None
    """The reconnection time in effect (the last valid ``retry:`` field), if any."""


class SseParser:
    """Feed bytes with :meth:`feed`; call :meth:`finish` at end of stream."""

    def __init__(self, last_event_id: str | None = None, retry_ms: int | None = None) -> None:
        self.last_event_id = last_event_id
        """The last ``id:`` seen on this stream (carried over from an earlier connection when resuming)."""
        self.retry_ms = retry_ms
        """The last valid ``retry:`` value, in milliseconds."""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._partial: list[str] = []
        self._skip_lf = False
        self._first = True
        self._data: list[str] = []
        self._has_data = False
        self._event_type = ""
        self._id_buffer = last_event_id
        self._block: list[str] = []

    @property
    def pending(self) -> str:
        """Text of the event being received (lines since the last blank line, plus any unfinished line)."""
        return "\n".join([*self._block, "".join(self._partial)]).strip("\n")

    def feed(self, chunk: bytes) -> list[SseEvent]:
        """Parse one chunk of the stream; return the events it completed, in order."""
        text = self._decoder.decode(chunk)
        if self._first and text:
            self._first = False
            text = text.removeprefix("\ufeff")
        return self._lines(text)

    def finish(self) -> list[SseEvent]:
        """End of stream. An event without its blank line is not dispatched (its text stays in ``pending``)."""
        return self._lines(self._decoder.decode(b"", final=True))

    def _lines(self, text: str) -> list[SseEvent]:
        events: list[SseEvent] = []
        if not text:
            return events
        if self._skip_lf:
            self._skip_lf = False
            text = text.removeprefix("\n")
        start = 0
        for match in _EOL.finditer(text):
            self._partial.append(text[start : match.start()])
            line = "".join(self._partial)
            self._partial.clear()
            start = match.end()
            if match.group() == "\r" and start == len(text):
                # Maybe the first half of a CRLF split across chunks: an LF opening the next chunk is not a line.
                self._skip_lf = True
            events.extend(self._line(line))
        if start < len(text):
            self._partial.append(text[start:])
        return events

    def _line(self, line: str) -> list[SseEvent]:
        if line == "":
            return self._dispatch()
        self._block.append(line)
        if line.startswith(":"):
            return []
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
            self._has_data = True
        elif name == "event":
            self._event_type = value
        elif name == "id":
            if "\x00" not in value:
                self._id_buffer = value
        elif name == "retry" and value.isascii() and value.isdigit():
            self.retry_ms = int(value)
        return []

    def _dispatch(self) -> list[SseEvent]:
        self._block.clear()
        self.last_event_id = self._id_buffer or None
        has_data, data, event_type = self._has_data, "\n".join(self._data), self._event_type or "message"
        self._data.clear()
        self._has_data = False
        self._event_type = ""
        if not has_data:
            return []
        return [SseEvent(event=event_type, data=data, id=self.last_event_id, retry_ms=self.retry_ms)]
