"""What a lab run is given: the calls to make, the checks to run, and the composition root's side of the deal.

The lab makes no transport and no session itself: ``LabTargets`` (implemented by the CLI, or by a screen over its
own factory) opens a new connection to instance A or B and builds a session on a transport with the right
recorder. So the lab runs the same against stdio commands (one SPEC is two processes of it), HTTP URLs, and the
demo with a flaw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Protocol

from inspector.answers.source import AnswerSource
from inspector.lab.lab_calls import LabCall
from inspector.replay.diff import JsonPath
from inspector.replay.rerun import rerun_plan
from inspector.session.session import EraMode, InspectorSession
from inspector.timeline.model import Timeline
from inspector.transport.base import Transport

CHECKS: Final = ("stateless", "tamper", "eras")
"""Every check, in the order a full ``inspector lab`` runs them."""


def calls_from_recording(recorded: Timeline) -> list[LabCall]:
    """Every call of a recorded session the lab can make again (as ``replay --against`` re-runs them: no
    handshake, no catalog list), each answered the way the recording answered it."""
    chosen, _ = rerun_plan(recorded)
    return [LabCall(call.method, dict(call.params), call) for call in chosen]


class LabTargets(Protocol):
    """The composition root's side: the instances and the sessions."""

    @property
    def names(self) -> tuple[str, ...]:
        """The instances: ``("A", "B")`` (B is a second process of A's command when one stdio SPEC was given)."""
        ...

    def describe(self, name: str) -> str:
        """What instance ``name`` is (a URL or a command line, secrets out)."""
        ...

    def transport(self, name: str) -> Transport:
        """A new connection to instance ``name`` (stdio: a new process of its command)."""
        ...

    def session(self, transport: Transport, answers: AnswerSource, *, era: EraMode, part: str) -> InspectorSession:
        """A session on ``transport``, recorded as ``part`` (``main``, ``legacy``, ``modern``, ``tasks``)."""
        ...

    def recording(self, part: str) -> str | None:
        """Where ``part``'s session was recorded (None: not recorded)."""
        ...


@dataclass(frozen=True, slots=True)
class LabOptions:
    """Which checks to run on which calls, and how results are compared."""

    calls: list[LabCall]
    checks: tuple[str, ...] = CHECKS
    ignore: list[JsonPath] = field(default_factory=list)
    """Result paths not compared (``--ignore``)."""
    compare_meta: bool = False
    era: EraMode = "auto"
    """The era of the main session (the era check runs both anyway)."""
