"""A scripted answers file: exact responses by key, method-name entries for legacy requests, "*" policies."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from answer_requests import form, roots, sampling, url

from inspector.answers import (
    AnswerRefused,
    AnswersFileError,
    ConfiguredRoots,
    NoAnswer,
    ScriptedAnswers,
    Skip,
    load_answers_file,
)

if TYPE_CHECKING:
    from pathlib import Path

OCTOCAT = {"action": "accept", "content": {"name": "octocat"}}
PARIS = {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "scripted"}


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "answers.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def load(tmp_path: Path, data: Any, **kwargs: Any) -> ScriptedAnswers:
    return load_answers_file(write(tmp_path, data), **kwargs)


async def test_key_entry_is_sent_exactly_as_written(tmp_path: Path) -> None:
    written = {"action": "accept", "content": {"name": "octocat"}, "_meta": {"x-note": "kept"}}
    answers = load(tmp_path, {"github_login": written})

    answer = await answers.answer("github_login", form())

    assert answer.response == written
    assert list(answer.response) == ["action", "content", "_meta"]
    assert answer.source == "answers file"


async def test_sampling_and_roots_entries(tmp_path: Path) -> None:
    listed = {"roots": [{"uri": "file:///srv/app", "name": "app"}]}
    answers = load(tmp_path, {"capital_of_france": PARIS, "roots": listed})

    assert (await answers.answer("capital_of_france", sampling())).response == PARIS
    assert (await answers.answer("roots", roots())).response == listed


async def test_sent_responses_are_copies_of_the_script(tmp_path: Path) -> None:
    answers = load(tmp_path, {"github_login": OCTOCAT})
    first = await answers.answer("github_login", form())
    first.response["content"]["name"] = "changed"

    second = await answers.answer("github_login", form())

    assert second.response == OCTOCAT


async def test_list_entry_is_used_in_order_and_the_last_repeats(tmp_path: Path) -> None:
    answers = load(
        tmp_path,
        {"github_login": [{"action": "decline"}, OCTOCAT, {"action": "accept", "content": {"name": "hubot"}}]},
    )

    names = [(await answers.answer("github_login", form())).response.get("content") for _ in range(4)]

    assert names == [None, {"name": "octocat"}, {"name": "hubot"}, {"name": "hubot"}]


async def test_legacy_request_is_matched_by_method_name(tmp_path: Path) -> None:
    answers = load(
        tmp_path,
        {
            "elicitation/create": OCTOCAT,
            "sampling/createMessage": PARIS,
            "roots/list": {"roots": []},
            "*": "decline",
        },
    )

    assert (await answers.answer(None, form())).response == OCTOCAT
    assert (await answers.answer(None, sampling())).response == PARIS
    assert (await answers.answer(None, roots())).response == {"roots": []}


async def test_key_entry_wins_over_method_entry_which_wins_over_star(tmp_path: Path) -> None:
    answers = load(tmp_path, {"github_login": OCTOCAT, "elicitation/create": {"action": "cancel"}, "*": "decline"})

    assert (await answers.answer("github_login", form())).response == OCTOCAT
    assert (await answers.answer("other_key", form())).response == {"action": "cancel"}
    assert (await answers.answer(None, form())).response == {"action": "cancel"}
    assert (await answers.answer(None, roots())).response == {"roots": []}


@pytest.mark.parametrize("policy", ["decline", "cancel"])
async def test_star_policy_declines_or_cancels_elicitation(tmp_path: Path, policy: str) -> None:
    answers = load(tmp_path, {"*": policy})

    answer = await answers.answer("anything", form())

    assert answer.response == {"action": policy}
    assert answer.source == f"answers file (policy: {policy})"


async def test_star_defaults_accepts_with_defaults(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"lang": {"type": "string", "default": "python"}}, "required": ["lang"]}
    answers = load(tmp_path, {"*": "defaults"})

    assert (await answers.answer("language", form(schema))).response == {
        "action": "accept",
        "content": {"lang": "python"},
    }
    assert (await answers.answer("dashboard", url())).response == {"action": "accept"}


async def test_star_stub_answers_every_kind(tmp_path: Path) -> None:
    answers = load(tmp_path, {"*": "stub"}, roots=ConfiguredRoots(["file:///srv/app"]))

    reply = await answers.answer("capital_of_france", sampling())
    listed = await answers.answer("roots", roots())

    assert reply.response["content"] == {"type": "text", "text": "Paris"}
    assert reply.response["model"] == "inspector-stub"
    assert reply.source == "answers file (stub model)"
    assert listed.response == {"roots": [{"uri": "file:///srv/app"}]}


async def test_star_policy_that_cannot_answer_falls_through(tmp_path: Path) -> None:
    answers = load(tmp_path, {"*": "decline"})

    with pytest.raises(Skip, match=r"entry '\*': policy 'decline' cannot answer 'capital_of_france'"):
        await answers.answer("capital_of_france", sampling())


async def test_star_fail_fails(tmp_path: Path) -> None:
    answers = load(tmp_path, {"*": "fail"})

    with pytest.raises(NoAnswer) as no_answer:
        await answers.answer("github_login", form())

    assert not isinstance(no_answer.value, Skip)


async def test_a_key_entry_may_name_a_policy(tmp_path: Path) -> None:
    answers = load(tmp_path, {"github_login": "cancel"})

    assert (await answers.answer("github_login", form())).response == {"action": "cancel"}


async def test_missing_entry_is_skipped_with_what_to_add(tmp_path: Path) -> None:
    path = write(tmp_path, {"github_login": OCTOCAT})
    answers = load_answers_file(path)

    with pytest.raises(Skip) as skipped:
        await answers.answer("resolution", form())

    assert skipped.value.reason.startswith(
        f"answers file {path} has no entry for 'resolution' (elicitation/create): add \"resolution\": an ElicitResult"
    )


async def test_key_entry_of_the_wrong_kind_is_refused(tmp_path: Path) -> None:
    answers = load(tmp_path, {"capital_of_france": OCTOCAT})

    with pytest.raises(AnswerRefused, match=r"entry 'capital_of_france' is an ElicitResult but the server asked"):
        await answers.answer("capital_of_france", sampling())


async def test_star_response_of_another_kind_does_not_apply(tmp_path: Path) -> None:
    answers = load(tmp_path, {"*": {"action": "decline"}})

    assert (await answers.answer("k", form())).response == {"action": "decline"}
    with pytest.raises(Skip):
        await answers.answer("k", sampling())


# -- Bad files: the message names the file, the entry and the fix.


def error_for(tmp_path: Path, data: Any) -> str:
    path = write(tmp_path, data)
    with pytest.raises(AnswersFileError) as error:
        load_answers_file(path)
    message = str(error.value)
    assert message.startswith(f"answers file {path}")
    return message


def test_not_json(tmp_path: Path) -> None:
    message = error_for(tmp_path, '{"github_login": {"action": "accept",}}')

    assert "is not valid JSON (line 1, column 38: Expecting property name enclosed in double quotes)" in message
    assert "no trailing commas" in message


def test_not_an_object(tmp_path: Path) -> None:
    message = error_for(tmp_path, [OCTOCAT])

    assert "must be a JSON object mapping input-request keys to responses, but it is an array" in message


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(AnswersFileError, match=r"cannot be read \(No such file or directory\); check the path"):
        load_answers_file(tmp_path / "nope.json")


def test_entry_of_the_wrong_json_type(tmp_path: Path) -> None:
    message = error_for(tmp_path, {"github_login": 42})

    assert (
        ", entry 'github_login': is a number; use a response object, a list of response objects, or a policy name"
        in message
    )


def test_unknown_policy_name(tmp_path: Path) -> None:
    message = error_for(tmp_path, {"*": "accept"})

    assert "entry '*': 'accept' is not a policy name; use" in message
    assert '"decline", "cancel", "defaults", "stub", "fail"' in message


def test_response_that_fits_no_method(tmp_path: Path) -> None:
    message = error_for(tmp_path, {"github_login": {"name": "octocat"}})

    assert "entry 'github_login': the response is not an input response; write an ElicitResult such as" in message


def test_elicit_result_with_a_bad_action(tmp_path: Path) -> None:
    message = error_for(tmp_path, {"github_login": {"action": "accepted", "content": {"name": "octocat"}}})

    assert "entry 'github_login': the response is not a valid ElicitResult (action: Input should be" in message
    assert 'write an ElicitResult such as {"action": "accept", "content": {...}}' in message


def test_sampling_result_without_model(tmp_path: Path) -> None:
    message = error_for(
        tmp_path, {"capital_of_france": {"role": "assistant", "content": {"type": "text", "text": "Paris"}}}
    )

    assert (
        "entry 'capital_of_france': the response is not a valid CreateMessageResult (model: Field required)" in message
    )


def test_roots_with_a_non_file_uri(tmp_path: Path) -> None:
    message = error_for(tmp_path, {"roots": {"roots": [{"uri": "https://example.com"}]}})

    assert (
        "entry 'roots': the response is not a valid ListRootsResult (roots.0.uri: URL scheme should be 'file')"
        in message
    )


def test_method_entry_must_fit_its_method(tmp_path: Path) -> None:
    message = error_for(tmp_path, {"sampling/createMessage": OCTOCAT})

    assert "entry 'sampling/createMessage': the response is not a valid CreateMessageResult" in message


def test_empty_list(tmp_path: Path) -> None:
    message = error_for(tmp_path, {"github_login": []})

    assert "entry 'github_login': is an empty list; give at least one response" in message


def test_list_item_that_is_not_an_object(tmp_path: Path) -> None:
    message = error_for(tmp_path, {"github_login": [OCTOCAT, "decline"]})

    assert "entry 'github_login': item 1 is a string; each item of a list must be a response object" in message


def test_list_mixing_kinds(tmp_path: Path) -> None:
    message = error_for(tmp_path, {"k": [OCTOCAT, PARIS]})

    assert "entry 'k': item 1 is a CreateMessageResult but the items before it are ElicitResults" in message


def test_duplicate_key(tmp_path: Path) -> None:
    message = error_for(tmp_path, '{"github_login": {"action": "decline"}, "github_login": {"action": "cancel"}}')

    assert "the key 'github_login' appears twice in one JSON object; keep one of them" in message
