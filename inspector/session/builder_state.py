"""The state a TimelineBuilder keeps between records, and the helpers every part of it uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.protocol.jsonrpc import RequestId
from inspector.session import findings as lint
from inspector.session.timeline import (
    Call,
    ConsoleAppended,
    ConsoleLine,
    Finding,
    FindingRaised,
    Round,
    Timeline,
)


@dataclass(slots=True)
class InFlight:
    """A request of ours awaiting its response: its call, its round, the version it spoke, its progress token."""

    call: Call
    round: Round
    version: str | None
    progress_token: Any = None


class BuilderState:
    """What is in flight, what was answered, where progress goes; the findings and console helpers."""

    def __init__(self, timeline: Timeline | None = None) -> None:
        self.timeline = timeline if timeline is not None else Timeline()
        self._in_flight: dict[RequestId, InFlight] = {}
        self._answered: set[RequestId] = set()
        self._server_requests: dict[RequestId, tuple[Call, Round]] = {}
        self._progress: dict[Any, Round] = {}
        self.legacy_version: str | None = None

    # ----------------------------------------------------------------------------------------------- helpers
    def _on_round(self, code: str, message: str, call: Call, round_: Round) -> None:
        """Raise a catalog finding on a round."""
        self._finding(lint.make(code, message, call=call.index, round_=round_.index), call, round_)

    def _finding(self, found: Finding, call: Call | None = None, round_: Round | None = None) -> None:
        if round_ is not None:
            round_.findings.append(found)
        elif call is not None:
            call.findings.append(found)
        self.timeline.findings.append(found)
        self.timeline.emit(FindingRaised(found))

    def _console(self, line: ConsoleLine) -> None:
        self.timeline.console.append(line)
        self.timeline.emit(ConsoleAppended(line))
