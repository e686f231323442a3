"""A task of the demo server, era-neutral: what it is doing, what it waits for, how it ended.

A task tool describes its work as a `Plan`, a list of steps: `Work` (a stretch of work, shown as the task's
`statusMessage`) and `Ask` (a question put to the user midway). The same plan runs as a task (both eras, see
`task_table.py`) or inline on the call when the client did not ask for a task (`task_inline.py`), so the three
ways of running it cannot drift apart.

A `DemoTask` holds the state every wire shape is read from (`task_wire.py`): the 2026 extension's flat task with
its inline `inputRequests`/`result`/`error`, and 2025-11-25's `Task`. Only the task's own runner changes its status
(and `cancel`), so the answer to a question never flips the status by itself: the work that resumes does.
"""

from __future__ import annotations

import math
import os
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final, Literal, Protocol

import anyio
from mcp_types import ElicitRequest, ElicitResult, ErrorData

SCALE_ENV: Final = "INSPECTOR_DEMO_TASK_SCALE"
"""Multiplies every duration of the task flows (work and the poll hint): tests run the same flows faster."""
POLL_INTERVAL_MS: Final = 250
"""The poll hint at scale 1: a quarter of the shortest stretch of work, so a client that honours it sees each
status (the work after the approval lasts four hints)."""
MIN_POLL_INTERVAL_MS: Final = 50
MAX_POLL_INTERVAL_MS: Final = 500
TTL_MS: Final = 15 * 60 * 1000
"""How long a task is kept from its creation (2026 `ttlMs`; 2025 `ttl` when the client asked for none)."""
MAX_TTL_MS: Final = 60 * 60 * 1000

TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
TERMINAL: Final = frozenset({"completed", "failed", "cancelled"})


def task_scale() -> float:
    """The duration multiplier from `INSPECTOR_DEMO_TASK_SCALE` (1.0 when unset or not a positive number)."""
    raw = os.environ.get(SCALE_ENV, "")
    try:
        value = float(raw)
    except ValueError:
        return 1.0
    return value if math.isfinite(value) and value > 0 else 1.0


def poll_interval_ms(scale: float) -> int:
    """The `pollIntervalMs` / `pollInterval` hint for a scale, kept between 50 and 500 ms."""
    return min(MAX_POLL_INTERVAL_MS, max(MIN_POLL_INTERVAL_MS, round(POLL_INTERVAL_MS * scale)))


def now_iso() -> str:
    """An ISO 8601 UTC timestamp with milliseconds (`createdAt`, `lastUpdatedAt`)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# -- Plans ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Work:
    """A stretch of work: the task says `message` while it lasts `seconds` (times the scale)."""

    message: str
    seconds: float


@dataclass(frozen=True)
class Ask:
    """A question put to the user midway, under a key unique for the task's life."""

    key: str
    request: ElicitRequest


Step = Work | Ask


@dataclass(frozen=True)
class Plan:
    """What a task tool does: its steps in order, then `finish` turns the answers into the tool's text."""

    steps: tuple[Step, ...]
    finish: Callable[[Mapping[str, ElicitResult]], str]


# -- The task ------------------------------------------------------------------------------------------------------

Notify = Callable[["DemoTask"], Awaitable[None]]
"""Called after every status change (2025-11-25: `notifications/tasks/status` to the client that created it)."""


class Relay(Protocol):
    """Where a mirror sends what it is given for a task another instance runs (`task_share.SharedTasks`)."""

    def post_answer(self, task_id: str, key: str, response: ElicitResult) -> None:
        """Leave an answer to one of the task's questions for the instance running it."""
        ...


class Ends(Protocol):
    """Where the instances sharing a task decide how it ended (`task_share.SharedTasks`)."""

    def claim_end(self, task_id: str, status: TaskStatus) -> TaskStatus:
        """End the task ``status`` unless an instance ended it first; how it ended, either way."""
        ...


