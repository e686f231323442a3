"""The demo's tasks shared by every instance of one deployment, through a folder (`$INSPECTOR_DEMO_TASK_DIR`).

Seed 004: a task is state the server keeps, found by its id alone, so a request that lands on instance B must find
the task instance A made. A real deployment shares a database; the demo shares a folder, which two processes, or two
servers in one process, can both reach:

- the instance that started a task runs its work and is the only one to write its snapshot, ``<id>.json`` (written
  whole and renamed into place, so a reader never sees half of one), at every change;
- another instance asked about the task reads the snapshot into a *mirror* (a `DemoTask` with a relay), which it
  keeps following; an answer to one of the task's questions it is given it leaves as a note,
  ``<id>.answer-<n>.json``, that the running instance picks up at its next poll;
- how a task ended is decided once, in ``<id>.end``, by whichever instance ends it first: the running one when the
  work completes or fails, any instance given a ``tasks/cancel``. The file is linked into place whole, which fails
  when it is there already (``os.link``), so a cancel given to B while A completes the work cannot end the task
  both ways: the loser takes the winner's status (A ends ``cancelled``, as B told its client; or B answers that
  the task had completed). Every instance reads it, so none shows the task working after it was cancelled.

Without the folder (a single demo process, or the flaw ``own-tasks``), each process keeps its tasks to itself.
A task id comes from the client, so only an id of the demo's own form (a UUID) ever becomes a file name.
"""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from pathlib import Path
from typing import Any, cast

from mcp_types import ElicitRequest, ElicitResult, ErrorData

from inspector.demo.task_model import TERMINAL, DemoTask, TaskStatus

logger = logging.getLogger(__name__)

STATUSES = frozenset({"working", "input_required", *TERMINAL})


def _dump(model: ElicitRequest | ElicitResult | ErrorData) -> dict[str, Any]:
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


def _own_form(task_id: str) -> bool:
    """Is ``task_id`` a UUID as the demo writes them (nothing else may name a file)?"""
    try:
        return str(uuid.UUID(task_id)) == task_id
    except ValueError:
        return False


class SharedTasks:
    """The folder the instances share their tasks in (see the module docstring); also each mirror's relay."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    # -- the instance running a task -----------------------------------------------------------------------------

    def save(self, task: DemoTask) -> None:
        """Write the task's snapshot (its id and ttl, what it is doing, its questions, its outcome)."""
        doc = {
            "taskId": task.task_id,
            "createdAt": task.created_at,
            "updatedAt": task.updated_at,
            "ttlMs": task.ttl_ms,
            "pollMs": task.poll_ms,
            "expiresAt": time.time() + (task.expires_at - time.monotonic()),
            "status": task.status,
            "message": task.message,
            "outstanding": {key: _dump(request) for key, request in task.outstanding.items()},
            "result": task.result_text,
            "error": _dump(task.error) if task.error is not None else None,
        }
        self._write(self.folder / f"{task.task_id}.json", doc)

    def take_answers(self, task_id: str) -> list[tuple[str, ElicitResult]]:
        """The answers left for the task since the last call, oldest first (each one taken once)."""
        taken: list[tuple[str, ElicitResult]] = []
        for note in sorted(self.folder.glob(f"{task_id}.answer-*.json")):
            try:
                doc = json.loads(note.read_text(encoding="utf-8"))
                note.unlink()
                taken.append((str(doc["key"]), ElicitResult.model_validate(doc["response"])))
            except (OSError, ValueError, KeyError, TypeError) as exc:
                logger.warning("an answer note for task %s could not be read: %s", task_id, exc)
        return taken

    def claim_end(self, task_id: str, status: TaskStatus) -> TaskStatus:
        """End the task ``status`` unless an instance ended it first; how it ended, either way."""
        end = self.folder / f"{task_id}.end"
        partial = end.with_name(f"{end.name}.{uuid.uuid4().hex}.partial")
        partial.write_text(status, encoding="utf-8")
        try:
            os.link(partial, end)  # (atomic, and refused when the end is there: the first claim wins)
        except FileExistsError:
            return self.ended(task_id) or status
        finally:
            partial.unlink(missing_ok=True)
        return status

    def ended(self, task_id: str) -> TaskStatus | None:
        """How the task ended, when an instance ended it; None while it runs."""
        try:
            said = (self.folder / f"{task_id}.end").read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        return cast(TaskStatus, said) if said in TERMINAL else None

    def forget(self, task_id: str) -> None:
        """The task's TTL has passed: its snapshot and notes go."""
        for path in self.folder.glob(f"{task_id}.*"):
            path.unlink(missing_ok=True)

    # -- the other instances ---------------------------------------------------------------------------------------

    def ids(self) -> list[str]:
        """Every task id with a snapshot in the folder."""
        return [path.stem for path in self.folder.glob("*.json") if _own_form(path.stem)]

    def mirror(self, task_id: str) -> DemoTask | None:
        """A mirror of the task another instance runs; None when the folder has no live task of that id."""
        doc = self._read(task_id)
        if doc is None:
            return None
        mirror = DemoTask(ttl_ms=int(doc["ttlMs"]), poll_ms=int(doc["pollMs"]), mirror_of=(task_id, self), ends=self)
        mirror.created_at = str(doc["createdAt"])
        mirror.expires_at = time.monotonic() + (float(doc["expiresAt"]) - time.time())
        self._follow(mirror, doc)
        return mirror

    def refresh(self, mirror: DemoTask) -> bool:
        """Bring the mirror what its instance last wrote; False when the task is gone (its TTL passed)."""
        doc = self._read(mirror.task_id)
        if doc is None:
            return False
        self._follow(mirror, doc)
        return True

    def post_answer(self, task_id: str, key: str, response: ElicitResult) -> None:
        name = f"{task_id}.answer-{time.time_ns():020d}-{uuid.uuid4().hex[:8]}.json"
        self._write(self.folder / name, {"key": key, "response": _dump(response)})

    # -- the files -------------------------------------------------------------------------------------------------

    def _follow(self, mirror: DemoTask, doc: dict[str, Any]) -> None:
        status = cast(TaskStatus, doc["status"])
        if status not in TERMINAL and self.ended(mirror.task_id) == "cancelled":
            status = "cancelled"  # by some instance; the running one ends its work so at its next poll
        error = doc.get("error")
        mirror.follow(
            status=status,
            message=doc.get("message"),
            updated_at=str(doc["updatedAt"]),
            outstanding={str(k): ElicitRequest.model_validate(v) for k, v in dict(doc["outstanding"]).items()},
            result_text=doc.get("result"),
            error=ErrorData.model_validate(error) if error is not None else None,
        )

    def _read(self, task_id: str) -> dict[str, Any] | None:
        if not _own_form(task_id):
            return None
        try:
            doc = json.loads((self.folder / f"{task_id}.json").read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            logger.warning("the snapshot of task %s could not be read: %s", task_id, exc)
            return None
        try:
            live = isinstance(doc, dict) and doc["status"] in STATUSES and float(doc["expiresAt"]) > time.time()
        except (KeyError, TypeError, ValueError):
            live = False
        return doc if live else None

    @staticmethod
    def _write(path: Path, doc: dict[str, Any]) -> None:
        partial = path.with_name(path.name + ".partial")
        partial.write_text(json.dumps(doc), encoding="utf-8")
        partial.replace(path)
