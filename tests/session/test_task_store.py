"""The task store: what a server's task object says is kept by id, in either era's shape, and read back newest first
(a line that is not a task line, or a field of the wrong JSON type, loses nothing else)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.session.task_store import FILE, TaskStore, known_tasks

if TYPE_CHECKING:
    from pathlib import Path


def test_remember_keeps_what_the_task_object_says_in_either_era(tmp_path: Path) -> None:
    store = TaskStore("python server.py", "rec.jsonl", folder=tmp_path)
    modern = {"taskId": "t-1", "status": "working", "createdAt": "2026-08-03T10:00:00Z", "ttlMs": 60000}
    store.remember("t-1", "ext-2026", "deploy", modern)
    store.remember("t-2", "legacy-2025", None, {"taskId": "t-2", "status": "completed", "ttl": 30000})
    first, second = known_tasks(tmp_path)
    assert (first.task_id, first.shape, first.tool, first.status, first.ttl_ms) == (
        "t-2",
        "legacy-2025",
        None,
        "completed",
        30000,
    )
    assert first.created_at is None and first.recording == "rec.jsonl" and first.target == "python server.py"
    assert (second.task_id, second.created_at, second.ttl_ms) == ("t-1", "2026-08-03T10:00:00Z", 60000)


def test_fields_of_the_wrong_type_are_left_out(tmp_path: Path) -> None:
    store = TaskStore("srv", folder=tmp_path)
    store.remember("t-1", "ext-2026", "deploy", {"status": "working", "createdAt": 5, "ttlMs": True})
    (known,) = known_tasks(tmp_path)
    assert (known.created_at, known.ttl_ms, known.recording) == (None, None, None)


def test_the_newest_line_of_an_id_wins_and_damage_is_skipped(tmp_path: Path) -> None:
    store = TaskStore("srv", folder=tmp_path)
    store.remember("t-1", "ext-2026", "deploy", {"status": "working"})
    with (tmp_path / FILE).open("a", encoding="utf-8") as out:
        out.write('not json\n{"no": "taskId"}\n')
    store.remember("t-1", "ext-2026", "deploy", {"status": "completed"})
    TaskStore("other", folder=tmp_path).remember("t-9", "ext-2026", None, {"status": "working"})
    assert [(k.task_id, k.status) for k in known_tasks(tmp_path)] == [("t-9", "working"), ("t-1", "completed")]
    assert [k.task_id for k in known_tasks(tmp_path, target="srv")] == ["t-1"]
