"""``inspector lab eras`` answers each era's run from the user's sources, each answer checked against that run's own
request, as real ``inspector lab`` processes show: the legacy run's elicitation is answered from the answers file
(its recording says so), an answer that does not fit the legacy request's ``requestedSchema`` is not sent (the row
says why), runs given different answers are not compared, and the sound demo's questions give no era warning."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from http_interop_support import CliRun, cli_env, start_many
from lab_support import read_jsonl

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

ERA_QUESTION_SERVER = f"{sys.executable} {Path(__file__).resolve().parent / 'era_question_server.py'}"
"""A dual-era tool, ``sign_in``, asking a ``name`` under the key ``login`` (modern) and a ``username`` (legacy)."""
LOGIN = {"action": "accept", "content": {"name": "octocat"}}
RUN_TIMEOUT = 240.0
"""Every run together, on a loaded two-core machine (the whole demo in both eras takes ~15 s alone)."""


def _answers(folder: Path, name: str, answers: dict[str, Any]) -> str:
    path = folder / f"{name}.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CliRun]:
    folder = tmp_path_factory.mktemp("lab-era-answers")
    weather = ["--call", "get_weather", "--args", '{"location": "Paris"}']
    sign_in = ["eras", "--server", ERA_QUESTION_SERVER, "--call", "sign_in", "--json"]
    # A list entry is used in order: the all-on-A (modern) run gets the first, the legacy run the second, so the
    # legacy run's answer can only have come from the file, never from the modern run.
    logins = {"github_login": [{"action": "accept", "content": {"name": f"{run}-run"}} for run in ("modern", "legacy")]}
    commands = {
        "from-file": ["lab", "eras", "--demo", *weather, "--answers", _answers(folder, "logins", logins), "--json",
                      "--record", str(folder / "from-file.jsonl")],
        "misfit": ["lab", *sign_in, "--answers", _answers(folder, "misfit", {"login": LOGIN}),
                   "--record", str(folder / "misfit.jsonl")],
        "fits": ["lab", *sign_in, "--answers", _answers(folder, "fits", {"login": LOGIN, "elicitation/create":
                 {"action": "accept", "content": {"username": "octocat"}}}), "--no-record"],
        "unlike": ["lab", *sign_in, "--answers", _answers(folder, "unlike", {"login": LOGIN, "elicitation/create":
                   {"action": "accept", "content": {"username": "hubot"}}}), "--record", str(folder / "unlike.jsonl")],
        "sound": ["lab", "eras", "--demo", "--json", "--record", str(folder / "sound.jsonl")],
    }  # fmt: skip
    found = start_many(commands, cli_env(folder / "data", INSPECTOR_DEMO_TASK_SCALE="0.1"), RUN_TIMEOUT).wait()
    found["folder"] = CliRun([], 0, str(folder), "")
    return found


def _era_rows(run: CliRun) -> list[dict[str, Any]]:
    return [row for row in run.document()["rows"] if row["group"] == "eras" and not row["check"].startswith("era (")]


def _answers_given(path: Path) -> list[dict[str, Any]]:
    return [r for r in read_jsonl(str(path)) if r.get("event") == "answer"]


def _replies(path: Path) -> list[dict[str, Any]]:
    """The replies the inspector sent to the server's requests (legacy era): results and errors."""
    sent = [r for r in read_jsonl(str(path)) if r.get("dir") == "c2s"]
    parsed = [r["msg"] if "msg" in r else json.loads(r["raw"]) for r in sent]
    return [m for m in parsed if "method" not in m]


