"""The answers of a recorded call, given again to the same questions when the call is re-run.

Per call, the recorded answers are kept in the order they were given. A live input request takes the first unused
answer recorded under the same key; a legacy server request (no key) the first unused one of the same method, and a
keyed request on a call recorded in the legacy era the first unused key-less one of its method, which bridges a
re-run in the other era. A question the recording has no answer for is new behaviour of the server:
it is answered by the fallback (the stub model for sampling, decline for elicitation, no roots) and noted.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from inspector.answers.chain import AnswerChain
from inspector.answers.policies import Policy
from inspector.answers.source import Answer, AnswerSource, InputRequest, InputResponse, NoAnswer, describe_request
from inspector.answers.stub_model import StubModel
from inspector.timeline.model import Call

SOURCE = "recording"


@dataclass(slots=True)
class RecordedAnswer:
    """One answer as recorded: its key (None for a legacy server request), the request method, the response, and
    the input request it answered (``{"method", "params"}``; None when the recording lost it)."""

    key: str | None
    method: str
    response: InputResponse
    used: bool = False
    request: InputRequest | None = None


def recorded_answers(call: Call) -> list[RecordedAnswer]:
    """Every answer given during ``call``, in order, with the method of the request it answered."""
    found: list[RecordedAnswer] = []
    for round_ in call.rounds:
        for given in round_.answers:
            asked: InputRequest | None = None
            if round_.kind == "server-request":
                method = round_.method
                params = (round_.request.message or {}).get("params")
                asked = {"method": method, **({"params": params} if isinstance(params, dict) else {})}
            else:
                request = round_.input_requests.get(given.key or "")
                method = str(request.get("method", "")) if isinstance(request, dict) else ""
                asked = request if isinstance(request, dict) else None
            found.append(RecordedAnswer(given.key, method, given.response, request=asked))
    return found


def default_fallback() -> AnswerSource:
    """What answers a question the recording does not have: decline, the stub model for sampling, no roots."""
    return AnswerChain(Policy("decline", stub_model=StubModel()))


class ReplayAnswers:
    """An answer source that gives the current call's recorded answers; switch calls with ``use``."""

    def __init__(self, fallback: AnswerSource | None = None) -> None:
        self.fallback = fallback if fallback is not None else default_fallback()
        self._answers: list[RecordedAnswer] = []
        self.notes: list[str] = []
        """What happened that the recording did not foresee, for the current call."""

    def use(self, call: Call) -> None:
        """Answer from now on with ``call``'s recorded answers (and start its notes afresh)."""
        self.use_answers(recorded_answers(call))

    def use_answers(self, answers: list[RecordedAnswer]) -> None:
        """Answer from now on with ``answers``, a call's recorded answers in the order given (and start its notes
        afresh): what ``use`` does with a call of a timeline, for a call held as data (``RecordedCall``)."""
        self._answers = answers
        self.notes = []

    def unused(self) -> list[RecordedAnswer]:
        """Recorded answers of the current call that no live request asked for."""
        return [a for a in self._answers if not a.used]

    def unused_note(self) -> str | None:
        """The note a re-run gives a call whose recorded answers were not all asked for (None: all were)."""
        unused = self.unused()
        if not unused:
            return None
        keys = ", ".join(repr(a.key) if a.key is not None else a.method for a in unused)
        return f"the live server did not ask for {len(unused)} recorded answer(s): {keys}"

    def _take(self, key: str | None, method: str) -> RecordedAnswer | None:
        if key is not None:
            for recorded in self._answers:
                if not recorded.used and recorded.key == key and recorded.method in (method, ""):
                    return recorded
            # A call recorded in the legacy era has key-less answers: take them by method, in order.
            for recorded in self._answers:
                if not recorded.used and recorded.key is None and recorded.method == method:
                    return recorded
            return None
        for recorded in self._answers:
            if not recorded.used and recorded.method == method:
                return recorded
        return None

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """The recorded answer to the same question, else the fallback's (noted)."""
        method = str(request.get("method", ""))
        recorded = self._take(key, method)
        if recorded is not None:
            recorded.used = True
            return Answer(copy.deepcopy(recorded.response), SOURCE)
        asked = describe_request(key, request)
        try:
            answer = await self.fallback.answer(key, request)
        except NoAnswer as missing:
            self.notes.append(f"the server asked {asked}, which the recording has no answer for: {missing.reason}")
            raise
        self.notes.append(
            f"the server asked {asked}, which the recording has no answer for; answered by {answer.source}"
        )
        return answer
