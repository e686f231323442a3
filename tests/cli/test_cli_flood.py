"""Floods and a task that never ends, through the real ``inspector`` process against the bad fixture server.
A call that gets 100,000 progress notifications, a subscription flooded with 200,000 ``resources/updated`` and a
call drowned in 300,000 malformed messages (a finding each) keep a flat memory (the process's peak RSS, read from
``/proc`` while it runs, under a bound the unbounded timeline passed well before the end: it held every notification,
186 MB after 86,000 events, and every finding, 143 MB after 300,000), while the recording has every one and the
printed timeline, ``--json`` and ``replay`` say how many came; a legacy server that sends requests without end
(50,000 ``roots/list`` of no call, 50,000 ``ping`` during a call: 498 MB when each was kept) has each answered and
recorded, and its call and the session keep counts and the first or newest. A task the server never ends is cancelled at
``--task-timeout`` (``tasks/cancel`` in the 2026 and the 2025-11-25 forms, which the server logs), with a
``task-timeout`` finding and exit 3."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pytest
from cli_support import ENTRY, bad_server_spec
from printed_text import says

from inspector.timeline.kept_findings import KEPT_PER_CODE
from inspector.timeline.recent_events import KEPT_EVENTS
from inspector.timeline.server_requests import KEPT_SERVER_REQUESTS

pytestmark = [pytest.mark.external, pytest.mark.timeout(240)]  # (external: these tests start processes)

PEAK_MB: Final = 100
"""The peak RSS a flooded run stays under: about 56 MB was measured for every flood here (the interpreter, rich and
the session); keeping every notification, the call's 20,000 progress notifications peaked at 82 MB (the 100,000 did
not end in 10 minutes: each progress notification was compared with every earlier one) and the listen reached
186 MB at 86,000 events."""
RUN_TIMEOUT: Final = 100.0
"""Seconds a flooded run may take on a loaded 2-core machine (about 6 s alone; a test makes two at most)."""


@dataclass(frozen=True)
class Run:
    """How an ``inspector`` process ended: its exit code, its output, and its peak RSS in MB."""

    code: int
    stdout: str
    stderr: str
    peak_mb: float
    seconds: float


def peak_rss_mb(pid: int) -> float | None:
    """The process's own peak RSS so far (``VmHWM``, per address space: it starts afresh at ``exec``), in MB; None
    once it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    kb = next((line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")), None)
    return int(kb) / 1024 if kb is not None else None


def run_measured(*args: str, env: dict[str, str]) -> Run:
    """``inspector ARGS`` as a real process, its output in files (a flood's stderr is not held in a pipe), its peak
    RSS read from ``/proc`` while it runs (``VmHWM`` only rises, so the last reading is the peak but for its very
    end). Not ``wait4``'s ``ru_maxrss``: a child forked from a pytest worker that has grown to 400 MB reports the
    worker's size as its own peak (Linux keeps the pre-``exec`` high-water mark in it)."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        began = time.monotonic()
        process = subprocess.Popen([sys.executable, "-c", ENTRY, *args], stdout=out, stderr=err, env=env)
        peak = 0.0
        while process.poll() is None:
            reading = peak_rss_mb(process.pid)
            peak = max(peak, reading or 0.0)
            if time.monotonic() - began > RUN_TIMEOUT:
                process.kill()
            try:
                process.wait(timeout=0.02)  # (a bounded wait on its exit between two readings)
            except subprocess.TimeoutExpired:
                continue
        seconds = time.monotonic() - began
        out.seek(0)
        err.seek(0)
        return Run(process.returncode, out.read(), err.read(), peak, seconds)


def flood_env(count: int) -> dict[str, str]:
    return {**os.environ, "BAD_SERVER_FLOOD": str(count), "COLUMNS": "200"}


def recorded(path: Path, method: str) -> int:
    """How many server messages of ``method`` the recording holds."""
    count = 0
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if method not in line:
                continue
            record = json.loads(line)
            raw = record.get("raw")
            if record.get("dir") == "s2c" and isinstance(raw, str) and json.loads(raw).get("method") == method:
                count += 1
    return count


def test_a_call_flooded_with_progress_keeps_a_flat_memory_and_the_recording_has_every_one(tmp_path: Path) -> None:
    recording = tmp_path / "flood.jsonl"
    count = 100_000
    run = run_measured(
        "call", "echo", "--server", bad_server_spec("flood"), "--record", str(recording), env=flood_env(count)
    )
    assert run.code == 0, run.stderr[-2000:]
    assert run.peak_mb < PEAK_MB, f"peak RSS {run.peak_mb:.0f} MB for {count:,} notifications"
    print(f"\n{count:,} progress notifications on one call: peak RSS {run.peak_mb:.0f} MB in {run.seconds:.1f} s")
    assert recorded(recording, "notifications/progress") == count, "the recording has every one"
    assert says(run.stdout, f"{count:,} notifications (last {KEPT_EVENTS} shown)"), run.stdout
    assert says(run.stdout, f"notifications/progress {count:,}", f"done after {count} progress notifications")
    assert says(run.stderr, f"progress {count}/{count}"), "the last progress is printed, whatever was thinned"
    assert len(run.stderr.splitlines()) < 1000, "a flood is not a line a notification on stderr"

    replayed = run_measured("replay", str(recording), "--json", env=flood_env(count))
    assert replayed.code == 0, replayed.stderr[-2000:]
    (flooded,) = [r for c in json.loads(replayed.stdout)["calls"] for r in c["rounds"] if r.get("notificationCount")]
    assert flooded["notificationCount"] == count and flooded["notificationsByMethod"] == {
        "notifications/progress": count
    }
    assert len(flooded["notifications"]) == KEPT_EVENTS
    assert flooded["notifications"][-1]["params"]["progress"] == count, "the newest kept"


def test_the_json_export_of_a_flooded_call_has_every_notification_of_its_recording(tmp_path: Path) -> None:
    """The timeline keeps a round's newest ``KEPT_EVENTS``; ``inspector export --as json`` reads the recording, which
    has them all (it exported the kept 100 before)."""
    recording = tmp_path / "flood.jsonl"
    count = 20 * KEPT_EVENTS + 7
    run = run_measured(
        "call", "echo", "--server", bad_server_spec("flood"), "--record", str(recording), env=flood_env(count)
    )
    assert run.code == 0, run.stderr[-2000:]
    assert says(run.stdout, f"{count:,} notifications (last {KEPT_EVENTS} shown)"), "the call is folded on its timeline"
    (echo,) = [line.split()[0] for line in run.stdout.splitlines() if "tools/call echo" in line]
    exported = run_measured("export", str(recording), "--call", echo.lstrip("#"), "--as", "json", env=flood_env(0))
    assert exported.code == 0, exported.stderr[-2000:]
    messages = json.loads(exported.stdout)
    progress = [m["params"]["progress"] for m in messages if m.get("method") == "notifications/progress"]
    assert progress == list(range(1, count + 1)), "every one, in the order it came"
    assert messages[0]["method"] == "tools/call" and messages[-1]["result"]["content"][0]["text"] == (
        f"done after {count} progress notifications"
    )
    assert len(messages) == count + 2, "the request, every notification, the response: nothing else"


def test_a_subscription_storm_keeps_a_flat_memory_and_the_recording_has_every_event(tmp_path: Path) -> None:
    recording = tmp_path / "storm.jsonl"
    count = 200_000
    run = run_measured(
        "listen", "--uri", "file:///storm", "--server", bad_server_spec("flood"), "--record", str(recording), "--json",
        env=flood_env(count),
    )  # fmt: skip
    assert run.code == 0, run.stderr[-2000:]
    assert run.peak_mb < PEAK_MB, f"peak RSS {run.peak_mb:.0f} MB for {count:,} events"
    print(f"\n{count:,} events on one subscription: peak RSS {run.peak_mb:.0f} MB in {run.seconds:.1f} s")
    assert recorded(recording, "notifications/resources/updated") == count, "the recording has every one"
    listen = json.loads(run.stdout)["listen"]
    assert listen["end"] == "graceful" and listen["eventCount"] == count
    assert listen["eventsByMethod"] == {"notifications/resources/updated": count}
    assert len(listen["events"]) == KEPT_EVENTS and listen["events"][-1]["params"]["n"] == count
    assert len(run.stderr.splitlines()) < 2000, "a storm is not a line an event on stderr"


def test_a_flood_of_malformed_messages_keeps_a_flat_memory_and_says_how_many_findings_came(tmp_path: Path) -> None:
    """Each malformed message is a finding (``invalid-message``, ``unknown-response-id``); kept whole, 300,000 of
    them peaked at 143 MB (and printing a line each took 90 s). The session keeps the first of each code and counts
    the rest; the printed timeline and ``replay --json`` say how many came, and the recording has every message."""
    recording = tmp_path / "garbage.jsonl"
    count = 300_000
    invalid, stray = count - count // 3, count // 3  # (in turn: a number for a method, not JSON, an id never sent)
    run = run_measured(
        "call", "echo", "--server", bad_server_spec("garbage-flood"), "--record", str(recording), env=flood_env(count)
    )
    assert run.peak_mb < PEAK_MB, f"peak RSS {run.peak_mb:.0f} MB for {count:,} malformed messages"
    assert run.code == 0, run.stderr[-2000:]
    print(f"\n{count:,} malformed messages: peak RSS {run.peak_mb:.0f} MB in {run.seconds:.1f} s")
    assert says(
        run.stdout,
        f"✗ invalid-message ×{invalid:,} in this session (first {KEPT_PER_CODE} shown)",
        f"✗ unknown-response-id ×{stray:,} in this session (first {KEPT_PER_CODE} shown)",
        "the recording has what raised every one",
    ), run.stdout[-3000:]
    shown = [line for line in run.stdout.splitlines() if "invalid-message:" in line or "unknown-response-id:" in line]
    assert len(shown) == 2 * KEPT_PER_CODE, "the first of each code are printed, and only they"
    assert "'garbage line 2 " in run.stdout and "'stray-3'" in run.stdout, "the first ones, not the newest"
    padded = 0
    with recording.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            padded += record.get("dir") == "s2c" and "xxxxxxxxxx" in str(record.get("raw", ""))
    assert padded == count, "the recording has every malformed message"

    replayed = run_measured("replay", str(recording), "--json", env=flood_env(0))
    assert replayed.code == 0, replayed.stderr[-2000:]
    doc = json.loads(replayed.stdout)
    assert doc["findingsByCode"]["invalid-message"] == invalid
    assert doc["findingsByCode"]["unknown-response-id"] == stray
    assert doc["findingCount"] == sum(doc["findingsByCode"].values())
    codes = [found["code"] for found in doc["findings"]]
    assert codes.count("invalid-message") == KEPT_PER_CODE and codes.count("unknown-response-id") == KEPT_PER_CODE


def test_a_legacy_server_asking_without_end_keeps_a_flat_memory_and_every_request_is_answered(tmp_path: Path) -> None:
    """A 2025 server sends 50,000 ``roots/list`` while no call that asks the user is in flight (session rows), then
    50,000 ``ping`` during one tools/call (rounds of it), each batch's replies read before the next: each was a round
    or a row kept whole, and 50,000 of each peaked at 498 MB. The call keeps its first and newest, the session its
    newest, both count every one; the server ends only once every request was answered, the recording has them all,
    and the printed timeline and ``replay --json`` say how many came."""
    recording = tmp_path / "asking.jsonl"
    count = 50_000  # (the unbounded timeline was at 498 MB here; 200,000 of each peak at the same 60 MB, in 30 s)
    run = run_measured(
        "call", "echo", "--server", bad_server_spec("request-flood"), "--record", str(recording), env=flood_env(count)
    )
    assert run.peak_mb < PEAK_MB, f"peak RSS {run.peak_mb:.0f} MB for {count:,} requests of each kind"
    assert run.code == 0, run.stderr[-2000:]
    print(f"\n{count:,} ping and {count:,} roots/list: peak RSS {run.peak_mb:.0f} MB in {run.seconds:.1f} s")
    assert says(run.stdout, f"done after {count} ping requests"), "every request was answered (the server waits)"
    assert says(
        run.stdout,
        f"{count:,} server requests (first {KEPT_SERVER_REQUESTS} shown) · ping {count:,}",
        f"◆ session {count:,} server requests (last {KEPT_SERVER_REQUESTS} shown) · roots/list {count:,}",
    ), run.stdout[-3000:]
    assert len(run.stdout.splitlines()) < 3 * KEPT_SERVER_REQUESTS, "a round a line for the first ones only"
    assert recorded(recording, "ping") == count and recorded(recording, "roots/list") == count

    replayed = run_measured("replay", str(recording), "--json", env=flood_env(0))
    assert replayed.code == 0, replayed.stderr[-2000:]
    doc = json.loads(replayed.stdout)
    (echo,) = [c for c in doc["calls"] if c["method"] == "tools/call"]
    assert echo["serverRequestCount"] == count and echo["serverRequestsByMethod"] == {"ping": count}
    assert len(echo["laterServerRequests"]) == KEPT_SERVER_REQUESTS
    assert echo["laterServerRequests"][-1]["id"] == f"flood-{count - 1}", "the newest kept"
    assert doc["sessionRequestCount"] == count and doc["sessionRequestsByMethod"] == {"roots/list": count}
    assert len(doc["session"]) == KEPT_SERVER_REQUESTS


@pytest.mark.parametrize(("mode", "era"), [("task-forever", "modern"), ("task-forever-legacy", "legacy")])
def test_a_task_that_never_ends_is_cancelled_at_its_timeout_with_a_finding(tmp_path: Path, mode: str, era: str) -> None:
    """The fixture's task stays ``working`` (polled every 50 ms: its hint is 0) until ``tasks/cancel`` comes."""
    recording = tmp_path / "task.jsonl"
    began = time.monotonic()
    run = run_measured(
        "call", "echo", "--server", bad_server_spec(mode), "--task-timeout", "2", "--record", str(recording), "--json",
        env=flood_env(0),
    )  # fmt: skip
    assert run.code == 3, (run.stdout[-2000:], run.stderr[-2000:])
    assert time.monotonic() - began < 60, "ended by the timeout, not by the test's"
    doc = json.loads(run.stdout)
    assert doc["era"] == era and doc["status"] == "failed"
    assert "ran past --task-timeout 2 s and was cancelled: the server cancelled it" in doc["detail"]
    (found,) = [f for f in doc["findings"] if f["code"] == "task-timeout"]
    assert "tasks/cancel was sent" in found["message"]
    assert [r["method"] for r in doc["rounds"]].count("tasks/cancel") == 1
    sent = [json.loads(line) for line in recording.read_text(encoding="utf-8").splitlines()[1:]]
    cancels = [r for r in sent if r.get("dir") == "c2s" and (r.get("msg") or {}).get("method") == "tasks/cancel"]
    assert len(cancels) == 1 and cancels[0]["msg"]["params"]["taskId"] == "forever-1"
    said = [r.get("raw") for r in sent if r.get("dir") == "stderr"]
    assert "tasks/cancel forever-1" in said, "the server received it"

    printed = run_measured(
        "call", "echo", "--server", bad_server_spec(mode), "--task-timeout", "0.5", "--no-record", env=flood_env(0)
    )
    assert printed.code == 3
    assert says(printed.stdout, "task-timeout: the task forever-1 still ran after --task-timeout 0.5 s")
    assert says(printed.stderr, "try: raise --task-timeout (0: no limit)", "server: tasks/cancel forever-1")
