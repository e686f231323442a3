"""The detail pane's sections for long work: a call's task (its id and wire shape, status, TTL, poll interval,
the cancel and what the task did after it, its status history) and a call's subscription (what was asked and
honoured, its events, how it ended). Pure functions that add to a ``Document``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from inspector.protocol.task_polling import hint_text, poll_wait_s
from inspector.timeline.listen_span import END_SAID, event_gist
from inspector.timeline.wording import duration
from inspector.ui.widgets.work_rows import latest_progress

if TYPE_CHECKING:
    from inspector.timeline.listen_span import ListenSpan
    from inspector.timeline.model import Call
    from inspector.timeline.task_span import TaskSpan, TaskState
    from inspector.ui.detail.lines import Document

SHAPES: Final = {
    "ext-2026": "the 2026-07-28 Tasks extension",
    "legacy-2025": "2025-11-25 tasks",
    "seed-2322": "SEP-2322's persistent workflow",
}
EVENTS_SHOWN: Final = 50
"""A subscription's newest events listed in the detail (how many came is said above them)."""


def add_long_work(doc: Document, call: Call) -> None:
    """A running call's latest progress; the call's task and subscription sections, when it has them."""
    progress = latest_progress(call) if call.in_flight else None
    if progress is not None:
        done, total, said = progress
        of = f"/{total:g}" if total is not None else ""
        doc.add("text", f"progress {done:g}{of}" + (f" · {said}" if said else ""))
    if call.task is not None:
        _task(doc, call.task, call)
    if call.listen is not None:
        _listen(doc, call.listen, call.started_at)


def _ttl(ms: int | None) -> str:
    return "unlimited (or not said)" if ms is None else f"{duration(ms)} from creation ({ms:,} ms)"


def _task(doc: Document, span: TaskSpan, call: Call) -> None:
    doc.heading("task")
    doc.add("text", f"id {span.task_id or '(none given)'} · {SHAPES.get(span.shape, span.shape)}")
    doc.add("text", f"status {span.status} · {span.summary()}")
    hint = span.poll_interval_ms
    every = f"not said (polled every {poll_wait_s(None):g} s)" if hint is None else hint_text(hint)
    doc.add("dim", f"created {span.created_at or '?'} · kept {_ttl(span.ttl_ms)} · poll every {every}")
    if span.cancel_round is not None and span.cancel_round <= len(call.rounds):
        after = span.status if span.terminal else "not ended yet"
        asked = call.rounds[span.cancel_round - 1].request_id
        doc.add("text", f"cancel asked (id {asked}; cooperative): the task {after}")
    if span.asked:
        doc.add("dim", f"asked {', '.join(span.asked)}")
    doc.heading(f"status history ({len(span.history)})")
    start = span.history[0].at if span.history else call.started_at
    for first, count, last in _stretches(span.history):
        said = f"{first.status} · {first.message}" if first.message else first.status
        where = _where(call, first, last, count)
        asks = f" · asks {', '.join(first.input_keys)}" if first.input_keys else ""
        times = f" ×{count}" if count > 1 else ""
        doc.add(
            "error" if first.status in ("failed", "cancelled") else "text",
            f"+{first.at - start:.3f} s  {said}{times}  ({where}){asks}",
        )


def _stretches(history: list[TaskState]) -> list[tuple[TaskState, int, TaskState]]:
    """Consecutive observations that said the same (status, message, how), each once with its count."""
    out: list[tuple[TaskState, int, TaskState]] = []
    for state in history:
        if out:
            first, count, _ = out[-1]
            same = (first.status, first.message, first.via, first.input_keys)
            if same == (state.status, state.message, state.via, state.input_keys):
                out[-1] = (first, count + 1, state)
                continue
        out.append((state, 1, state))
    return out


def _where(call: Call, first: TaskState, last: TaskState, count: int) -> str:
    """Where an observation came from, named by request id as the timeline's rows are (``polls, ids 5-7``)."""
    via = {"create": "created", "poll": "poll", "cancel": "cancel", "list": "tasks/list"}.get(first.via, first.via)

    def request_id(state: TaskState) -> str:
        index = state.round_index
        return str(call.rounds[index - 1].request_id) if index is not None and index <= len(call.rounds) else "?"

    if first.round_index is None:
        return via
    if count > 1 and last.round_index is not None:
        return f"{via}s, ids {request_id(first)}-{request_id(last)}"
    return f"{via}, id {request_id(first)}"


def _listen(doc: Document, span: ListenSpan, since: float) -> None:
    doc.heading("subscription")
    doc.add("text", span.summary())
    asked = ", ".join(f"{kind} {value}" if isinstance(value, list) else kind for kind, value in span.asked.items())
    doc.add("dim", f"asked {asked or 'nothing'} · subscription id {span.subscription_id}")
    if span.end is not None:
        again = "" if span.end == "client-ended" else " · l opens the panel to listen again"
        doc.add("error" if span.end == "lost" else "text", f"{END_SAID[span.end]}{again}")
    events = span.events
    doc.heading(f"events ({events.count:,})")
    listed = events.newest(EVENTS_SHOWN)
    if events.count > len(listed):  # (the newest; those before are counted, and every one is in the recording)
        doc.add("dim", f"{events.said('event', len(listed))}; the recording has every one")
    for event in listed:
        doc.add("text", f"+{event.at - since:.3f} s  {event_gist(event.message or {})}")
