"""The lab's answers: every variant of a call is answered exactly as its all-on-A run was, so results compare.

A call's first run (on A) is answered by the user's source (``--answers``, ``--stub-model``, the demo's answers
file), or for a call of a recording (``--from``) by what the recording answered. Every later run of that call on the
same era's server (on B, crossing instances) is given the answers its first run gave, key by key in order, through
``ReplayAnswers``; a question the first run was not asked falls back to the user's source. A run in another era
(``lab eras``) asks other requests (a legacy ``elicitation/create`` of its own): it is answered the way the first run
was, by the same sources, each answer checked against its own request (``era_answers.OtherRunAnswers``). An
experiment (``lab tamper``) sends one round only: any question the server asks again is its refusal, so it is not
answered.
"""

from __future__ import annotations

from inspector.answers.source import Answer, AnswerSource, InputRequest, NoAnswer
from inspector.lab.era_answers import OtherRunAnswers
from inspector.replay.recorded_answers import ReplayAnswers
from inspector.timeline.model import Call


class OneRoundOnly(NoAnswer):
    """The experiment's one round is over: the server asked again instead of completing."""


class LabAnswers:
    """An answer source whose mode the lab sets before each call: ``fresh``, ``same_as``, ``in_other_era`` or
    ``one_round``."""

    def __init__(self, source: AnswerSource) -> None:
        self.source = source
        self._replay: ReplayAnswers | None = None
        self._other_era: OtherRunAnswers | None = None
        self._stop: str | None = None

    def fresh(self, recorded: Call | None = None) -> None:
        """Answer from the user's source, or (``recorded``) with what a recorded call answered."""
        self._stop = None
        self._replay = None
        self._other_era = None
        if recorded is not None:
            self._replay = ReplayAnswers(self.source)
            self._replay.use(recorded)

    def in_other_era(self, reference: Call, era: str, recorded: Call | None = None) -> None:
        """Answer a run in another era than ``reference`` (the call's all-on-A run, in ``era``) as that run was
        answered (the user's source, or ``recorded``'s answers first), each answer checked against its own request;
        ``reference``'s answer only where none of them answers, and only if it fits."""
        self.fresh(recorded)
        own = self._replay if self._replay is not None else self.source
        self._replay = None
        self._other_era = OtherRunAnswers(own, reference, era)

    def same_as(self, call: Call) -> None:
        """Answer as ``call`` (the call's all-on-A run) was answered."""
        self.fresh(call)

    def one_round(self, reason: str) -> None:
        """Answer nothing: an experiment stops at the server's first answer (``reason`` goes on the timeline)."""
        self._replay = None
        self._other_era = None
        self._stop = reason

    @property
    def notes(self) -> list[str]:
        """What the last call asked that its recorded answers did not foresee."""
        return list(self._replay.notes) if self._replay is not None else []

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """An answer in the current mode."""
        if self._stop is not None:
            raise OneRoundOnly(self._stop)
        if self._other_era is not None:
            return await self._other_era.answer(key, request)
        if self._replay is not None:
            return await self._replay.answer(key, request)
        return await self.source.answer(key, request)
