"""The files that hold what a session was about are readable by their user only, whoever made their folder first:
a ``--record`` path in folders that do not exist yet (``writable_recording`` makes them before the recorder opens the
file: they were made 0755 and the file 0644 until the recorder came), and the recent targets (a command line or a
URL may carry a token), and a JUnit report (its failures quote the server)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.cli.options import writable_recording
from inspector.junit import save_junit
from inspector.targets.known import RECENT_FILE, load_recent, remember
from inspector.targets.target import Target

if TYPE_CHECKING:
    from pathlib import Path


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def test_a_record_path_in_new_folders_is_made_private_before_anything_is_written(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    path = writable_recording(tmp_path / "runs" / "today" / "call.jsonl")
    assert path.is_file() and mode(path) == 0o600
    assert mode(tmp_path / "runs" / "today") == 0o700 and mode(tmp_path / "runs") == 0o700
    existing = tmp_path / "mine.jsonl"
    existing.write_text("old\n", encoding="utf-8")
    existing.chmod(0o644)
    assert mode(writable_recording(existing)) == 0o600, "a file --record overwrites is made private as well"
    assert mode(tmp_path) == 0o755, "a folder that exists is the user's own: left as it is"


def test_the_recent_targets_are_the_users_only(tmp_path: Path) -> None:
    folder = tmp_path / "config"
    target = Target("stdio", command=("my-server", "--token", "s3cret"), name="my-server")
    remember(folder, target)
    assert mode(folder / RECENT_FILE) == 0o600 and mode(folder) == 0o700
    assert [t.command for t in load_recent(folder)] == [target.command]


def test_a_junit_file_is_the_users_only_as_a_recording_is(tmp_path: Path) -> None:
    """A JUnit report quotes what a server answered (a failure's diff): like a recording, 0600 in new 0700 folders,
    and an older report it replaces is made private too."""
    tmp_path.chmod(0o755)
    path = tmp_path / "results" / "lab.xml"
    save_junit(path, "<testsuites/>")
    assert path.read_text(encoding="utf-8") == "<testsuites/>"
    assert mode(path) == 0o600 and mode(tmp_path / "results") == 0o700
    path.chmod(0o644)
    save_junit(path, "<testsuites tests='1'/>")
    assert path.read_text(encoding="utf-8") == "<testsuites tests='1'/>" and mode(path) == 0o600
