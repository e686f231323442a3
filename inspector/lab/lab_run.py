"""``Lab``: one run of the lab, the object every face drives (the CLI's ``inspector lab``, a TUI screen).

``await Lab(targets, answers, options).run()`` connects the main session (A and B behind one routed transport; the
handshake on A), makes every call on A alone (the reference), then runs the chosen checks in order (stateless
groups 1, 2, 3, tamper, eras) and answers the four questions. It never raises for the server: an instance that
cannot be reached, a 5xx or a crash is a row (or the run's ``connect_error``). Listeners get a ``StageStarted``
before each stage, a ``RowAdded`` per verdict and ``LabFinished`` at the end, synchronously, in order.
"""

from __future__ import annotations

from inspector.answers.source import AnswerSource
from inspector.lab import eras, stateless, tamper, tasks_check
from inspector.lab.baseline import Baseline, run_baseline
from inspector.lab.lab_events import LabEvent, LabFinished, LabListener, RowAdded, StageStarted
from inspector.lab.lab_report import LabReport, Row
from inspector.lab.lab_session import LabSession
from inspector.lab.plan import LabOptions, LabTargets
from inspector.lab.questions import held_states

NEEDS_B = frozenset({"stateless"})
"""Only the stateless groups send anything to B; tamper and eras run on A alone (B is never started for them)."""


class Lab:
    """A lab run over ``targets``' instances, answering with ``answers``."""

    def __init__(self, targets: LabTargets, answers: AnswerSource, options: LabOptions) -> None:
        self.targets = targets
        self.answers = answers
        self.options = options
        self.listeners: list[LabListener] = []
        names = targets.names if NEEDS_B & set(options.checks) else targets.names[:1]
        self.names = names
        self.report = LabReport({name: targets.describe(name) for name in names}, tuple(options.checks))

    def subscribe(self, listener: LabListener) -> None:
        """Call ``listener`` for every later event."""
        self.listeners.append(listener)

    def _emit(self, event: LabEvent) -> None:
        for listener in list(self.listeners):
            listener(event)

    def _add(self, row: Row) -> None:
        self.report.add(row)
        self._emit(RowAdded(row))

    def _stage(self, stage: str, detail: str = "") -> None:
        self._emit(StageStarted(stage, detail))

    async def run(self) -> LabReport:
        """Every chosen check; the report (also in ``LabFinished``)."""
        main = LabSession(self.targets, self.names, self.answers, era=self.options.era, part="main")
        try:
            self._stage("connecting", " and ".join(self.names))
            problem = await main.connect()
            self.report.era = main.session.timeline.era
            if problem is not None:
                self.report.connect_error, self.report.connect_hint = problem
                return self.report
            self._stage("baseline", "every call on A alone")
            rows: list[Row] = []
            baseline = await run_baseline(main, self.options, rows)
            for row in rows:
                self._add(row)
            await self._checks(main, baseline)
            self.report.held = held_states(baseline, self.report.rows, session_ids=_session_ids(main))
        finally:
            await main.close()
            for part in ("main", "tasks", "modern", "legacy"):
                path = self.targets.recording(part)
                if path is not None:
                    self.report.recordings[part] = path
            self._emit(LabFinished(self.report))
        return self.report

    async def _checks(self, main: LabSession, baseline: Baseline) -> None:
        checks = self.options.checks
        if "stateless" in checks:
            self._stage("stateless 1", "server/discover on A (at connect); tools/list and each call on B")
            await stateless.group_one(main, baseline, self.options, self._add)
            self._stage("stateless 2", "each multi-round call crossing A and B at every retry")
            await stateless.group_two(main, baseline, self.options, self._add)
            self._stage("stateless 3", "a task made on A, looked up on B by a new client")
            await tasks_check.group_three(main, baseline, self.targets, self.answers, self._add)
        if "tamper" in checks:
            self._stage("tamper", "each round that carried a requestState, with the state altered (experiments)")
            await tamper.tamper(main, baseline, self.options, self._add)
        if "eras" in checks:
            self._stage("eras", "the same calls in the legacy and the modern era")
            await eras.eras(main, baseline, self.options, self.targets, self.answers, self._add)


def _session_ids(main: LabSession) -> list[str]:
    """The legacy ``Mcp-Session-Id`` values the main session was given (none in 2026-07-28)."""
    found: list[str] = []
    for call in main.session.timeline.calls:
        for round_ in call.rounds:
            http = round_.response.http if round_.response is not None else None
            for name, value in (http.response_headers if http is not None else {}).items():
                if name.lower() == "mcp-session-id" and value not in found:
                    found.append(value)
    return found
