"""Damaged and foreign recordings: replay shows what it can, says which line it could not read and why, never
crashes, and never writes to the file."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from printed_text import says
from replay_support import invoke

from inspector.replay import RecordingError, load_recording, timeline_from_recording
from inspector.replay.loader import build_loaded
from inspector.timeline import records

HEADER = records.header(
    "python server.py", "stdio", "auto", started="2026-01-01T00:00:00+00:00", inspector_version="0.1.0"
)


def _call_records(call: int = 1, request_id: int = 1) -> list[records.Record]:
    request = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 1}},
    }
    response = {"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": "2"}]}}
    return [
        records.call_started(0.1 * call, call, "tools/call", {"name": "add", "arguments": {"a": 1}}),
        records.wire(0.1 * call + 0.01, "c2s", json.dumps(request), call=call),
        records.wire(0.1 * call + 0.02, "s2c", json.dumps(response)),
        records.call_ended(0.1 * call + 0.03, call, "complete"),
    ]


UNHASHABLE_PROGRESS = {
    "jsonrpc": "2.0",
    "method": "notifications/progress",
    "params": {"progressToken": [1], "progress": 1},
}
"""A progress token that is a JSON array: the builder cannot look it up (a record it cannot apply)."""


def _lines(*items: records.Record) -> list[str]:
    return [json.dumps(item) for item in items]


def _write(path: Path, lines: list[str], *, newline_at_end: bool = True) -> Path:
    path.write_bytes(("\n".join(lines) + ("\n" if newline_at_end else "")).encode("utf-8"))
    return path


def _fingerprint(path: Path) -> tuple[str, int]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns


def test_a_whole_recording_has_no_problems(tmp_path: Path) -> None:
    path = _write(tmp_path / "ok.jsonl", _lines(HEADER, *_call_records(1, 1), *_call_records(2, 2)))
    timeline, problems = timeline_from_recording(path)
    assert problems == []
    assert [c.status for c in timeline.calls] == ["complete", "complete"]
    assert timeline.target == "python server.py" and timeline.transport == "stdio"


def test_cut_last_line_keeps_everything_before_it(tmp_path: Path) -> None:
    whole = _lines(HEADER, *_call_records(1, 1), *_call_records(2, 2))
    cut = [*whole[:-1], whole[-1][: len(whole[-1]) // 2]]
    path = _write(tmp_path / "killed.jsonl", cut, newline_at_end=False)
    before = _fingerprint(path)
    timeline, problems = timeline_from_recording(path)
    assert [(p.line, p.severity) for p in problems] == [(9, "error")]
    assert "cut off" in problems[0].why and "killed" in problems[0].why
    assert len(timeline.calls) == 2
    assert timeline.calls[1].status == "complete"  # only its end record was cut: the response says it ended
    assert timeline.calls[1].rounds[0].result_type == "complete"
    assert _fingerprint(path) == before


def test_a_line_that_is_not_json_is_named_and_skipped(tmp_path: Path) -> None:
    lines = _lines(HEADER, *_call_records(1, 1))
    lines.insert(3, "this is {not json")
    lines.insert(4, "[1, 2, 3]")
    path = _write(tmp_path / "garbled.jsonl", lines)
    timeline, problems = timeline_from_recording(path)
    assert [(p.line, p.severity) for p in problems] == [(4, "error"), (5, "error")]
    assert problems[0].why.startswith("not JSON") and "this is {not json" in problems[0].why
    assert "not a JSON object but list" in problems[1].why
    assert timeline.calls[0].status == "complete" and timeline.calls[0].result is not None


@pytest.mark.parametrize("version", ["one", None, 0, 1.5])
def test_unknown_format_version_is_read_as_version_1_with_a_warning(tmp_path: Path, version: object) -> None:
    header = {**HEADER, "version": version}
    path = _write(tmp_path / "odd.jsonl", _lines(header, *_call_records()))
    timeline, problems = timeline_from_recording(path)
    assert [(p.line, p.severity) for p in problems] == [(1, "warning")]
    assert f"unknown format version {version!r}" in problems[0].why
    assert timeline.calls[0].status == "complete"


def test_a_recording_from_a_newer_inspector_shows_what_it_understands(tmp_path: Path) -> None:
    header = {**HEADER, "version": 2, "inspector": "9.0.0", "compression": "none"}
    future = [
        {"t": 0.05, "dir": "event", "event": "bookmark", "label": "look here"},
        {"t": 0.06, "dir": "s2c-datagram", "raw": "{}"},
    ]
    path = _write(tmp_path / "newer.jsonl", _lines(header, *future, *_call_records()))
    loaded = load_recording(path)
    timeline = build_loaded(loaded)
    assert loaded.newer
    assert [(p.line, p.severity) for p in loaded.problems] == [(1, "warning"), (2, "warning"), (3, "warning")]
    assert "newer inspector (inspector 9.0.0): format version 2" in loaded.problems[0].why
    assert "unknown record event='bookmark'" in loaded.problems[1].why
    assert "unknown record kind dir='s2c-datagram'" in loaded.problems[2].why
    assert timeline.calls[0].status == "complete"


def test_damaged_records_and_odd_files_never_crash(tmp_path: Path) -> None:
    lines = _lines(
        HEADER,
        {"t": "soon", "dir": "c2s", "raw": "{}"},
        {"t": 0.01, "dir": "s2c"},
        {"t": 0.02, "dir": "event", "event": "end", "call": 99, "status": "complete"},
        {"t": 0.03, "dir": "event", "event": "finding", "call": 1, "round": 7, "severity": "error"},
        {"t": 0.04, "dir": "s2c", "raw": '{"jsonrpc":"2.0","id":42,"result":{}}'},
        {"t": 0.05, "dir": "s2c", "raw": json.dumps(UNHASHABLE_PROGRESS)},
        HEADER,
        *_call_records(),
    )
    lines.insert(2, "")
    path = _write(tmp_path / "damaged.jsonl", lines)
    path.write_bytes(path.read_bytes() + b'{"t": 1.0, "dir": "stderr", "raw": "caf\xe9"}\n')
    timeline, problems = timeline_from_recording(path)
    described = [p.describe() for p in problems]
    assert described[0] == "line 2: the time 'soon' is not a number; skipped"
    assert described[1] == "line 3: empty line; skipped"
    assert described[2] == "line 4: the record has no raw text; skipped"
    # line 8 (a progress token that is a JSON array) applies: the builder no longer trips over it
    assert "a second header line" in described[3]
    assert "line 14: not UTF-8" in described[4]
    assert len(described) == 5
    assert timeline.calls[-1].status == "complete"
    assert timeline.console[-1].text == "caf\ufffd"
    assert [f.code for f in timeline.findings] == ["", "unknown-response-id"]


def test_headerless_empty_and_missing_files(tmp_path: Path) -> None:
    headerless = _write(tmp_path / "headerless.jsonl", _lines(*_call_records()))
    timeline, problems = timeline_from_recording(headerless)
    assert problems[0].line == 1 and "no header line" in problems[0].why
    assert timeline.calls[0].status == "complete"
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(RecordingError, match=r"not an inspector recording: .*\(it is empty\)"):
        load_recording(empty)
    with pytest.raises(RecordingError, match="no such recording"):
        load_recording(tmp_path / "missing.jsonl")
    with pytest.raises(RecordingError, match="is a folder"):
        load_recording(tmp_path)


def test_replay_command_lists_problems_on_stderr_and_still_prints(tmp_path: Path) -> None:
    lines = _lines(HEADER, *_call_records(1, 1), *_call_records(2, 2))
    lines.insert(2, "garbage")
    path = _write(tmp_path / "bad.jsonl", [*lines[:-1], lines[-1][:20]], newline_at_end=False)
    before = _fingerprint(path)
    result = invoke("replay", str(path))
    assert result.exit_code == 0
    assert "error: line 3: not JSON" in result.stderr
    assert "error: line 10: the last line was cut off" in result.stderr
    assert "#1 tools/call add  complete" in result.stdout and "#2 tools/call add  complete" in result.stdout
    as_json = invoke("replay", str(path), "--json")
    doc = json.loads(as_json.stdout)
    assert [p["line"] for p in doc["problems"]] == [3, 10]
    assert [c["status"] for c in doc["calls"]] == ["complete", "complete"]
    for args in (("--step", "--no-wait"), ("export", "--call", "1")):
        command = ("export", str(path), *args[1:]) if args[0] == "export" else ("replay", str(path), *args)
        assert invoke(*command).exit_code == 0
    assert _fingerprint(path) == before
    missing = invoke("replay", str(tmp_path / "nope.jsonl"))
    assert missing.exit_code == 2 and "no such recording" in missing.stderr


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"hello\n", "its first line is 'hello', and no line is a record"),
        (Path(__file__).parents[2].joinpath("README.md").read_bytes(), "its first line is '# inspector'"),
        (b"", "it is empty"),
        (b'[1, 2]\n{"a": 1}\n', "no line is a record"),
    ],
    ids=["a word", "the README", "empty", "json but no records"],
)
def test_a_file_that_is_not_a_recording_is_refused_with_exit_2(content: bytes, said: str, tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(content)
    result = invoke("replay", str(path), "--print")
    assert result.exit_code == 2, result.output
    assert says(result.stderr, f"not an inspector recording: {path}", said, "inspector sessions"), result.stderr
    assert result.stdout == "" and result.stderr.count("error:") == 1, "one message, not one a line"


def test_many_damaged_lines_are_summed_up_not_listed_one_by_one(tmp_path: Path) -> None:
    lines = _lines(HEADER, *_call_records(1, 1))
    path = _write(tmp_path / "noisy.jsonl", [*lines, *(f"garbage {n}" for n in range(300))])
    result = invoke("replay", str(path), "--print")
    assert result.exit_code == 0 and "#1 tools/call add  complete" in result.stdout
    said = result.stderr.splitlines()
    assert len([line for line in said if "not JSON" in line]) == 5, "the first few, by line"
    assert says(result.stderr, "295 more line(s) like these (300 in all); --json lists every one")
    as_json = json.loads(invoke("replay", str(path), "--json").stdout)
    assert len([p for p in as_json["problems"] if "not JSON" in p["why"]]) == 300


def test_a_line_nested_too_deeply_is_named_and_skipped_without_a_traceback(tmp_path: Path) -> None:
    """A crafted line of 200,000 ``[`` made the replay crash with a RecursionError; the recording around it reads."""
    lines = _lines(HEADER, *_call_records(1, 1))
    path = _write(tmp_path / "deep.jsonl", [lines[0], "[" * 200_000, *lines[1:]])
    result = invoke("replay", str(path), "--print")
    assert result.exit_code == 0, result.output
    assert "error: line 2: nested too deeply to read (200000 bytes); skipped" in result.stderr
    assert "#1 tools/call add  complete" in result.stdout and "Traceback" not in result.output
