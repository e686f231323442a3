"""Where records go: the recorder (when recording), then the timeline builder, strictly in the order they came,
with every secret redacted first (``protocol.redact``): what the recording, the timeline and so every face holds is
the same redacted text, and a replay of the recording builds the timeline the live session showed.

Records can be queued instead of written at once, so the bookkeeping of a reply (its line in the recording, its
round on the timeline, the mcp-types validation) does not sit between the reply's arrival and the next request: a
queued record is written by the next ``write``, by the loop turn scheduled with ``flush_soon``, or by anyone reading
the timeline, whichever comes first. The requests we send are queued too, so what one turn of the loop sent and
received is written together (one recorder write, one pass of the builder: ``tests/perf/bench_load.py`` at
concurrency 10, where one read brings several replies and their callers all send again). Order is never changed,
and every record carries the time its event happened, so the recording and the timeline are the same as if each
record had been written on the spot; a record waits at most one turn of the event loop.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable

from inspector.protocol.jsonrpc import WireParse, classify
from inspector.protocol.redact import Redactor
from inspector.session.recorder import Recorder
from inspector.timeline import records
from inspector.timeline.build.builder import TimelineBuilder
from inspector.timeline.build.state import LetGo
from inspector.timeline.model import Call, Timeline

_Queued = tuple[records.Record, WireParse | None] | Callable[[], None]


class SessionLog:
    """The recorder and the timeline builder behind one ordered queue."""

    def __init__(
        self,
        clock: Callable[[], float],
        recorder: Recorder | None = None,
        timeline: Timeline | None = None,
        redactor: Redactor | None = None,
    ) -> None:
        self.clock = clock
        self.t0 = clock()
        self.recorder = recorder
        self.redactor = redactor if redactor else None
        """Secrets to take out of every record (None: there are none, and records are not scanned)."""
        self._secrets = redactor if redactor is not None else Redactor()
        self.builder = TimelineBuilder(timeline)
        self._queue: deque[_Queued] = deque()
        self._flushing = False
        self._flush_scheduled = False

    @property
    def timeline(self) -> Timeline:
        """The timeline being built, with everything queued applied."""
        if self._queue:
            self.flush()
        return self.builder.timeline

    def call(self, index: int) -> Call:
        """Call ``index`` on the timeline; queued records are applied only when it is not there yet."""
        found = self.builder.timeline.call(index)
        if found is None:
            self.flush()
            found = self.builder.timeline.call(index)
        if found is None:
            raise LookupError(f"call {index} was never started")
        return found

    def now(self) -> float:
        """Seconds since the session started."""
        return self.clock() - self.t0

    def since_start(self, at: float) -> float:
        """A transport timestamp as seconds since the session started."""
        return at - self.t0

    def add_secret(self, secret: str) -> None:
        """Redact ``secret`` from every record written from now on (a token a login brought), and from what the
        faces print through the session's redactor (the same object)."""
        self._secrets.add(secret)
        if self._secrets:
            self.redactor = self._secrets

    # ------------------------------------------------------------------------------------------------ writing
    def write(self, record: records.Record, parsed: WireParse | None = None) -> None:
        """Record, then apply to the timeline, after everything queued before it."""
        if self.redactor is not None:
            record, parsed = self._redacted(record, parsed)
        self._queue.append((record, parsed))
        self.flush()

    def queue(self, record: records.Record, parsed: WireParse | None = None) -> None:
        """Write ``record`` later, still before anything written after it (see the module's docstring). The next
        write writes it; call ``flush_soon`` (after resolving what the record answers) when none may come."""
        if self.redactor is not None:
            record, parsed = self._redacted(record, parsed)
        self._queue.append((record, parsed))

    def after_queued(self, action: Callable[[], None]) -> None:
        """Run ``action`` once everything queued so far has been applied (it may write records itself)."""
        self._queue.append(action)
        self.flush_soon()

    def forget_ended(self) -> LetGo:
        """Apply what is queued (a call ends once its last reply is applied), then let go of the calls that ended
        and of the session's history (``BuildState.forget_ended``: only a face that reads nothing but outcomes
        asks). Returns what went."""
        self.flush()
        return self.builder.state.forget_ended()

    def flush_soon(self) -> None:
        """Write what is queued on the event loop's next turn, if nothing has written it by then.

        Scheduled after whatever the caller just woke up (a future resolved before this call resumes its task
        first), so the woken request goes out before the bookkeeping runs."""
        if self._flush_scheduled or not self._queue:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a synchronous caller): nothing to wait for, write now
            self.flush()
            return
        self._flush_scheduled = True
        loop.call_soon(self._scheduled_flush)

    def flush(self) -> None:
        """Write what is queued, in order. Consecutive records go to the file in one write, then to the timeline
        (so the timeline never shows a line that is not on disk); an ``after_queued`` action runs once the records
        before it are applied, and what it writes lands behind them instead of recursing."""
        if self._flushing:
            return
        self._flushing = True
        queue = self._queue
        try:
            batch: list[tuple[records.Record, WireParse | None]] = []
            while queue:
                item = queue.popleft()
                if not isinstance(item, tuple):
                    item()
                    continue
                batch.append(item)
                if not queue or not isinstance(queue[0], tuple):
                    self._apply(batch)
                    batch = []
        finally:
            self._flushing = False

    def _redacted(self, record: records.Record, parsed: WireParse | None) -> tuple[records.Record, WireParse | None]:
        """The record with every secret replaced; a wire message whose text changed is parsed again from it."""
        redactor = self.redactor
        assert redactor is not None
        text = records.raw_text(record)
        if text is not None and not redactor.found(text):
            if len(record) <= 4:  # t, dir, raw|msg, call: nothing else could hold a secret
                return record, parsed
        elif text is not None:
            cleaned = redactor.redact(text)
            rest = {k: v for k, v in record.items() if k not in ("raw", "msg")}
            record = {**redactor.redact_value(rest), "raw": cleaned}
            return record, (classify(cleaned) if parsed is not None else None)
        return redactor.redact_value(record), parsed

    def _scheduled_flush(self) -> None:
        self._flush_scheduled = False
        self.flush()

    def _apply(self, batch: list[tuple[records.Record, WireParse | None]]) -> None:
        recorder = self.recorder
        if recorder is not None:
            recorder.write_many([(record, _ours(record, parsed)) for record, parsed in batch])
        apply = self.builder.apply
        for record, parsed in batch:
            apply(record, parsed)


def _ours(record: records.Record, parsed: WireParse | None) -> str | None:
    """The wire text of a message we wrote and record as its object (``msg``), else None."""
    if parsed is not None and parsed.message is not None and parsed.message is record.get("msg"):
        return parsed.raw
    return None
