"""Progress on stderr while a headless call runs: each progress notification and each change of a task's status, one
line each, so a person (or a CI log) sees that a long call is alive and where it is; stdout stays the result."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from inspector.protocol.sanitize import one_line
from inspector.session.listen_span import event_gist
from inspector.session.timeline import Call, Round, Timeline
from inspector.session.timeline_events import RoundUpdated, TimelineEvent


class ProgressLines:
    """A timeline listener that prints progress lines to ``console`` (stderr)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._shown: dict[int, int] = {}
        """Round identity -> how many of its notifications were looked at."""
        self._task_seen: dict[int, int] = {}
        """Call index -> how many task states were printed."""
        self._listen_seen: dict[int, int] = {}
        """Call index -> how many subscription events were printed (absent before its first line)."""

    def attach(self, timeline: Timeline) -> None:
        """Start listening to ``timeline``."""
        timeline.subscribe(self)

    def __call__(self, event: TimelineEvent) -> None:
        if isinstance(event, RoundUpdated):
            self._round(event.call, event.round)
            self._task(event.call)
            self._listen(event.call)

    def _round(self, call: Call, round_: Round) -> None:
        key = id(round_)
        seen = self._shown.get(key, 0)
        for message in round_.notifications[seen:]:
            parsed = message.message or {}
            params = parsed.get("params")
            if parsed.get("method") != "notifications/progress" or not isinstance(params, dict):
                continue
            progress, total, note = params.get("progress"), params.get("total"), params.get("message")
            line = Text(f"#{call.index} {one_line(call.name or call.method, 40)} progress {progress}", style="dim")
            if total is not None:
                line.append(f"/{total}", style="dim")
            if isinstance(note, str):
                line.append(f"  {one_line(note, 80)}", style="dim")
            self.console.print(line)
        self._shown[key] = len(round_.notifications)

    def _task(self, call: Call) -> None:
        span = call.task
        if span is None:
            return
        seen = self._task_seen.get(call.index, 0)
        previous = span.history[seen - 1] if seen else None
        for state in span.history[seen:]:
            if previous is None or (state.status, state.message) != (previous.status, previous.message):
                line = Text(
                    f"#{call.index} task {one_line(span.task_id, 80)} {one_line(state.status, 20)}", style="dim"
                )
                if state.message:
                    line.append(f"  {one_line(state.message, 80)}", style="dim")
                self.console.print(line)
            previous = state
        self._task_seen[call.index] = len(span.history)

    def _listen(self, call: Call) -> None:
        span = call.listen
        if span is None:
            return
        if call.index not in self._listen_seen:
            if span.subscription_id is not None and span.honoured is None:
                return  # a listen's events are told after its acknowledgement
            said = ", ".join(span.kinds()) or "nothing"
            self.console.print(Text(f"#{call.index} listening: {one_line(said, 120)}"))
            self._listen_seen[call.index] = 0
        for message in span.events[self._listen_seen[call.index] :]:
            self.console.print(Text(f"#{call.index} {one_line(event_gist(message.message or {}), 120)}"))
        self._listen_seen[call.index] = len(span.events)
