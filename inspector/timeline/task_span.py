"""A task on its call: the span from its creation to its end, as the wire told it.

Work that must outlive one request becomes a Task (seed 004: "close the client: work that must go on is a Task, the
server keeps it by taskId; work that ends with the interaction is MRTR, the client carries requestState"). The call
that created it keeps its MRTR rounds first, then the creation, the polls, the updates with who answered, the cancel
and the final result or error, each a ``Round``; the ``TaskSpan`` is what those rounds say about the task, in
order. Three wire shapes are followed, each named by where it comes from:

- ``ext-2026``: the 2026-07-28 extension ``io.modelcontextprotocol/tasks`` (a flat ``CreateTaskResult`` with
  ``resultType: "task"``; ``tasks/get`` inlines ``inputRequests``, ``result`` or ``error``; ``tasks/update``);
- ``legacy-2025``: 2025-11-25 tasks (``params.task``; a nested ``{"task": {...}}``; the blocking ``tasks/result``,
  ``tasks/list``, ``notifications/tasks/status``);
- ``seed-2322``: the persistent workflow of SEP-2322's text (``tasks/result`` answering ``input_required`` and
  ``tasks/input_response`` carrying ``_meta["io.modelcontextprotocol/related-task"]``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from inspector.protocol.jsonrpc import JsonObject

TaskShape = Literal["ext-2026", "legacy-2025", "seed-2322"]
TASK_STATUSES: Final = frozenset({"working", "input_required", "completed", "failed", "cancelled"})
TERMINAL_TASK_STATUSES: Final = frozenset({"completed", "failed", "cancelled"})
"""A task in one of these never changes again."""
Via = Literal["create", "poll", "notification", "cancel", "result", "list"]


@dataclass(slots=True)
class TaskState:
    """One observation of the task: its status (as sent, even when it is not one), its message, where it came
    from (``via``), and the round that carried it (None: a notification on no round of ours)."""

    at: float
    status: str
    message: str | None
    via: Via
    round_index: int | None = None
    input_keys: tuple[str, ...] = ()


@dataclass(slots=True)
class TaskSpan:
    """A task as its call saw it (see the module docstring)."""

    task_id: str
    shape: TaskShape
    created_round: int | None
    """The round whose result created the task (None: a task looked at again, ``inspector task get ID``)."""
    created_at: str | None = None
    ttl_ms: int | None = None
    """Milliseconds the server keeps it from creation (None: unlimited, or not said)."""
    poll_interval_ms: int | float | None = None
    """The server's latest hint for how often to poll (as said: ``task_polling`` bounds what is waited)."""
    history: list[TaskState] = field(default_factory=list)
    asked: dict[str, JsonObject] = field(default_factory=dict)
    """Input requests by key, as first asked (a poll repeats them until they are answered)."""
    cancel_round: int | None = None
    """The round that asked the server to cancel (cancellation is cooperative: the task may still complete)."""
    result: JsonObject | None = None
    """The task's result, once completed (inline in ``tasks/get``, or ``tasks/result``'s payload)."""
    error: JsonObject | None = None
    """The JSON-RPC error the task failed with."""

    @property
    def status(self) -> str:
        """The latest status seen."""
        return self.history[-1].status if self.history else "working"

    @property
    def terminal(self) -> bool:
        """Completed, failed or cancelled: the task is over."""
        return self.status in TERMINAL_TASK_STATUSES

    @property
    def polls(self) -> int:
        """How many times its status was asked for."""
        return sum(1 for state in self.history if state.via == "poll")

    def changes(self) -> list[str]:
        """The statuses it went through, each once per stretch (``working → input_required → working``)."""
        seen: list[str] = []
        for state in self.history:
            if not seen or seen[-1] != state.status:
                seen.append(state.status)
        return seen

    def summary(self) -> str:
        """One line for a folded call: ``14 polls · working → input_required → working → completed``."""
        polls = self.polls
        return f"{polls} poll{'s' if polls != 1 else ''} · {' → '.join(self.changes())}"
