"""What a lab run found: one row per check, the four questions of seed 004, and how the run ends.

A row is one check of one call (or of the session): its group, what was checked, where each round went, the
verdict, why, and what to try. ``pass`` and ``fail`` are what they say; ``warn`` is a fact the server author should
know that breaks no rule (a state that can be replayed within its lifetime, a call that answers differently in the
two eras); ``skip`` says why a check could not be made (no multi-round call, no task tool). Only ``fail`` fails a
run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from inspector.timeline.model import EraDecision
from inspector.timeline.outcome import EXIT_CONNECT

Verdict = Literal["pass", "fail", "warn", "skip"]
VERDICTS: Final[tuple[Verdict, ...]] = ("pass", "fail", "warn", "skip")

Group = Literal["baseline", "stateless 1", "stateless 2", "stateless 3", "tamper", "eras"]
GROUP_TITLES: Final[dict[Group, str]] = {
    "baseline": "every call on A alone (what the others are compared with)",
    "stateless 1": "server/discover on A; tools/list and each call on B",
    "stateless 2": "each multi-round call crossing instances at every retry (new id each time)",
    "stateless 3": "a task made on A, the client dropped, tasks/get on B",
    "tamper": "experiments: the server must validate every requestState it gets back",
    "eras": "the same calls in the legacy and the modern era",
}

EXIT_PASS: Final = 0
EXIT_FAIL: Final = 1


@dataclass(frozen=True, slots=True)
class Row:
    """One check's verdict."""

    group: Group
    check: str
    """What was checked: the call and the variant (``tools/call update_work_item · A⇄B``)."""
    route: str
    """Where each round went, in order (``A B A``); empty when nothing was sent."""
    verdict: Verdict
    why: str
    hint: str = ""
    """What to try (for a fail or a warn)."""
    experiment: str | None = None
    """For ``tamper``: what was done to the requestState (every such row is an experiment)."""
    security: bool = False
    """A security finding (the server completed on an altered requestState: the spec's MUST)."""
    call: int | None = None
    """The call on the timeline of ``part``'s session (``#N`` in its recording)."""
    part: str = "main"


QUESTIONS: Final = ("who keeps it", "found by", "expires", "after a disconnect")
"""Seed 004's four questions of a piece of cross-request state, as column headings (``HeldState.answers``)."""


@dataclass(frozen=True, slots=True)
class HeldState:
    """One piece of cross-request state, and seed 004's four answers for it, from what the lab saw."""

    what: str
    kept_by: str
    """Who keeps it (the client, in requestState; the server, by a task id or a handle)."""
    found_by: str
    """By which handle it is found again."""
    expires: str
    """When it expires, as far as the wire says."""
    recovered: str
    """How it is recovered after a disconnect, and whether that worked here."""

    @property
    def answers(self) -> tuple[str, str, str, str]:
        """The four answers, in the order of ``QUESTIONS``."""
        return (self.kept_by, self.found_by, self.expires, self.recovered)


@dataclass(slots=True)
class LabReport:
    """A lab run: its instances, the era settled, every row, the four questions, the recordings made."""

    instances: dict[str, str]
    checks: tuple[str, ...]
    era: EraDecision | None = None
    rows: list[Row] = field(default_factory=list)
    held: list[HeldState] = field(default_factory=list)
    recordings: dict[str, str] = field(default_factory=dict)
    """Session part (main, legacy, tasks...) -> its recording."""
    connect_error: str | None = None
    """Set when instance A (or B) could not be reached at all: no check could run."""
    connect_hint: str = ""

    def add(self, row: Row) -> None:
        """One more row."""
        self.rows.append(row)

    def count(self, verdict: Verdict) -> int:
        """How many rows have ``verdict``."""
        return sum(1 for row in self.rows if row.verdict == verdict)

    @property
    def failed(self) -> list[Row]:
        """The rows that fail the run."""
        return [row for row in self.rows if row.verdict == "fail"]

    @property
    def exit_code(self) -> int:
        """0 every check passed (warnings and skips included), 1 one failed, 3 no connection."""
        if self.connect_error is not None:
            return EXIT_CONNECT
        return EXIT_FAIL if self.failed else EXIT_PASS

    def summary(self) -> str:
        """``31 pass · 2 fail · 1 warn · 3 skip``."""
        return " · ".join(f"{self.count(v)} {v}" for v in VERDICTS)
