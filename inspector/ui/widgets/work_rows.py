"""Long-running work on the timeline's rows: a task's polls folded into one row, what each of its rounds said about
the task, who answered the questions an update carried, and a progress bar on a call that is running.

Pure functions over the Timeline model, used by ``timeline_rows`` (tested without a screen). A task call, unfolded,
shows its MRTR rounds and the round that created the task, then one row for all its polls (``14 polls · working →
input_required → working → completed``), then its updates and its cancel; unfolding that row (``space`` on it)
shows every poll in wire order among them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from rich.text import Text

from inspector.protocol.json_values import json_number
from inspector.protocol.task_polling import hint_text
from inspector.timeline.wording import answer_summary
from inspector.ui.safe_text import one_line

if TYPE_CHECKING:
    from rich.style import Style

    from inspector.timeline.model import Call, Round
    from inspector.timeline.task_span import TaskState

POLL_METHODS: Final = frozenset({"tasks/get"})
"""The rounds folded into the polls row: asking the task how it is."""
UPDATE_METHODS: Final = frozenset({"tasks/update", "tasks/input_response"})
"""The rounds that carry answers to a task's questions."""
BAR_WIDTH: Final = 8
POLLS: Final = None
"""Where the polls row goes among a task call's rounds (``shown_rounds``)."""


def is_poll(call: Call, round_: Round) -> bool:
    """A poll of the call's task (a round the polls row folds)."""
    return call.task is not None and round_.kind == "request" and round_.method in POLL_METHODS


def shown_rounds(call: Call, polls_open: bool) -> list[Round | None]:
    """The rounds an unfolded call shows, in wire order (``Call.rounds_as_they_came``: a legacy server request
    before the reply it came ahead of), with ``POLLS`` (None) where the polls row goes: before the first poll.
    Folded polls leave the updates, the cancel and the rest in their order."""
    if call.task is None or not any(is_poll(call, round_) for round_ in call.rounds):
        return list(call.rounds_as_they_came())
    shown: list[Round | None] = []
    for round_ in call.rounds:
        if is_poll(call, round_) and POLLS not in shown:
            shown.append(POLLS)
        if polls_open or not is_poll(call, round_):
            shown.append(round_)
    return shown


def polls_text(call: Call) -> str:
    """What the polls row says: the task's summary and how often the server asked to be polled."""
    span = call.task
    if span is None:
        return ""
    every = f" · every {hint_text(span.poll_interval_ms)}" if span.poll_interval_ms is not None else ""
    return f"{span.summary()}{every}"


def render_polls(call: Call, open_: bool, last: bool, width: int, palette: dict[str, Style]) -> Text:
    """The polls row: fold mark, the summary (its statuses in the task's colours), under the call's rounds."""
    line = Text("  └ " if last else "  ├ ", palette["dim"], no_wrap=True, end="")
    line.append("▼ " if open_ else "▶ ", palette["dim"])
    line.append(one_line(polls_text(call), max(width - 8, 1)), palette["pending"])
    line.truncate(width, overflow="ellipsis", pad=True)
    return line


def _state_of(call: Call, round_: Round) -> TaskState | None:
    span = call.task
    if span is None:
        return None
    return next((state for state in reversed(span.history) if state.round_index == round_.index), None)


def task_status_style(status: str) -> str:
    """The style name of a task status."""
    if status == "completed":
        return "response"
    if status in ("failed", "cancelled"):
        return "error"
    return "input-required" if status == "input_required" else "pending"


def round_outcome(call: Call, round_: Round) -> tuple[str, str] | None:
    """For a task's own round (a poll, the creation, a cancel answered with a status): the status it said and its
    message (``working · releasing``), with its style name; None for any other round."""
    state = _state_of(call, round_)
    if state is None:
        return None
    said = f"{state.status} · {state.message}" if state.message else state.status
    return ("task " if state.via == "create" else "") + said, task_status_style(state.status)


def carried_keys(round_: Round) -> list[str]:
    """The input keys a task update carried (``inputResponses``)."""
    if round_.method not in UPDATE_METHODS:
        return []
    message = round_.request.message or {}
    params = message.get("params")
    responses = params.get("inputResponses") if isinstance(params, dict) else None
    return [str(key) for key in responses] if isinstance(responses, dict) else []


def update_answers(call: Call, round_: Round) -> list[str]:
    """The answers an update carried, each with who gave it (the answer is recorded on the poll that asked)."""
    keys = carried_keys(round_)
    lines = []
    for key in keys:
        given = next((a for r in call.rounds for a in r.answers if a.key == key), None)
        if given is not None:
            lines.append(f"answered {key}: {answer_summary(given.response)} ({given.source})")
        else:
            lines.append(f"answered {key}")
    return lines


def answered_by(call: Call, round_: Round) -> str:
    """Who answered what an update carried (``approve_release by you``), for its row."""
    keys = carried_keys(round_)
    sources = [a.source for r in call.rounds for a in r.answers if a.key in keys]
    who = " + ".join(dict.fromkeys(sources))
    return f"{', '.join(keys)} by {who}" if who else ", ".join(keys)


def latest_progress(call: Call) -> tuple[float, float | None, str] | None:
    """The latest ``notifications/progress`` of the call: progress, total (None: not said), message."""
    for round_ in reversed(call.rounds):
        for note in reversed(round_.notifications):
            message = note.message or {}
            params = message.get("params")
            if message.get("method") != "notifications/progress" or not isinstance(params, dict):
                continue
            done, total = json_number(params.get("progress")), json_number(params.get("total"))
            if done is None:
                continue
            text = params.get("message")
            total = total if total is not None and total > 0 else None
            return float(done), total, text if isinstance(text, str) else ""
    return None


def progress_bar(call: Call) -> Text | None:
    """A bar of the latest progress a running call was sent (``━━━━━╌╌╌ 3/5 testing``); a count when the
    server gave no total; None when the call has ended or was sent none."""
    if not call.in_flight:
        return None
    found = latest_progress(call)
    if found is None:
        return None
    done, total, said = found
    bar = Text(no_wrap=True, end="")
    if total is not None:
        filled = max(0, min(BAR_WIDTH, round(BAR_WIDTH * done / total)))
        bar.append("━" * filled, "bold")
        bar.append("╌" * (BAR_WIDTH - filled), "dim")
        bar.append(f" {_number(done)}/{_number(total)}")
    else:
        bar.append(f"⟳ {_number(done)}")
    if said:
        bar.append(f" {one_line(said, 60)}")
    return bar


def _number(value: float) -> str:
    return f"{value:g}"


def task_note(call: Call) -> str | None:
    """What a running task says it is doing (its latest status message), for the call's row."""
    span = call.task
    if span is None or not call.in_flight or not span.history:
        return None
    message = span.history[-1].message
    return one_line(message, 60) if message else None


def rounds_of(shown: list[Round | None]) -> Iterator[Round]:
    """The rounds of a ``shown_rounds`` list (the polls row left out)."""
    return (round_ for round_ in shown if round_ is not None)


@dataclass(slots=True)
class WorkView:
    """What the timeline widget knows of long work beyond the model: the task calls whose polls are unfolded, and
    the calls the user cancelled that have not ended yet (their rows say "cancelling" from the key on)."""

    polls_open: set[int] = field(default_factory=set)
    cancelling: set[int] = field(default_factory=set)

    def status(self, call: Call) -> str:
        """The status a call's row says: "cancelling" once the user cancelled it, until it has ended."""
        if call.index in self.cancelling and call.in_flight:
            return "cancelling"
        return call.status
