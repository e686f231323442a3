"""The stub model replies deterministically to sampling, honouring maxTokens."""

from __future__ import annotations

import pytest
from answer_requests import form, sampling

from inspector.answers import Skip, StubModel
from inspector.answers.stub_model import prompt_text


async def test_capital_of_france_gets_paris() -> None:
    answer = await StubModel().answer("capital_of_france", sampling("What is the capital of France?"))

    assert answer.response == {
        "role": "assistant",
        "content": {"type": "text", "text": "Paris"},
        "model": "inspector-stub",
        "stopReason": "endTurn",
    }
    assert answer.source == "stub model"


async def test_unknown_prompt_is_echoed_with_a_fixed_prefix() -> None:
    answer = await StubModel().answer("k", sampling("Summarise   the\nweather report"))

    assert answer.response["content"] == {"type": "text", "text": "Stub answer to: Summarise the weather report"}


async def test_same_request_same_reply() -> None:
    stub = StubModel()
    first = await stub.answer("k", sampling("Tell me a story"))
    second = await stub.answer("k", sampling("Tell me a story"))

    assert first == second


async def test_reply_longer_than_max_tokens_is_cut_and_says_so() -> None:
    answer = await StubModel().answer("k", sampling("one two three four five", max_tokens=4))

    assert answer.response["content"]["text"] == "Stub answer to: one"
    assert answer.response["stopReason"] == "maxTokens"


async def test_reply_exactly_max_tokens_long_is_not_cut() -> None:
    answer = await StubModel().answer("k", sampling("a b", max_tokens=5))

    assert answer.response["content"]["text"] == "Stub answer to: a b"
    assert answer.response["stopReason"] == "endTurn"


async def test_request_with_tools_still_gets_one_text_block() -> None:
    tools = [{"name": "search", "inputSchema": {"type": "object"}}]
    answer = await StubModel().answer("k", sampling("What is the capital of France?", tools=tools))

    assert answer.response["content"] == {"type": "text", "text": "Paris"}
    assert answer.response["stopReason"] == "endTurn"


async def test_last_user_message_is_the_prompt_and_non_text_blocks_are_named() -> None:
    request = sampling()
    request["params"]["messages"] = [
        {"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}},
        {"role": "assistant", "content": {"type": "text", "text": "Paris"}},
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Describe"},
                {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"},
                {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
            ],
        },
    ]

    answer = await StubModel().answer("k", request)

    assert answer.response["content"]["text"] == "Stub answer to: Describe [image] [audio]"


def test_no_user_message_gives_an_empty_prompt() -> None:
    assert prompt_text({"messages": [{"role": "assistant", "content": {"type": "text", "text": "hi"}}]}) == ""


async def test_custom_canned_table_is_case_insensitive() -> None:
    stub = StubModel(canned=[("Meaning of Life", "42")])

    answer = await stub.answer("k", sampling("what is the MEANING OF LIFE?"))

    assert answer.response["content"]["text"] == "42"


async def test_elicitation_is_not_the_stub_models_business() -> None:
    with pytest.raises(Skip, match="only answers sampling"):
        await StubModel().answer("github_login", form())
