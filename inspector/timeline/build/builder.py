"""Builds the Timeline from records, live or replayed, so both produce the same model.

Everything the wire can tell (responses, result types, requestState, notifications, lint) is derived from the exact
text (``wire_records``); what it cannot tell (which call a request belongs to, who answered, why a call ended) comes
in event records written by the session (``build_events``). Both are functions over one ``BuildState``.
"""

from __future__ import annotations

from typing import Any

from inspector.protocol.jsonrpc import WireParse, classify
from inspector.timeline import findings as lint
from inspector.timeline.build import login_records
from inspector.timeline.build import session_events as build_events
from inspector.timeline.build import wire_records as build_wire
from inspector.timeline.build.state import BuildState
from inspector.timeline.build.wire_records import bad_utf8
from inspector.timeline.model import Call, ConsoleLine, Timeline
from inspector.timeline.records import Record, raw_text, undecodable_bytes


class TimelineBuilder:
    """Applies records to a Timeline, in order. One builder per timeline, its only writer."""

    def __init__(self, timeline: Timeline | None = None) -> None:
        self.state = BuildState(timeline if timeline is not None else Timeline())

    @property
    def timeline(self) -> Timeline:
        """The timeline being built."""
        return self.state.timeline

    def apply(self, record: Record, parsed: WireParse | None = None) -> None:
        """Apply one record; ``parsed`` saves a second parse of ``record["raw"]`` when the caller has it."""
        direction = record.get("dir")
        t = float(record.get("t", 0.0))
        if direction == "c2s":
            build_wire.outgoing(self.state, record, t, parsed or classify(raw_text(record) or ""))
        elif direction == "s2c":
            build_wire.incoming(self.state, record, t, parsed or classify(raw_text(record) or ""))
        elif direction == "stderr":
            self.state.console(ConsoleLine(t, "stderr", raw_text(record) or ""))
            if "bytes" in record:
                data = undecodable_bytes(record)
                if data is not None:
                    self.state.finding(lint.make("invalid-utf8", f"a stderr line is not UTF-8: {bad_utf8(data)}"))
        elif direction == "event":
            build_events.event(self.state, record, t)
        elif direction == "auth":
            login_records.apply(self.state, record, t)

    def owner_of_server_request(self, reply_to: Any, method: str | None, params: Any) -> Call | None:
        """Which call a legacy server request belongs to (see ``BuildState.owner_of_server_request``)."""
        return self.state.owner_of_server_request(reply_to, method, params)


def build_timeline(records: list[Record]) -> Timeline:
    """A timeline from a list of records (header excluded)."""
    builder = TimelineBuilder()
    for record in records:
        builder.apply(record)
    return builder.timeline