def test_the_legacy_runs_elicitation_is_answered_from_the_answers_file(runs: dict[str, CliRun]) -> None:
    run = runs["from-file"]
    assert run.code == 0, run.stdout + run.stderr
    assert [(r["check"], r["verdict"]) for r in _era_rows(run)] == [("tools/call get_weather", "pass")], run.stdout
    folder = Path(runs["folder"].stdout)
    modern = _answers_given(folder / "from-file.jsonl")
    assert [(a["source"], a["response"]["content"]["name"]) for a in modern] == [("answers file", "modern-run")]
    legacy = _answers_given(folder / "from-file-legacy.jsonl")
    assert [(a["key"], a["source"], a["response"]["content"]["name"]) for a in legacy] == [
        (None, "answers file", "legacy-run")
    ], "the legacy question was asked of the file (its github_login entry: the same question), not replayed"
    assert [m["result"]["content"] for m in _replies(folder / "from-file-legacy.jsonl")] == [{"name": "legacy-run"}]


def test_a_modern_answer_that_does_not_fit_the_legacy_schema_is_not_sent(runs: dict[str, CliRun]) -> None:
    """No source answers the legacy question (the file has only the modern key, and this one asks a username): the
    modern run's answer is checked against the legacy requestedSchema, does not fit, and is not sent."""
    run = runs["misfit"]
    assert run.code == 0, run.stdout + run.stderr
    [row] = _era_rows(run)
    assert row["verdict"] == "skip" and row["part"] == "legacy", row
    assert row["why"].startswith("not compared: the legacy run could not be answered"), row["why"]
    assert "the modern run's answer to 'login' (elicitation/create) does not fit it, so it was not sent" in row["why"]
    assert "'username' is a required property" in row["why"]
    assert '"elicitation/create"' in row["try"], "it says how to answer the legacy question"
    replies = _replies(Path(runs["folder"].stdout) / "misfit-legacy.jsonl")
    assert [m.get("result") for m in replies] == [None], "no answer reached the server"
    assert "does not fit it, so it was not sent" in replies[0]["error"]["message"]
    findings = [r for r in read_jsonl(str(Path(runs["folder"].stdout) / "misfit-legacy.jsonl")) if r.get("event") ==
                "finding"]  # fmt: skip
    assert [f["code"] for f in findings] == ["answer-refused"]


def test_an_answer_the_file_gives_the_legacy_question_is_checked_and_sent(runs: dict[str, CliRun]) -> None:
    run = runs["fits"]
    assert run.code == 0, run.stdout + run.stderr
    assert [(r["verdict"], r["why"]) for r in _era_rows(run)] == [("pass", "the same result in both eras")]


def test_eras_given_different_answers_are_not_compared_never_a_warning(runs: dict[str, CliRun]) -> None:
    """The file answers the legacy question with another name: the results differ because the answers do."""
    run = runs["unlike"]
    assert run.code == 0, run.stdout + run.stderr
    [row] = _era_rows(run)
    assert row["verdict"] == "skip", row
    assert row["why"].startswith("not compared: the eras were given different answers"), row["why"]
    assert '"name":"octocat"' in row["why"] and '"username":"hubot"' in row["why"]
    legacy = _answers_given(Path(runs["folder"].stdout) / "unlike-legacy.jsonl")
    assert [(a["source"], a["response"]["content"]) for a in legacy] == [("answers file", {"username": "hubot"})]


def test_the_sound_demo_asks_its_questions_in_both_eras_without_an_era_warning(runs: dict[str, CliRun]) -> None:
    """Every demo flow that asks something (forms, URL consent, sampling, roots, a task's questions) gets the same
    result in both eras, each era's questions answered from the demo's answers file. The one warning left is
    ``heavy_report``, which asks nothing and really answers differently (it resumes from a ticket in the modern era
    and builds at once in the legacy one)."""
    run = runs["sound"]
    assert run.code == 0, run.stdout + run.stderr
    verdicts = {(row["check"], row["verdict"]) for row in _era_rows(run)}
    assert {v for _, v in verdicts} <= {"pass", "warn"}, run.stdout
    assert [check for check, verdict in verdicts if verdict == "warn"] == ["tools/call heavy_report"], run.stdout
    legacy = _answers_given(Path(runs["folder"].stdout) / "sound-legacy.jsonl")
    assert len(legacy) >= 15 and all(a["source"].startswith("answers file") for a in legacy), legacy
