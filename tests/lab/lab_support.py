"""The lab's tests run the real ``Lab`` against real demo servers: in this process over the memory transport (each
instance its own ``build_server(flaw)``, so its own memory and, for ``own-key``, its own sealing key; a task folder
both share), or as
processes through the CLI. ``InProcessTargets`` is the composition root's side for the first kind.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from inspector.answers.build import build_answer_source
from inspector.answers.source import AnswerSource
from inspector.cli.demo_flows import example_answers_path
from inspector.cli.lab_commands import shared_task_folder
from inspector.demo.in_process import NAME, serve
from inspector.demo.server import build_server
from inspector.lab.lab_calls import LabCall, tool_call
from inspector.lab.lab_report import LabReport, Row
from inspector.lab.lab_run import Lab
from inspector.lab.plan import CHECKS, LabOptions
from inspector.session.recorder import Recorder
from inspector.session.session import EraMode, InspectorSession
from inspector.timeline import records
from inspector.transport.base import Transport
from inspector.transport.memory import MemoryTransport

WORK_ITEM: Final = tool_call("update_work_item", {"workItemId": 4242, "fields": {"state": "Resolved"}})
OTHER_ITEM: Final = tool_call("update_work_item", {"workItemId": 4343, "fields": {}})
WEATHER: Final = tool_call("get_weather", {"location": "New York"})
ADD: Final = tool_call("add", {"a": 2, "b": 3})
CALLS: Final = [ADD, WEATHER, WORK_ITEM, OTHER_ITEM]
"""A plain tool, a one-question flow, and the two-round flow twice with other arguments (for ``tamper``)."""


class InProcessTargets:
    """Instances A and B as two in-process demo servers with ``flaw``; sessions recorded under ``folder``."""

    def __init__(self, flaw: str | None = None, folder: Path | None = None) -> None:
        self.flaw = flaw
        self.folder = folder
        self.made: dict[str, str] = {}
        self.started: list[str] = []
        self.tasks = shared_task_folder()
        """Both instances keep their tasks here, as ``inspector lab --demo`` has them do (``own-tasks`` aside)."""

    @property
    def names(self) -> tuple[str, ...]:
        return ("A", "B")

    def describe(self, name: str) -> str:
        return f"{NAME} (in process){f' --flaw {self.flaw}' if self.flaw else ''}"

    def transport(self, name: str) -> Transport:
        self.started.append(name)
        server = serve(lambda: build_server(self.flaw, task_dir=self.tasks))
        return MemoryTransport(server, name=f"{NAME} {name}")

    def session(self, transport: Transport, answers: AnswerSource, *, era: EraMode, part: str) -> InspectorSession:
        recorder = None
        if self.folder is not None:
            path = self.folder / f"lab-{part}.jsonl"
            header = records.header(transport.describe(), transport.kind, era, started="", inspector_version="test")
            recorder = Recorder(path, header)
            self.made[part] = str(path)
        return InspectorSession(transport, answers, era=era, recorder=recorder, timeout=30.0)

    def recording(self, part: str) -> str | None:
        return self.made.get(part)


def demo_answers() -> AnswerSource:
    """The demo's own answers file, the stub model for sampling (what ``inspector lab --demo`` answers with)."""
    return build_answer_source(example_answers_path(), "fail", True, [])


async def run_lab(
    flaw: str | None = None,
    calls: list[LabCall] | None = None,
    checks: tuple[str, ...] = CHECKS,
    folder: Path | None = None,
    targets: InProcessTargets | None = None,
) -> LabReport:
    """A whole lab run against two in-process demo servers."""
    chosen = targets if targets is not None else InProcessTargets(flaw, folder)
    return await Lab(chosen, demo_answers(), LabOptions(list(calls or CALLS), checks)).run()


def rows(report: LabReport, group: str, verdict: str | None = None) -> list[Row]:
    """The rows of ``group`` (with ``verdict``)."""
    return [r for r in report.rows if r.group == group and (verdict is None or r.verdict == verdict)]


def explain(report: LabReport) -> str:
    """Every row, one a line: what an assertion message shows."""
    return "\n".join(f"{r.group} | {r.check} | {r.route} | {r.verdict} | {r.why}" for r in report.rows)


def read_jsonl(path: str) -> list[dict[str, Any]]:
    """The records of a recording."""
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]
