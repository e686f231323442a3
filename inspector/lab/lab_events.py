"""What a running lab tells its listeners (a screen, the headless progress lines): past tense, plain data."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from inspector.lab.lab_report import LabReport, Row


@dataclass(frozen=True, slots=True)
class StageStarted:
    """A stage of the run began: ``connecting``, ``baseline``, ``stateless 1`` ... (``detail`` says on what)."""

    stage: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class RowAdded:
    """A check reached its verdict."""

    row: Row


@dataclass(frozen=True, slots=True)
class LabFinished:
    """The run is over (every session closed); ``report`` is final."""

    report: LabReport


LabEvent = StageStarted | RowAdded | LabFinished
LabListener = Callable[[LabEvent], None]
