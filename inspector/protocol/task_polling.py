"""How often a task is polled: the server's hint (``pollIntervalMs``; 2025: ``pollInterval``), within bounds.

One definition for the driver that waits (``session/task_driver.py``) and the builder that says, as a finding, when
a hint was out of bounds and what was done instead (``timeline/build/task_spans.py``), so a live run and its replay
tell the same story."""

from __future__ import annotations

from typing import Final

from inspector.protocol.json_values import json_number
from inspector.protocol.jsonrpc import JsonObject

DEFAULT_POLL_S: Final = 1.0
"""How often to poll when the server gives no hint (what the official ext-tasks client does)."""
MIN_POLL_S: Final = 0.05
"""The shortest wait between two polls, whatever the hint (a server saying 0 would be polled in a loop)."""
MAX_POLL_S: Final = 300.0
"""The longest wait between two polls, whatever the hint: a server asking for hours (or, by a bug, years) is still
asked every five minutes, so a call following its task cannot hang beyond what a person would wait for."""
TASK_TIMEOUT_S: Final = 600.0
"""How long a task is followed before it is cancelled (``--task-timeout``; 0 or None: no limit). A task the server
never ends was polled for as long as the session lasted (every 50 ms with a hint of 0: the recording grew 1 MB a
minute), and the call waiting on it never ended. Ten minutes is far beyond the tasks of the demo and of the
conformance suite, and short enough for a CI job to report the task rather than be killed by its own time limit."""


def poll_hint_ms(task: JsonObject) -> int | float | None:
    """The task's poll hint in milliseconds as the server said it, when it is a (finite) number."""
    return json_number(task.get("pollIntervalMs", task.get("pollInterval")))


def poll_wait_s(hint_ms: int | float | None) -> float:
    """Seconds to wait before the next poll, for this hint (none, or a negative one: the default)."""
    if hint_ms is None or hint_ms < 0:
        return DEFAULT_POLL_S
    return min(MAX_POLL_S, max(MIN_POLL_S, hint_ms / 1000))


def out_of_bounds(hint_ms: int | float) -> str | None:
    """What the inspector does instead of a hint it does not follow as given (None: it follows it)."""
    wait = poll_wait_s(hint_ms)
    if hint_ms >= 0 and wait == hint_ms / 1000:
        return None
    return f"pollIntervalMs {hint_ms:g}: polled every {wait:g} s instead"


def hint_text(hint_ms: int | float) -> str:
    """The hint as the faces show it: as said, and what is waited instead when it is out of bounds."""
    said = f"{hint_ms} ms"
    return said if out_of_bounds(hint_ms) is None else f"{said} (polled every {poll_wait_s(hint_ms):g} s)"
