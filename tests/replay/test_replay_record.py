"""Record by default, ``--no-record``, pruning, ``inspector sessions``, and no secrets in any recording."""

from __future__ import annotations

import datetime as dt
import json
import shlex
from pathlib import Path

import pytest
from replay_support import CHANGED, DEMO, http_server, invoke

from inspector.replay import store
from inspector.replay.steps import print_steps
from inspector.session.task_store import store_path

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)


def _recordings(data_dir: Path) -> list[Path]:
    return sorted((data_dir / "recordings").glob("*.jsonl"))


def test_headless_sessions_record_by_default_and_sessions_lists_them(data_dir: Path) -> None:
    result = invoke("call", "add", "--args", '{"a": 1, "b": 2}', "--demo")
    assert result.exit_code == 0, result.stderr
    [path] = _recordings(data_dir)
    assert f"recorded to {path}" in result.stderr
    quiet = invoke("list", "tools", "--demo", "--no-record")
    assert quiet.exit_code == 0 and "recorded to" not in quiet.stderr
    assert _recordings(data_dir) == [path]
    doc = json.loads(invoke("sessions", "--json").stdout)
    assert doc["folder"] == str(data_dir / "recordings")
    [listed] = doc["sessions"]
    assert listed["path"] == str(path) and listed["target"] == shlex.join(DEMO) and listed["transport"] == "stdio"
    assert (listed["era"], listed["calls"], listed["bytes"]) == ("modern 2026-07-28", 3, path.stat().st_size)
    shown = invoke("sessions")
    assert path.name in shown.stdout and "modern 2026-07-28" in shown.stdout and "3 calls" in shown.stdout


def test_sessions_with_no_recordings(data_dir: Path) -> None:
    assert "no recordings in" in invoke("sessions").stdout


def _fake(folder: Path, count: int, size: int = 10) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for i in range(count):
        path = folder / f"session-20260101-0000{i:02d}-000000.jsonl"
        path.write_bytes(b"x" * size)
        made.append(path)
    return made


def test_pruning_keeps_the_newest_within_count_and_size(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = data_dir / "recordings"
    made = _fake(folder, 5)
    mine = folder / "my-own.jsonl"
    mine.write_text("kept")
    monkeypatch.setenv(store.KEEP_ENV, "3")
    path = store.new_recording_path(now=dt.datetime(2027, 1, 1))
    assert path.name == "session-20270101-000000-000000.jsonl"
    assert store.kept_recordings() == made[3:]  # room for the new one: 2 old + 1 new = 3
    assert mine.exists()
    assert store.prune(folder, store.Limits(files=10, bytes=15)) == [made[3]]
    assert store.kept_recordings() == made[4:]


def test_limits_from_config_file_and_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert store.limits() == store.Limits(200, 500 * 2**20)
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[recordings]\nkeep = 20\nkeep_mb = 5\n")
    assert store.limits() == store.Limits(20, 5 * 2**20)
    monkeypatch.setenv(store.KEEP_MB_ENV, "7")
    monkeypatch.setenv(store.KEEP_ENV, "many")
    warnings: list[str] = []
    assert store.limits(warnings) == store.Limits(20, 7 * 2**20)
    assert warnings == ["$INSPECTOR_KEEP_RECORDINGS='many' is not a positive integer; ignored"]
    config.write_text("[recordings\n")
    warnings = []
    assert store.limits(warnings).files == 200 and "using the defaults" in warnings[0]


def test_no_secrets_in_recordings_http_bearer_and_marked_headers(tmp_path: Path) -> None:
    path = tmp_path / "http.jsonl"
    with http_server(DEMO) as url:
        result = invoke(
            "call",
            "add",
            "--args",
            '{"a": 1, "b": 2}',
            "--server",
            url,
            "--bearer",
            "bearer-TOKEN-123",
            "--header",
            "X-Api-Key: api-KEY-456",
            "--header",
            "X-Team-Secret: team-SECRET-789",
            "--secret",
            "X-Team-Secret",
            "--record",
            str(path),
        )
    assert result.exit_code == 0, result.stderr
    text = path.read_text(encoding="utf-8")
    for secret in ("bearer-TOKEN-123", "api-KEY-456", "team-SECRET-789"):
        assert secret not in text
    assert '"Authorization":"[redacted]"' in text and '"X-Team-Secret":"[redacted]"' in text


def test_no_secrets_in_recordings_stdio_env_marked_secret(data_dir: Path) -> None:
    spec = shlex.join(CHANGED)
    result = invoke(
        "call",
        "add",
        "--args",
        '{"a": 1, "b": 2}',
        "--server",
        spec,
        "--env",
        "CHANGED_SERVER_TOKEN=env-SECRET-321",
        "--secret",
        "CHANGED_SERVER_TOKEN",
    )
    assert result.exit_code == 0, result.stderr
    [path] = _recordings(data_dir)
    text = path.read_text(encoding="utf-8")
    assert "env-SECRET-321" not in text
    assert "changed server started with token [redacted]" in text  # the server printed it on stderr


def test_step_mode_walks_message_by_message_with_gaps(tmp_path: Path) -> None:
    path = tmp_path / "weather.jsonl"
    answers = str(Path(__file__).parents[2] / "inspector" / "demo" / "answers.json")
    invoke(
        "call", "get_weather", "--args", '{"location": "Oslo"}', "--demo", "--answers", answers, "--record", str(path)
    )
    result = invoke("replay", str(path), "--step", "--no-wait")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "→ #3 tools/call get_weather (id 3)" in out
    assert "← id 3 input_required  asks github_login  requestState (" in out
    assert "│ answered github_login: " in out
    assert "→ #3 tools/call get_weather (id 4)  answers github_login  echoes requestState (" in out
    assert "└ #3 complete" in out
    assert out.count("ms → ") + out.count("ms ← ") == 8  # discover, tools/list, two rounds: each shows its gap
    from rich.console import Console

    from inspector.replay import load_recording

    waits: list[int] = []
    shown = print_steps(Console(file=open("/dev/null", "w")), load_recording(path).records, lambda: waits.append(1))  # noqa: SIM115, PTH123
    assert shown == 8 and len(waits) == 7


def test_recordings_and_the_task_store_are_readable_by_their_user_only(data_dir: Path, tmp_path: Path) -> None:
    """A recording holds what the server said and what the user answered: 0600, in a recordings folder made 0700;
    so does a recording written where --record points (over a file that was 0644), and the store of task ids."""
    assert invoke("call", "nightly_build", "--demo").exit_code == 0
    [path] = _recordings(data_dir)
    assert path.stat().st_mode & 0o777 == 0o600
    assert (data_dir / "recordings").stat().st_mode & 0o777 == 0o700
    given = tmp_path / "mine.jsonl"
    given.write_text("old\n", encoding="utf-8")
    given.chmod(0o644)
    assert invoke("call", "add", "--args", '{"a": 1, "b": 2}', "--demo", "--record", str(given)).exit_code == 0
    assert given.stat().st_mode & 0o777 == 0o600 and given.read_text(encoding="utf-8").startswith('{"recording"')
    tasks = store_path(data_dir)
    assert tasks.is_file() and tasks.stat().st_mode & 0o777 == 0o600, "the task ids kept for `inspector task`"
