"""Progress on stderr while a headless call runs: each progress notification, each change of a task's status and
each event of a subscription, one line each, so a person (or a CI log) sees that a long call is alive and where it
is; stdout stays the result. A flood is thinned (``LINES_PER_SECOND``): what was not printed is counted on the next
line, and the call's last progress is printed when it ends."""

from __future__ import annotations

from typing import Final

from rich.console import Console
from rich.text import Text

from inspector.protocol.sanitize import one_line
from inspector.timeline.listen_span import event_gist
from inspector.timeline.model import Call, CallFinished, Round, RoundUpdated, Timeline, TimelineEvent
from inspector.timeline.wire import WireMessage

LINES_PER_SECOND: Final = 20
"""Progress lines (or subscription events) printed for one round in one second of the session's time; past them,
the rest are counted and said on the next line printed. A server sending 100,000 progress notifications had a line
printed for each: most of the run went to the terminal, and nobody reads 5,000 lines a second."""


class LineBudget:
    """How many lines one round may still print in the current second (by the messages' own times, so a replay
    would thin the same way), and how many it held back since its last line."""

    __slots__ = ("_second", "_used", "held", "last_held")

    def __init__(self) -> None:
        self._second = -1
        self._used = 0
        self.held = 0
        """Lines not printed since the last one that was."""
        self.last_held: WireMessage | None = None
        """The newest message held back (printed when its round ends, so the last progress shows)."""

    def allows(self, message: WireMessage) -> bool:
        """Whether ``message`` gets its line; when not, it is counted as held."""
        second = int(message.at)
        if second != self._second:
            self._second, self._used = second, 0
        if self._used < LINES_PER_SECOND:
            self._used += 1
            return True
        self.held += 1
        self.last_held = message
        return False

    def released(self) -> int:
        """How many were held since the last line (and none are from now on)."""
        held, self.held, self.last_held = self.held, 0, None
        return held


class ProgressLines:
    """A timeline listener that prints progress lines to ``console`` (stderr)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._shown: dict[int, int] = {}
        """Round identity -> how many of its notifications were looked at."""
        self._budgets: dict[int, LineBudget] = {}
        """Round identity (a subscription: its call's index, negated) -> its lines this second."""
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
        elif isinstance(event, CallFinished):
            self._listen(event.call)
            self._flush_listen(event.call)

    def _round(self, call: Call, round_: Round) -> None:
        key = id(round_)
        seen = self._shown.get(key, 0)
        budget = self._budgets.get(key)
        for message in round_.notifications.since(seen):
            parsed = message.message or {}
            params = parsed.get("params")
            if parsed.get("method") != "notifications/progress" or not isinstance(params, dict):
                continue
            if budget is None:
                budget = self._budgets[key] = LineBudget()
            if budget.allows(message):
                self._progress(call, message, budget.released())
        self._shown[key] = round_.notifications.count
        if budget is not None and round_.response is not None and budget.last_held is not None:
            last = budget.last_held
            self._progress(call, last, budget.released() - 1)  # (its last progress, whatever came before it)

    def _progress(self, call: Call, message: WireMessage, held: int) -> None:
        params = (message.message or {}).get("params")
        params = params if isinstance(params, dict) else {}
        progress, total, note = params.get("progress"), params.get("total"), params.get("message")
        line = Text(f"#{call.index} {one_line(call.name or call.method, 40)} progress {progress}", style="dim")
        if total is not None:
            line.append(f"/{total}", style="dim")
        if isinstance(note, str):
            line.append(f"  {one_line(note, 80)}", style="dim")
        if held > 0:
            line.append(f"  ({held:,} more before it, not printed)", style="dim")
        self.console.print(line)

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
        budget = self._budgets.setdefault(-call.index, LineBudget())
        for message in span.events.since(self._listen_seen[call.index]):
            if budget.allows(message):
                self._event(call, message, budget.released())
        self._listen_seen[call.index] = span.events.count

    def _flush_listen(self, call: Call) -> None:
        """A subscription ended: how many events were not printed since its last line."""
        budget = self._budgets.get(-call.index)
        if budget is not None and budget.held:
            self.console.print(Text(f"#{call.index} … {budget.released():,} more events, not printed", style="dim"))

    def _event(self, call: Call, message: WireMessage, held: int) -> None:
        line = Text(f"#{call.index} {one_line(event_gist(message.message or {}), 120)}")
        if held > 0:
            line.append(f"  ({held:,} more before it, not printed)", style="dim")
        self.console.print(line)