class DemoTask:
    """One task: its status and message, the questions it waits on, its outcome, and a way to wait for changes."""

    def __init__(
        self,
        *,
        ttl_ms: int,
        poll_ms: int,
        message: str | None = None,
        notify: Notify | None = None,
        mirror_of: tuple[str, Relay] | None = None,
        ends: Ends | None = None,
    ) -> None:
        self.task_id = mirror_of[0] if mirror_of is not None else str(uuid.uuid4())
        """High entropy on purpose: a task id is all it takes to read or cancel the task."""
        self.relay = mirror_of[1] if mirror_of is not None else None
        """Set on a mirror (`mirror_of`: the id and relay of a task another instance runs, see `task_share.py`):
        its answers and its cancel go there, and `follow` brings it what that instance wrote."""
        self.created_at = now_iso()
        self.updated_at = self.created_at
        self.ttl_ms = ttl_ms
        self.poll_ms = poll_ms
        self.expires_at = time.monotonic() + ttl_ms / 1000
        self.status: TaskStatus = "working"
        self.message = message
        """Born saying what it starts on, so its first step is no change to notify (a notification could
        otherwise overtake the CreateTaskResult that tells the client the task exists)."""
        self.outstanding: dict[str, ElicitRequest] = {}
        """Questions asked and not answered yet, by key (2026 `inputRequests` lists all of them)."""
        self.delivering: set[str] = set()
        """Keys a 2025 `tasks/result` is asking the client right now, so no other one asks them twice."""
        self.result_text: str | None = None
        self.error: ErrorData | None = None
        self.scope: anyio.CancelScope | None = None
        """The running work's scope: `cancel` stops it at its next checkpoint."""
        self._notify = notify
        self._ends = ends
        """Set when other instances share the task (on it and on every mirror of it): a terminal status is claimed
        there first, so two instances cannot end one task two ways (a cancel given to one while the other completes
        the work)."""
        self._answers: dict[str, ElicitResult] = {}
        self._answered: dict[str, anyio.Event] = {}
        self._relayed: set[str] = set()
        """A mirror's answered keys, kept off `outstanding` until the running instance has taken them."""
        self._changed = anyio.Event()

    @property
    def terminal(self) -> bool:
        """Completed, failed or cancelled: it never changes again."""
        return self.status in TERMINAL

    @property
    def changed(self) -> anyio.Event:
        """Set at the next change; take it *before* reading the state, so no change can slip in between."""
        return self._changed

    async def working(self, message: str) -> None:
        """The task works on `message`."""
        await self._set("working", message)

    async def ask(self, key: str, request: ElicitRequest) -> ElicitResult:
        """Wait for the answer to `request` (the task is `input_required` until then)."""
        answered = self._answered[key] = anyio.Event()
        self.outstanding[key] = request
        await self._set("input_required", f"waiting for {key}")
        await answered.wait()
        return self._answers.pop(key)

    def answer(self, key: str, response: ElicitResult) -> bool:
        """Deliver an answer; False when `key` is not outstanding (unknown, answered, or the task ended), which
        the caller ignores, as the 2026 extension says a server SHOULD."""
        if self.terminal or key not in self.outstanding:
            return False
        del self.outstanding[key]
        self.delivering.discard(key)
        if self.relay is not None:
            self.relay.post_answer(self.task_id, key, response)
            self._relayed.add(key)
            return True
        self._answers[key] = response
        self._answered.pop(key).set()
        return True

    async def complete(self, text: str) -> None:
        self.result_text = text
        await self._set("completed", "done")

    async def fail(self, error: ErrorData) -> None:
        self.error = error
        await self._set("failed", error.message)

    async def cancel(self, message: str = "cancelled by the client") -> TaskStatus:
        """Stop the work and end `cancelled`; how the task ended: `cancelled`, or the status it had already ended
        with (nothing changes then), here or, when shared, on another instance."""
        if self.terminal:
            return self.status
        ended = self._ends.claim_end(self.task_id, "cancelled") if self._ends is not None else "cancelled"
        if ended != "cancelled":
            return ended  # the running instance ended it first; a mirror shows that once it is written
        if self.scope is not None:
            self.scope.cancel()
        self.outstanding.clear()
        await self._set("cancelled", message)
        return "cancelled"

    def follow(
        self,
        *,
        status: TaskStatus,
        message: str | None,
        updated_at: str,
        outstanding: dict[str, ElicitRequest],
        result_text: str | None,
        error: ErrorData | None,
    ) -> None:
        """A mirror takes what the instance running the task last wrote (an ended mirror stays as it ended)."""
        if self.terminal:
            return
        self._relayed &= set(outstanding)
        now = {key: request for key, request in outstanding.items() if key not in self._relayed}
        if (status, message, now.keys(), result_text, error) == (
            self.status, self.message, self.outstanding.keys(), self.result_text, self.error
        ):  # fmt: skip
            return
        self.status, self.message, self.updated_at = status, message, updated_at
        self.outstanding, self.result_text, self.error = now, result_text, error
        changed, self._changed = self._changed, anyio.Event()
        changed.set()

    async def _set(self, status: TaskStatus, message: str | None) -> None:
        if self.terminal or (status, message) == (self.status, self.message):
            return
        ends = self._ends  # (a cancel has claimed its end already)
        if (
            ends is not None
            and status in ("completed", "failed")
            and ends.claim_end(self.task_id, status) == "cancelled"
        ):
            # Another instance was given a cancel and said so first: the task ends as that client was told.
            status, message, self.result_text, self.error = "cancelled", "cancelled by the client", None, None
            self.outstanding.clear()
        self.status, self.message, self.updated_at = status, message, now_iso()
        changed, self._changed = self._changed, anyio.Event()
        changed.set()
        if self._notify is not None:
            await self._notify(self)
