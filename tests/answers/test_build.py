"""build_answer_source: answers file, then stub model, then configured roots, then the on-missing policy."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from answer_requests import form, roots, sampling

from inspector.answers import AnswerRefused, AnswersFileError, NoAnswer, build_answer_source

if TYPE_CHECKING:
    from pathlib import Path

OCTOCAT = {"action": "accept", "content": {"name": "octocat"}}


def answers_file(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


async def test_defaults_to_failing_with_what_to_pass() -> None:
    source = build_answer_source()

    with pytest.raises(NoAnswer, match=r"pass --answers FILE with a 'github_login' entry, or --on-missing"):
        await source.answer("github_login", form())


async def test_file_first_then_on_missing(tmp_path: Path) -> None:
    source = build_answer_source(answers_file(tmp_path, {"github_login": OCTOCAT}), on_missing="decline")

    assert (await source.answer("github_login", form())).response == OCTOCAT
    assert (await source.answer("resolution", form())).response == {"action": "decline"}


async def test_failing_after_the_file_says_the_file_had_no_entry(tmp_path: Path) -> None:
    path = answers_file(tmp_path, {"github_login": OCTOCAT})
    source = build_answer_source(path, on_missing="fail")

    with pytest.raises(NoAnswer) as no_answer:
        await source.answer("resolution", form())

    assert f"(also tried: answers file {path} has no entry for 'resolution'" in no_answer.value.reason


async def test_stub_model_answers_sampling_the_file_does_not_cover(tmp_path: Path) -> None:
    source = build_answer_source(answers_file(tmp_path, {"github_login": OCTOCAT}), stub_model=True)

    answer = await source.answer("capital_of_france", sampling())

    assert answer.response == {
        "role": "assistant",
        "content": {"type": "text", "text": "Paris"},
        "model": "inspector-stub",
        "stopReason": "endTurn",
    }
    assert answer.source == "stub model"


async def test_sampling_without_stub_model_fails_with_the_flag_to_pass() -> None:
    source = build_answer_source(on_missing="decline")

    with pytest.raises(NoAnswer, match="Pass --stub-model"):
        await source.answer("capital_of_france", sampling())


async def test_configured_roots_answer_roots_list(tmp_path: Path) -> None:
    source = build_answer_source(roots=[tmp_path], on_missing="fail")

    answer = await source.answer(None, roots())

    assert answer.response == {"roots": [{"uri": tmp_path.as_uri(), "name": tmp_path.name}]}
    assert answer.source == "roots list"


async def test_no_roots_given_answers_no_roots_and_says_how_to_give_one() -> None:
    # (never the current folder: a server must not learn a path the user did not give)
    answer = await build_answer_source().answer(None, roots())

    assert answer.response == {"roots": []}
    assert answer.source == "no roots given (--root DIR offers one)"


async def test_star_stub_in_the_file_uses_the_configured_roots(tmp_path: Path) -> None:
    source = build_answer_source(answers_file(tmp_path, {"*": "stub"}), roots=["file:///srv/app"])

    assert (await source.answer("roots", roots())).response == {"roots": [{"uri": "file:///srv/app"}]}


async def test_bad_scripted_answer_is_refused_not_sent(tmp_path: Path) -> None:
    source = build_answer_source(answers_file(tmp_path, {"github_login": {"action": "accept", "content": {}}}))

    with pytest.raises(AnswerRefused, match="field 'name': 'name' is a required property"):
        await source.answer("github_login", form())


def test_bad_file_is_reported_before_any_call(tmp_path: Path) -> None:
    with pytest.raises(AnswersFileError, match="entry 'github_login'"):
        build_answer_source(answers_file(tmp_path, {"github_login": "yes"}))


def test_non_file_root_is_rejected() -> None:
    with pytest.raises(ValueError, match="is not a file:// URI"):
        build_answer_source(roots=["https://example.com"])
