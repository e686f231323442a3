"""The lab against two demo servers in this process: the sound demo passes every check; each flaw fails the check it
should, and the row says the cause the rounds point to."""

from __future__ import annotations

import pytest
from lab_support import CALLS, WEATHER, WORK_ITEM, explain, rows, run_lab

from inspector.demo.flaw_names import STATE_KEY_ENV
from inspector.demo.task_model import SCALE_ENV
from inspector.lab.lab_calls import tool_call
from inspector.lab.lab_report import EXIT_FAIL, EXIT_PASS

TASK_TOOLS = [tool_call("deploy_release", {"version": "1.2"}), tool_call("nightly_build", {})]


@pytest.fixture(autouse=True)
def _shared_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both instances seal requestState under one key, as ``inspector lab --demo`` has them do; the task tools work
    for a tenth of their time."""
    monkeypatch.setenv(STATE_KEY_ENV, "k" * 40)
    monkeypatch.setenv(SCALE_ENV, "0.1")


async def test_the_sound_demo_passes_every_check() -> None:
    report = await run_lab()
    assert report.exit_code == EXIT_PASS, explain(report)
    assert not report.failed
    groups = {r.group for r in report.rows}
    assert {"baseline", "stateless 1", "stateless 2", "stateless 3", "tamper", "eras"} <= groups
    crossing = rows(report, "stateless 2", "pass")
    assert [r.route for r in crossing if r.check.startswith("tools/call update_work_item")][:2] == ["A B A", "B A B"]
    assert all(r.route.split() == ["B"] * len(r.route.split()) for r in rows(report, "stateless 1"))
    assert rows(report, "stateless 3", "skip")[0].why.startswith("no task tools seen")


async def test_every_tamper_row_is_an_experiment_refused_by_the_sound_demo() -> None:
    report = await run_lab(calls=[WORK_ITEM, *CALLS[3:]], checks=("tamper",))
    tampered = rows(report, "tamper")
    assert tampered and all(r.experiment for r in tampered)
    refused = {r.experiment for r in tampered if r.verdict == "pass"}
    assert {
        "with one byte flipped",
        "truncated to half",
        "empty",
        "omitted",
        "of another call of the same tool",
    } <= refused
    replayed = [r for r in tampered if r.experiment == "replayed after its call completed"]
    assert replayed and all(r.verdict == "warn" for r in replayed), explain(report)
    assert "-32602" in next(r.why for r in tampered if r.experiment == "with one byte flipped")


async def test_sticky_state_fails_the_crossing_and_names_process_memory() -> None:
    report = await run_lab("sticky-state", calls=[WORK_ITEM], checks=("stateless",))
    assert report.exit_code == EXIT_FAIL
    assert rows(report, "stateless 1", "fail") == [], "on B alone the flow keeps its memory: only crossing breaks it"
    failed = rows(report, "stateless 2", "fail")
    assert len(failed) == 2, explain(report)
    assert "asked again for 'resolution'" in failed[0].why and "process memory" in failed[0].why
    assert "requestState" in failed[0].hint


async def test_session_capabilities_fails_discover_on_a_calls_on_b() -> None:
    report = await run_lab("session-capabilities", calls=[WEATHER], checks=("stateless",))
    failed = rows(report, "stateless 1", "fail")
    assert [r.check for r in failed] == ["tools/call get_weather on B"], explain(report)
    assert "-32021" in failed[0].why and "earlier request" in failed[0].why
    assert "_meta" in failed[0].hint


async def test_trusting_state_is_a_security_finding_when_a_flipped_byte_changes_the_outcome() -> None:
    report = await run_lab("trusting-state", calls=[WEATHER, WORK_ITEM], checks=("tamper",))
    flipped = [r for r in rows(report, "tamper", "fail") if r.experiment == "with one byte flipped"]
    assert flipped and all(r.security for r in flipped), explain(report)
    assert "SECURITY" in flipped[0].why and "MUST validate" in flipped[0].why
    assert "outcome changed" in flipped[0].why


async def test_trusting_state_still_passes_the_stateless_groups() -> None:
    report = await run_lab("trusting-state", calls=[WORK_ITEM], checks=("stateless",))
    assert report.exit_code == EXIT_PASS, explain(report)


async def test_own_key_fails_the_crossing_with_a_state_sealed_per_instance() -> None:
    report = await run_lab("own-key", calls=[WORK_ITEM], checks=("stateless",))
    failed = rows(report, "stateless 2", "fail")
    assert len(failed) == 2, explain(report)
    assert "refused the requestState" in failed[0].why and "key each instance makes for itself" in failed[0].why
    assert "same sealing key" in failed[0].hint


async def test_the_sound_demo_shares_its_tasks_between_instances() -> None:
    """Both task tools made on one instance and followed on the other: a poll, the approval (``tasks/update``) and
    the result on B of a task A runs, and the other way round; a new client finds each task on B by its id."""
    report = await run_lab(calls=TASK_TOOLS, checks=("stateless",))
    assert report.exit_code == EXIT_PASS, explain(report)
    crossing = rows(report, "stateless 2", "pass")
    assert [r.check for r in crossing] == ["tools/call deploy_release · A⇄B", "tools/call deploy_release · B⇄A"]
    assert all("its task was followed on both instances (" in r.why and "tasks/update" in r.why for r in crossing)
    found = rows(report, "stateless 3", "pass")
    assert len(found) == 2 and all(r.why.startswith("B knows the task A made") for r in found), explain(report)


async def test_own_tasks_fails_the_task_checks_naming_the_store() -> None:
    report = await run_lab("own-tasks", calls=TASK_TOOLS, checks=("stateless",))
    assert report.exit_code == EXIT_FAIL
    assert rows(report, "stateless 1", "fail") == [], "on B alone every task is B's own"
    assert len(rows(report, "stateless 2", "fail")) == 2, explain(report)
    lost = rows(report, "stateless 3", "fail")
    assert len(lost) == 2 and all("the task lives where only A finds it" in r.why for r in lost), explain(report)
    assert all(r.hint.startswith("keep tasks in a store every instance reads") for r in lost)
