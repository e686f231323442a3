"""A lab run records both instances in one recording: each round says where it went, the replay shows the same, the
experiments say they are experiments, and every other retry carried its requestState byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest
from lab_support import InProcessTargets, explain, read_jsonl, run_lab
from rich.console import Console

from inspector.demo.flaw_names import STATE_KEY_ENV
from inspector.headless.json_document import call_json
from inspector.headless.printed_timeline import print_timeline
from inspector.lab.lab_session import EXPERIMENT
from inspector.replay.loader import build_loaded, load_recording


@pytest.fixture
def targets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> InProcessTargets:
    """Two sound in-process demos sharing a sealing key, every session recorded under ``tmp_path``."""
    monkeypatch.setenv(STATE_KEY_ENV, "k" * 40)
    return InProcessTargets(folder=tmp_path)


async def test_the_replay_of_a_lab_recording_shows_which_instance_each_round_went_to(
    targets: InProcessTargets,
) -> None:
    report = await run_lab(targets=targets, checks=("stateless", "tamper"))
    assert not report.failed, explain(report)
    path = report.recordings["main"]
    replayed = build_loaded(load_recording(path))
    instances = [[r.instance for r in call.rounds if r.kind == "request"] for call in replayed.calls]
    assert ["A"] in instances, "the handshake and the reference calls went to A"
    assert ["A", "B", "A"] in instances and ["B", "A", "B"] in instances, "the crossed update_work_item runs"
    assert all(None not in seen for seen in instances), "every request of a lab run has its instance"
    routes = [row.route for row in report.rows if row.group == "stateless 2"]
    assert routes and all(route.split() in instances for route in routes)
    instance_records = [r for r in read_jsonl(path) if r.get("event") == "instance"]
    assert {r["instance"] for r in instance_records} == {"A", "B"}


async def test_a_replayed_lab_call_prints_and_documents_its_instances(
    targets: InProcessTargets,
) -> None:
    report = await run_lab(targets=targets, checks=("stateless",))
    replayed = build_loaded(load_recording(report.recordings["main"]))
    crossed = next(c for c in replayed.calls if [r.instance for r in c.rounds] == ["A", "B", "A"])
    console = Console(width=200, record=True, color_system=None)
    print_timeline(console, replayed, calls=[crossed])
    printed = console.export_text()
    assert "on A →" in printed and "on B →" in printed
    assert [r["instance"] for r in call_json(crossed)["rounds"]] == ["A", "B", "A"]


async def test_experiments_are_labelled_and_every_other_retry_echoes_its_state(
    targets: InProcessTargets,
) -> None:
    report = await run_lab(targets=targets, checks=("stateless", "tamper"))
    replayed = build_loaded(load_recording(report.recordings["main"]))
    experiments = [c for c in replayed.calls if any(f.code == EXPERIMENT for f in c.findings)]
    tamper_rows = [r for r in report.rows if r.group == "tamper" and r.call is not None]
    assert {c.index for c in experiments} == {r.call for r in tamper_rows}
    assert all("requestState" in c.params or "inputResponses" in c.params for c in experiments)
    echoes = [
        r.request_state.echoed
        for c in replayed.calls
        if c not in experiments
        for r in c.rounds
        if r.request_state is not None and r.result_type == "input_required" and r is not c.rounds[-1]
    ]
    assert echoes and all(echoes), "outside the experiments, every state was retried byte for byte"
