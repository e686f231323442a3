"""What the Lab screen needs from the composition root: which calls it may offer, and a lab run it can start.

The lab (``inspector.lab``) routes requests through the ``Transport`` protocol, so the UI never imports its runner
(``ui`` never holds a transport, not even indirectly): the screen describes the run it wants as plain data
(``LabAsk``), and the factory the CLI injects (``cli/tui_lab.py``) turns it into a ``Lab`` over new instances of
the target. A run is watched through the lab's own events and read as its ``LabReport`` (plain data too).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, Protocol

from inspector.lab.lab_calls import LabCall

if TYPE_CHECKING:
    from inspector.answers.source import AnswerSource
    from inspector.lab.lab_events import LabListener
    from inspector.lab.lab_report import LabReport
    from inspector.targets.target import Target

CHECK_NAMES: Final = ("stateless", "tamper", "eras")
"""The checks a run may pick (the lab's ``CHECKS``, in its order)."""
CHECK_TITLES: Final = {
    "stateless": "stateless  calls on B, rounds A⇄B, tasks",
    "tamper": "tamper  altered requestState (experiments)",
    "eras": "eras  legacy and modern, diffed",
}
"""How the screen names each check (the full story is the README's table)."""
Source = Literal["session", "suggested", "catalog"]
"""Where an offered call came from: a call of this session (answered as it was), the target's own suggestions
(the demo's flows), or a catalog tool with no required argument (called with ``{}``)."""


@dataclass(frozen=True, slots=True)
class LabChoice:
    """One call the lab may make (the lab's own ``LabCall``: method, params, and for a call of this session the call
    whose answers answer its first run), and where the screen found it."""

    call: LabCall
    source: Source


@dataclass(frozen=True, slots=True)
class LabAsk:
    """The run the screen asks for: instance A is the connected target; B is ``instance_b`` (a command or a URL),
    or, when empty, a second process of A's command."""

    target: Target
    instance_b: str
    checks: tuple[str, ...]
    calls: tuple[LabChoice, ...]


class LabRefused(Exception):
    """The run cannot start as asked (one URL is one instance, a bad spec for B): what to change, for people."""


class LabRun(Protocol):
    """A lab run (``inspector.lab.Lab`` is one): its events, in order, and its report."""

    report: LabReport

    def subscribe(self, listener: LabListener) -> None: ...

    async def run(self) -> LabReport: ...


class LabFactory(Protocol):
    """The composition root's side of the Lab screen."""

    def suggested(self, target: Target) -> list[LabChoice]:
        """Calls worth offering for ``target`` beyond the session's own (the demo's flows); often none."""
        ...

    def second_instance(self, target: Target) -> str:
        """What B is when the screen leaves it empty, in words ("a second process of CMD"), or "" when B must be
        given (a URL is one instance)."""
        ...

    def start(self, ask: LabAsk, answers: AnswerSource) -> LabRun:
        """A run, not started; raises ``LabRefused`` when it cannot be made as asked."""
        ...
