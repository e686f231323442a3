"""Sources tried in order, and the one gate every answer passes: validation before it is sent.

A source that raises ``Skip`` ("not mine") lets the next one try. The first answer wins and is validated against
its request (``validation.validate_answer``); an invalid answer is refused, never sent, and never replaced by a
later source's, because a silently different answer would hide the mistake. A ``NoAnswer`` that is not a ``Skip``
stops the chain: that source owned the request and could not answer it. ``CallCancelled`` passes straight through.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.answers.source import AnswerRefused, NoAnswer, NotAsked, Skip, describe_request

if TYPE_CHECKING:
    from inspector.answers.source import Answer, AnswerSource, InputRequest


class AnswerChain:
    """An answer source made of other sources, tried in order."""

    def __init__(self, *sources: AnswerSource) -> None:
        self.sources: tuple[AnswerSource, ...] = sources

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """The first non-skipped source's answer, validated; ``NoAnswer`` with every skip reason if none answers."""
        skipped: list[str] = []
        for source in self.sources:
            try:
                answer = await source.answer(key, request)
            except Skip as exc:
                if not isinstance(exc, NotAsked):
                    skipped.append(exc.reason)
                continue
            except AnswerRefused:
                raise
            except NoAnswer as exc:
                if not skipped:
                    raise
                raise NoAnswer(f"{exc.reason} (also tried: {'; '.join(skipped)})") from exc
            # (imported on the first answer: validation loads jsonschema, ~60 ms that a command whose calls ask
            # nothing, and the TUI's first paint, need not wait for)
            from inspector.answers.validation import validate_answer

            try:
                validate_answer(request, answer.response)
            except AnswerRefused as exc:
                raise AnswerRefused(
                    f"the answer from {answer.source} to {describe_request(key, request)} was refused: {exc.reason}"
                ) from exc
            return answer
        if not skipped:
            raise NoAnswer(f"nothing can answer {describe_request(key, request)}: no answer sources are configured")
        raise NoAnswer(f"nothing answered {describe_request(key, request)}: {'; '.join(skipped)}")
