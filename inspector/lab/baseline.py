"""The all-on-A run every other check is compared with, and the one comparison they all use.

Each call is made once on A alone, answered by the user's source (or by its recording); what it ended with, and the
answers it was given, are the reference: every variant is answered the same way and must end the same way (status
and final result, the structural compare of ``replay --against``, ``--ignore`` paths left out).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from inspector.lab.lab_calls import LabCall
from inspector.lab.lab_report import Row
from inspector.lab.lab_session import LabSession, Ran
from inspector.lab.plan import LabOptions
from inspector.protocol.sanitize import one_line
from inspector.replay.diff import JsonPath
from inspector.replay.rerun import Comparison, compare
from inspector.timeline.model import Call

USABLE = ("complete", "tool-error")
"""A reference that ended so can be compared with (a tool error is still an answer)."""


@dataclass(slots=True)
class Reference:
    """One call's all-on-A run."""

    call: LabCall
    ran: Ran

    @property
    def usable(self) -> bool:
        """It ended with an answer (else there is nothing to compare the variants with)."""
        return self.ran.outcome.status in USABLE

    @property
    def multi_round(self) -> bool:
        """It took more than one request (a retry to send elsewhere)."""
        return sum(1 for r in self.ran.call.rounds if r.kind == "request" and r.method == self.call.method) > 1

    @property
    def task(self) -> bool:
        """It made a task."""
        span = self.ran.call.task
        return span is not None and span.created_round is not None

    def why_unusable(self) -> str:
        """Why the variants of this call cannot be judged."""
        outcome = self.ran.outcome
        detail = f": {one_line(outcome.detail, 160)}" if outcome.detail else ""
        return f"the call ends {outcome.status} on A alone{detail}"


@dataclass(slots=True)
class Baseline:
    """Every reference, and the tools/list of A."""

    references: list[Reference] = field(default_factory=list)
    tools: Ran | None = None


async def run_baseline(main: LabSession, options: LabOptions, add: list[Row]) -> Baseline:
    """tools/list, then each call, on A alone; a call that does not end with an answer is a row of its own."""
    baseline = Baseline()
    main.answers.fresh()
    baseline.tools = await main.list_on("A", "tools")
    for call in options.calls:
        main.answers.fresh(call.recorded)
        ran = await main.run(call, "A")
        reference = Reference(call, ran)
        baseline.references.append(reference)
        if not reference.usable:
            add.append(
                Row(
                    "baseline",
                    call.label,
                    ran.route,
                    "fail",
                    reference.why_unusable(),
                    "the lab compares every variant with this run: make the call work on one instance first "
                    "(check --args and --answers)",
                    call=ran.call.index,
                )
            )
    usable = [r for r in baseline.references if r.usable]
    if usable:
        why = f"{len(usable)} of {len(baseline.references)} call(s) answered on A alone: the reference for every check"
        add.append(Row("baseline", "every call on A", "A", "pass", why))
    return baseline


def compared(reference: Call, live: Ran, options: LabOptions, also_ignore: list[JsonPath] | None = None) -> Comparison:
    """Status and final result of ``live`` against the all-on-A call (``--ignore`` paths, and ``also_ignore``,
    left out)."""
    ignore = [*options.ignore, *(also_ignore or [])]
    return compare(reference, live.call, live.outcome, ignore=ignore, compare_meta=options.compare_meta)
