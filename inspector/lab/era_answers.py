"""The era check's answers: each era's run answered by the user's sources, each answer checked against the request
that run's server sent.

``lab eras`` makes every call again in the other era (and, when the main session is legacy, in both). Those runs
are not given the all-on-A run's answers as they are: a legacy ``elicitation/create`` is its own request, with its own
``requestedSchema``, and the user may have answered it in the answers file. So each question of such a run is asked,
in order:

1. of the call's own source, the one its all-on-A run was answered by: the user's (``--answers``, the stub model,
   ``--root``, ``--on-missing``), or for a recorded call its recording first. A legacy request has no key; when it is
   the same question the all-on-A run asked under a key (same method, same params but for what only one era
   carries), it is asked under that key, so the answers file's entry for that key answers it in both eras (before
   its ``"elicitation/create"`` entry, which stays for legacy questions no key matches);
2. only when none of them answers: the all-on-A run's answer to the same question (else to the next question of the
   same method it was asked, in order), checked against this request first (``validation.validate_answer``). An
   answer that does not fit is not sent: the question is refused with why, the call ends unanswered and the check
   says so.

Every answer of step 1 passes the answer chain's gate (``AnswerChain``: validated against this request, refused
and never replaced when it does not fit).
"""

from __future__ import annotations

import copy
from typing import Final

from inspector.answers.chain import AnswerChain
from inspector.answers.source import Answer, AnswerRefused, AnswerSource, InputRequest, NoAnswer, describe_request
from inspector.answers.validation import validate_answer
from inspector.protocol.methods import ELICITATION
from inspector.replay.recorded_answers import RecordedAnswer, recorded_answers
from inspector.timeline.model import Call

ONE_ERA_PARAMS: Final = frozenset({"_meta", "elicitationId", "task"})
"""Params one era's request carries and the other's does not (2025-11-25 URL mode mints an ``elicitationId``; a
legacy request may carry ``_meta`` or ``task``): left out when two requests are compared as one question."""


def question(request: InputRequest) -> tuple[str, dict[str, object]]:
    """What a request asks, era aside: its method and its params without ``ONE_ERA_PARAMS`` (an elicitation without
    a ``mode`` is a form, as 2025-06-18 wrote it)."""
    method = str(request.get("method", ""))
    params = request.get("params")
    asked = {k: v for k, v in (params if isinstance(params, dict) else {}).items() if k not in ONE_ERA_PARAMS}
    if method == ELICITATION:
        asked.setdefault("mode", "form")
    return method, asked


class OtherRunAnswers:
    """Answers one call's run in an era from ``source`` (the call's own), falling back to ``reference``'s answers
    (the call's all-on-A run, in era ``era``) checked against each request."""

    def __init__(self, source: AnswerSource, reference: Call, era: str) -> None:
        self.chain = AnswerChain(source)
        """The call's source behind the one gate: every answer it gives is validated before it is sent."""
        self.era = era
        self._asked: list[RecordedAnswer] = recorded_answers(reference)

    @property
    def label(self) -> str:
        """Who answered, on the timeline, when the all-on-A run's answer was sent: ``the modern run``."""
        return f"the {self.era} run"

    def _counterpart(self, key: str | None, request: InputRequest) -> tuple[RecordedAnswer | None, bool]:
        """The all-on-A run's question this request stands for (taken, so each is used once), and whether it is the
        same question; else the next one of the same method, in order; else none."""
        asked = question(request)
        unused = [a for a in self._asked if not a.used]
        for candidate in unused:
            if key is not None and candidate.key == key and candidate.method == asked[0]:
                candidate.used = True
                return candidate, candidate.request is not None and question(candidate.request) == asked
        for candidate in unused:
            if candidate.request is not None and question(candidate.request) == asked:
                candidate.used = True
                return candidate, True
        for candidate in unused:
            if candidate.method == asked[0]:
                candidate.used = True
                return candidate, False
        return None, False

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """The call's own source's answer (under the key of the same question); else the all-on-A run's, if it fits."""
        counterpart, same = self._counterpart(key, request)
        asked_as = key if key is not None else (counterpart.key if counterpart is not None and same else None)
        try:
            return await self.chain.answer(asked_as, request)
        except AnswerRefused:
            raise
        except NoAnswer as nothing:
            unanswered = nothing.reason
        asked = ("the " if key is None else "") + describe_request(key, request)
        if counterpart is None:
            raise NoAnswer(f"{unanswered}; the {self.era} run was asked nothing like {asked} to take an answer from")
        theirs = describe_request(counterpart.key, counterpart.request or {"method": counterpart.method})
        try:
            validate_answer(request, counterpart.response)
        except AnswerRefused as misfit:
            raise AnswerRefused(
                f"no source answered {asked}, and the {self.era} run's answer to {theirs} does not fit it, so it "
                f"was not sent: {misfit.reason}"
            ) from misfit
        return Answer(copy.deepcopy(counterpart.response), self.label)
