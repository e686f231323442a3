"""The tasks this machine's sessions created, kept by id, so ``inspector task get ID --server SPEC`` can look at one
again after the inspector restarted (seed 004: a new client, the same authorization, ``tasks/get`` by the id).

A task id is all a client needs to find its task again, so ids are what is kept: ``<data dir>/tasks.jsonl``, one
line each time a task is created or seen to end, the newest line of an id being what is known of it. Nothing
secret is in it (the target is the command line or URL as recorded, redacted; no headers, no tokens).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from inspector.paths import data_dir, open_private
from inspector.protocol.json_values import json_int

FILE: Final = "tasks.jsonl"


def store_path(folder: Path | None = None) -> Path:
    """Where the tasks are remembered: ``FILE`` in ``folder``, else in the inspector's data folder."""
    return (folder if folder is not None else data_dir()) / FILE


@dataclass(frozen=True, slots=True)
class KnownTask:
    """What is known of a task: where it runs, which call of which recording made it, and how it was last seen."""

    task_id: str
    target: str
    shape: str
    tool: str | None
    status: str
    recording: str | None
    created_at: str | None
    ttl_ms: int | None
    seen: str
    """When this was written (ISO 8601, UTC)."""

    def to_json(self) -> dict[str, Any]:
        """The line of the store (and the ``--json`` of ``task list``)."""
        return {
            "taskId": self.task_id,
            "target": self.target,
            "shape": self.shape,
            "tool": self.tool,
            "status": self.status,
            "recording": self.recording,
            "createdAt": self.created_at,
            "ttlMs": self.ttl_ms,
            "seen": self.seen,
        }

    @classmethod
    def from_json(cls, data: Any) -> KnownTask | None:
        """A line read back; None for one that is not a task line (a damaged file loses nothing else)."""
        if not isinstance(data, dict) or not isinstance(data.get("taskId"), str):
            return None
        return cls(
            data["taskId"],
            _text(data.get("target")) or "",
            _text(data.get("shape")) or "",
            _text(data.get("tool")),
            _text(data.get("status")) or "",
            _text(data.get("recording")),
            _text(data.get("createdAt")),
            json_int(data.get("ttlMs")),
            _text(data.get("seen")) or "",
        )


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


class TaskStore:
    """Remembers the tasks of one target's sessions (``target`` and ``recording`` are the session's)."""

    def __init__(self, target: str, recording: str | None = None, folder: Path | None = None) -> None:
        self.target = target
        self.recording = recording
        self.path = store_path(folder)

    def remember(self, task_id: str, shape: str, tool: str | None, task: Mapping[str, Any]) -> None:
        """Keep what ``task`` (the task object as the server sent it: ``status``, ``createdAt``, ``ttlMs`` or the
        legacy ``ttl``) says of it now (best effort: an unwritable data folder must not stop a call)."""
        seen = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        status = str(task.get("status", ""))
        created_at, ttl_ms = _text(task.get("createdAt")), json_int(task.get("ttlMs", task.get("ttl")))
        known = KnownTask(task_id, self.target, shape, tool, status, self.recording, created_at, ttl_ms, seen)
        try:
            with os.fdopen(open_private(self.path, append=True), "a", encoding="utf-8") as out:
                out.write(json.dumps(known.to_json(), ensure_ascii=False) + "\n")
        except OSError:
            pass


def known_tasks(folder: Path | None = None, *, target: str | None = None) -> list[KnownTask]:
    """Every task remembered (the newest line of each id), newest first; only ``target``'s when given."""
    path = store_path(folder)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    latest: dict[str, KnownTask] = {}
    for line in lines:
        try:
            known = KnownTask.from_json(json.loads(line))
        except ValueError:
            continue
        if known is not None and (target is None or known.target == target):
            latest.pop(known.task_id, None)
            latest[known.task_id] = known
    return list(reversed(latest.values()))
