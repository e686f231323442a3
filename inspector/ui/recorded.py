"""A recording opened in the TUI, read-only: its timeline, the catalog it listed, and the walk of ``--step``.

Pure data and functions over ``inspector.replay`` and the Timeline model (no textual), so they are tested without a
screen. Nothing here can send: a recording has no connection, and the screen disables every sending key.

Step mode feeds the records one by one to a fresh ``TimelineBuilder`` (the live session's own), so the timeline grows
exactly as it did live; each step reveals one wire message, with the records written before it (the call starting,
the answers given, stderr) and the time since the previous message.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from inspector.protocol.methods import LIST_METHODS
from inspector.replay.loader import Loaded, Problem, build_loaded
from inspector.replay.steps import steps
from inspector.targets.target import Target
from inspector.timeline.build.builder import TimelineBuilder
from inspector.timeline.model import ConsoleLine, Timeline
from inspector.timeline.records import Record, raw_text

if TYPE_CHECKING:
    from inspector.protocol.methods import CatalogKind
    from inspector.replay.steps import Step

WIRE: Final = frozenset({"c2s", "s2c"})
READ_ONLY: Final = "this is a recording, read-only: nothing is sent (use `inspector connect` for a live session)"
"""What the screen says when a key that would send is pressed during a replay."""


@dataclass(slots=True)
class Recording:
    """A recording as the TUI shows it: where it came from, its records and problems, and the timeline shown."""

    path: str
    header: Record | None
    records: list[Record]
    problems: list[Problem]
    timeline: Timeline
    """The whole recorded timeline; in step mode, the timeline being built (see ``stepper``)."""
    stepper: Stepper | None = None
    """Set in step mode: reveals one message at a time into ``timeline``."""

    @classmethod
    def from_loaded(cls, loaded: Loaded, *, step: bool = False) -> Recording:
        """The recording of ``loaded``: built whole, or (``step``) empty and grown message by message."""
        if step:
            stepper = Stepper(loaded.records, loaded.header)
            return cls(str(loaded.path), loaded.header, loaded.records, loaded.problems, stepper.timeline, stepper)
        timeline = build_loaded(loaded)  # adds the problems of records the builder could not apply
        return cls(str(loaded.path), loaded.header, loaded.records, loaded.problems, timeline)

    @property
    def started(self) -> str:
        """When the session was recorded, as the header says ("" when it does not)."""
        started = self.header.get("started") if self.header is not None else None
        return started if isinstance(started, str) else ""

    def target(self) -> Target:
        """A plain-data target naming the recorded server (never connected to)."""
        spec = str(self.header.get("target", "")) if self.header is not None else ""
        transport = str(self.header.get("transport", "")) if self.header is not None else ""
        name = f"replay of {self.path}"
        if transport == "http" or spec.startswith(("http://", "https://")):
            return Target("http", url=spec, name=name, source="replay")
        try:
            argv = tuple(shlex.split(spec))
        except ValueError:
            argv = (spec,)
        return Target("stdio", command=argv or ("?",), name=name, source="replay")

    def problem_lines(self) -> list[ConsoleLine]:
        """The loader's problems as console lines ("recording line 7: not JSON ..."), errors first in red."""
        return [
            ConsoleLine(0.0, "session", f"recording {problem.describe()}", problem.severity)
            for problem in self.problems
        ]


def recorded_catalog(timeline: Timeline) -> dict[CatalogKind, list[dict[str, Any]]]:
    """The catalog the recorded session listed: for each kind, the items of its last listing (every page)."""
    found: dict[CatalogKind, list[dict[str, Any]]] = {}
    for call in timeline.calls:
        listing = LIST_METHODS.get(call.method)
        if listing is None or not call.rounds:
            continue
        kind, field_name = listing.kind, listing.items_field
        items: list[dict[str, Any]] = []
        for round_ in call.rounds:
            message = round_.response.message if round_.response is not None else None
            result = message.get("result") if message is not None else None
            page = result.get(field_name) if isinstance(result, dict) else None
            if isinstance(page, list):
                items.extend(item for item in page if isinstance(item, dict))
        if items or call.status == "complete":
            found[kind] = items
    return found


@dataclass(frozen=True, slots=True)
class Revealed:
    """One step of the walk: which message (1-based, of ``total``), when, the gap since the previous one, a line
    saying what it is, and where it landed on the timeline (call, round; round 0 when not on a round)."""

    number: int
    total: int
    at: float
    gap: float | None
    text: str
    call: int | None
    round: int

    def gap_text(self) -> str:
        """``+41.2 ms`` (``start`` for the first message)."""
        return "start" if self.gap is None else f"+{self.gap * 1000:.1f} ms"


class Stepper:
    """Grows a timeline from records, one wire message per ``advance``."""

    def __init__(self, records: list[Record], header: Record | None = None) -> None:
        self.records = records
        self.builder = TimelineBuilder()
        self.position = 0
        """Index of the next record to apply."""
        self.shown = 0
        """Messages revealed so far."""
        self._wire = [i for i, record in enumerate(records) if record.get("dir") in WIRE]
        self._texts: Iterator[Step] | None = (step for step in steps(records) if step.is_message)
        if header is not None:
            self.timeline.target = str(header.get("target", ""))
            self.timeline.transport = str(header.get("transport", ""))

    @property
    def timeline(self) -> Timeline:
        """The timeline being grown."""
        return self.builder.timeline

    @property
    def total(self) -> int:
        """How many wire messages the recording holds."""
        return len(self._wire)

    @property
    def done(self) -> bool:
        """Every record was applied."""
        return self.position >= len(self.records)

    def _apply(self, until: int) -> None:
        for record in self.records[self.position : until]:
            try:
                self.builder.apply(record)
            except Exception:  # the loader reported what it could; a bad record must not stop the walk
                continue
        self.position = max(self.position, until)

    def advance(self) -> Revealed | None:
        """Reveal the next message (and the records before it); None when there is none left (the rest applied)."""
        if self.shown >= self.total:
            self._apply(len(self.records))
            return None
        index = self._wire[self.shown]
        self._apply(index + 1)
        self.shown += 1
        if self.shown == self.total:
            self._apply(len(self.records))  # the calls' ends and the closing record after the last message
        record = self.records[index]
        step = next(self._texts, None) if self._texts is not None else None
        call, round_ = locate(self.timeline, raw_text(record) or "", record)
        return Revealed(
            self.shown,
            self.total,
            float(record.get("t", 0.0)),
            step.gap if step is not None else None,
            step.text.plain if step is not None else str(record.get("dir")),
            call,
            round_,
        )

    def reveal_all(self) -> int:
        """Apply every remaining record; returns how many messages that revealed."""
        before = self.shown
        self.shown = self.total
        self._apply(len(self.records))
        self._texts = None
        return self.total - before


def locate(timeline: Timeline, raw: str, record: Record) -> tuple[int | None, int]:
    """Where a message just applied sits: (call, round), searching the most recent calls first."""
    given = record.get("call")
    if record.get("dir") == "c2s" and isinstance(given, int):
        found = timeline.call(given)
        if found is not None:
            return given, len(found.rounds)
    for call in reversed(timeline.calls[-64:]):
        for round_ in reversed(call.rounds):
            if round_.request.raw == raw or (round_.response is not None and round_.response.raw == raw):
                return call.index, round_.index
            if any(note.raw == raw for note in round_.notifications):
                return call.index, round_.index
    return None, 0
