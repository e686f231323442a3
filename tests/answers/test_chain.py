"""The chain tries sources in order, falls through on Skip, and validates every answer before it is sent."""

from __future__ import annotations

from typing import Any

import pytest
from answer_requests import form, sampling

from inspector.answers import (
    Answer,
    AnswerChain,
    AnswerRefused,
    CallCancelled,
    NoAnswer,
    Policy,
    Skip,
    StubModel,
    parse_answers,
)


class Fixed:
    """A source that always gives the same response."""

    def __init__(self, response: dict[str, Any], source: str = "fixed") -> None:
        self.response, self.source, self.calls = response, source, 0

    async def answer(self, key: str | None, request: dict[str, Any]) -> Answer:
        self.calls += 1
        return Answer(self.response, self.source)


class Raises:
    def __init__(self, error: Exception) -> None:
        self.error = error

    async def answer(self, key: str | None, request: dict[str, Any]) -> Answer:
        raise self.error


async def test_first_source_that_does_not_skip_answers() -> None:
    later = Fixed({"action": "cancel"})
    chain = AnswerChain(Raises(Skip("not mine")), Fixed({"action": "decline"}, "first"), later)

    answer = await chain.answer("k", form())

    assert answer == Answer({"action": "decline"}, "first")
    assert later.calls == 0


async def test_scripted_file_without_the_key_falls_through_to_the_policy() -> None:
    chain = AnswerChain(
        parse_answers({"github_login": {"action": "accept", "content": {"name": "x"}}}), Policy("decline")
    )

    answer = await chain.answer("resolution", form())

    assert answer == Answer({"action": "decline"}, "policy: decline")


async def test_invalid_answer_is_refused_naming_source_key_and_field() -> None:
    chain = AnswerChain(Fixed({"action": "accept", "content": {"name": 7}}, "answers file"), Policy("decline"))

    with pytest.raises(AnswerRefused) as refused:
        await chain.answer("github_login", form())

    assert refused.value.reason == (
        "the answer from answers file to 'github_login' (elicitation/create) was refused: "
        "the answer does not satisfy requestedSchema: field 'name': 7 is not of type 'string'"
    )


async def test_policy_defaults_are_validated_too() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 10, "default": 1}}}

    with pytest.raises(AnswerRefused, match="field 'n': 1 is less than the minimum of 10"):
        await AnswerChain(Policy("defaults")).answer("k", form(schema))


async def test_hard_no_answer_stops_the_chain_and_lists_what_was_tried() -> None:
    later = Fixed({"action": "decline"})
    chain = AnswerChain(Raises(Skip("file has no entry")), Policy("fail"), later)

    with pytest.raises(NoAnswer) as no_answer:
        await chain.answer("k", form())

    assert no_answer.value.reason.startswith("no answer for 'k' (elicitation/create): pass --answers FILE")
    assert no_answer.value.reason.endswith("(also tried: file has no entry)")
    assert later.calls == 0


async def test_all_skipped_gives_every_reason() -> None:
    chain = AnswerChain(Raises(Skip("a: no entry")), Raises(Skip("b: only sampling")))

    with pytest.raises(NoAnswer) as no_answer:
        await chain.answer("k", form())

    assert no_answer.value.reason == "nothing answered 'k' (elicitation/create): a: no entry; b: only sampling"
    assert not isinstance(no_answer.value, Skip)


async def test_empty_chain() -> None:
    with pytest.raises(NoAnswer, match="no answer sources are configured"):
        await AnswerChain().answer("k", form())


async def test_call_cancelled_passes_through() -> None:
    with pytest.raises(CallCancelled):
        await AnswerChain(Raises(CallCancelled()), Policy("decline")).answer("k", form())


async def test_stub_model_answers_sampling_while_policy_answers_forms() -> None:
    chain = AnswerChain(StubModel(), Policy("cancel"))

    assert (await chain.answer("capital_of_france", sampling())).source == "stub model"
    assert (await chain.answer("github_login", form())).response == {"action": "cancel"}
