"""What a task that breaks the Tasks extension's rules raises, built from records as a live run and a replay build
it: each finding from the catalog, with its severity and the hint that says why it matters, on the round that
showed it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import inspector
from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline
from inspector.timeline.findings import CATALOG
from inspector.timeline.model import Finding, Timeline
from inspector.ui.widgets.work_rows import polls_text

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
}
TASK = {"taskId": "t-1", "createdAt": "2026-12-01T10:00:00Z", "lastUpdatedAt": "2026-12-01T10:00:00Z", "ttlMs": 60000}


def _task_call(*polls: dict[str, Any]) -> list[Finding]:
    """A declared tools/call answered with a task, then one tasks/get per poll answered with it; its findings."""
    return list(_task_timeline(*polls).findings)


def _task_timeline(*polls: dict[str, Any]) -> Timeline:
    """The timeline of that call (see ``_task_call``)."""
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "build", "_meta": META}}
    created = {"resultType": "task", "status": "working", **TASK}
    made = [
        records.call_started(0.0, 1, "tools/call", {"name": "build"}),
        records.wire(0.1, "c2s", json.dumps(request), call=1),
        records.wire(0.2, "s2c", json.dumps({"jsonrpc": "2.0", "id": 1, "result": created})),
    ]
    for n, poll in enumerate(polls, start=2):
        get = {"jsonrpc": "2.0", "id": n, "method": "tasks/get", "params": {"taskId": "t-1", "_meta": META}}
        answer = {"resultType": "complete", **TASK, **poll}
        made.append(records.wire(n, "c2s", json.dumps(get), call=1))
        made.append(records.wire(n + 0.5, "s2c", json.dumps({"jsonrpc": "2.0", "id": n, "result": answer})))
    timeline = build_timeline(made)
    (call,) = timeline.calls
    assert call.task is not None, "the call follows its task"
    return timeline


def test_a_well_behaved_task_raises_nothing() -> None:
    result = {"content": [{"type": "text", "text": "built"}]}
    assert _task_call({"status": "working"}, {"status": "completed", "result": result}) == []


def test_a_terminal_status_that_changes_is_an_error_with_the_rule_it_breaks() -> None:
    result = {"content": [{"type": "text", "text": "built"}]}
    (found,) = _task_call({"status": "completed", "result": result}, {"status": "working"})
    assert found.code == "task-terminal-changed" and found.message == "task t-1 went completed → working"
    assert found.severity == "error" and "terminal" in found.hint and found.round_index == 3


def test_a_completed_task_without_its_result_and_a_failed_one_without_its_error_say_what_is_lost() -> None:
    (found,) = _task_call({"status": "completed"})
    assert (found.code, found.severity) == ("task-result-missing", "error") and "outcome is lost" in found.hint
    (found,) = _task_call({"status": "failed"})
    assert (found.code, found.severity) == ("task-error-missing", "error") and "JSON-RPC error" in found.hint


def test_an_unknown_status_is_an_error_that_names_the_statuses_there_are() -> None:
    (found,) = _task_call({"status": "paused"})
    assert found.code == "unknown-task-status" and "'paused'" in found.message
    assert found.severity == "error" and "working, input_required, completed, failed or cancelled" in found.hint


def test_a_poll_hint_out_of_bounds_says_once_what_is_waited_instead() -> None:
    result: dict[str, object] = {"content": []}
    found = _task_call(
        {"status": "working", "pollIntervalMs": 10**12},
        {"status": "working", "pollIntervalMs": 10**12},  # (the same hint again: no second finding)
        {"status": "working", "pollIntervalMs": 0},
        {"status": "working", "pollIntervalMs": 250},
        {"status": "completed", "result": result, "pollIntervalMs": 250},
    )
    assert [(f.code, f.message, f.round_index) for f in found] == [
        ("task-poll-interval", "task t-1: pollIntervalMs 1e+12: polled every 300 s instead", 2),
        ("task-poll-interval", "task t-1: pollIntervalMs 0: polled every 0.05 s instead", 4),
    ]
    assert found[0].severity == "warning" and "no hang" in found[0].hint


def test_the_polls_row_and_the_task_detail_say_what_was_waited_for_a_hint_out_of_bounds() -> None:
    years = {"pollIntervalMs": 10**12}
    (call,) = _task_timeline({"status": "working", **years}, {"status": "completed", "result": {}, **years}).calls
    assert polls_text(call).endswith(" · every 1000000000000 ms (polled every 300 s)")
    (call,) = _task_timeline({"status": "completed", "result": {}, "pollIntervalMs": 250}).calls
    assert polls_text(call).endswith(" · every 250 ms"), "a hint followed as given is shown as given"


RAISED = re.compile(r'(?:make|on_round|_finding)\(\s*(?:state,\s*)?"([a-z0-9-]+)"')
"""A finding raised with its code written out (``lint.make``, ``BuildState.on_round``, build_tasks' ``_finding``)."""


def test_every_finding_the_package_raises_is_in_the_catalog_with_why_it_matters() -> None:
    package = Path(inspector.__file__).parent
    raised = {code for path in package.rglob("*.py") for code in RAISED.findall(path.read_text(encoding="utf-8"))}
    assert len(raised) > 30, "the pattern still finds the codes where they are raised"
    assert sorted(raised - set(CATALOG)) == [], "a code missing here is shown as a warning with no hint"
    assert all(hint for _, hint in CATALOG.values())
