"""In-memory transport: a peer in this process, speaking newline-delimited text as a stdio server does.

For tests, screenshots and benchmarks. The session runs over it exactly as it runs over a pipe: the exact JSON-RPC
text both ways, ``Sent`` before the reply's ``Received``, the peer's log lines as ``StderrLine``, ``Closed`` at the
end, faults as values, a bounded ``close``; but there is no process to spawn and no operating system timing in the
way. Like the SDK's ``mcp.client._memory.InMemoryTransport`` the peer is a task on this event loop; unlike it, the
peer is handed text streams rather than parsed messages, so what crosses is the exact text, and this module knows
nothing about MCP: a peer is any coroutine that reads lines from ``stdin`` and writes text to ``stdout`` and
``stderr`` (``inspector.demo.in_process`` serves the demo server this way).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from inspector.transport.base import (
    Closed,
    EventSink,
    OutgoingMessage,
    Received,
    RequestKey,
    Sent,
    StderrLine,
    TransportEvent,
    TransportFault,
    TransportKind,
)
from inspector.transport.shutdown import SharedShutdown


class PeerInput:
    """What the client sent, read like a text file: ``async for line in stdin`` (each line ends in ``\\n``) or
    ``await stdin.readline()`` (``""`` at end of file, once the client closed)."""

    def __init__(self) -> None:
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        self._ended = False

    def feed(self, line: str) -> None:
        """One line from the client (the transport adds the newline)."""
        if not self._ended:
            self._lines.put_nowait(line + "\n")

    def end(self) -> None:
        """End of file: the client closed its side."""
        if not self._ended:
            self._ended = True
            self._lines.put_nowait(None)

    async def readline(self) -> str:
        """The next line, or ``""`` at end of file (and every time after)."""
        line = await self._lines.get()
        if line is None:
            self._lines.put_nowait(None)  # end of file stays the end of file for every later read
            return ""
        return line

    def __aiter__(self) -> PeerInput:
        return self

    async def __anext__(self) -> str:
        line = await self.readline()
        if not line:
            raise StopAsyncIteration
        return line


class PeerOutput:
    """A text stream the peer writes to. Like a pipe read by the stdio transport, the text is split on ``\\n``
    and each non-empty line handed up at once; a last line without a newline is handed up when the stream ends."""

    def __init__(self, on_line: Callable[[str], None]) -> None:
        self._on_line = on_line
        self._partial = ""

    async def write(self, text: str) -> int:
        """Take ``text`` (any part of a line, or several lines); returns its length, as a text file does."""
        self.write_now(text)
        return len(text)

    def write_now(self, text: str) -> None:
        """``write`` for a synchronous caller (a logging handler)."""
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        for line in lines:
            self._emit(line)

    async def flush(self) -> None:
        """Nothing is buffered beyond the current partial line (which waits for its newline, as on a pipe)."""

    def end(self) -> None:
        """The stream ended: a pending partial line goes up."""
        if self._partial:
            line, self._partial = self._partial, ""
            self._emit(line)

    def _emit(self, line: str) -> None:
        line = line.removesuffix("\r")
        if line:
            self._on_line(line)


@dataclass(frozen=True, slots=True)
class PeerStreams:
    """A peer's three standard streams, as a process at the other end of a pipe has them."""

    stdin: PeerInput
    stdout: PeerOutput
    """Each line is one message to the client."""
    stderr: PeerOutput
    """Each line is free-form logging, shown in the console."""


Peer = Callable[[PeerStreams], Awaitable[int | None]]
"""Serves one connection until its stdin ends; returns its exit status (None counts as 0). An exception it raises
is what a crashing process shows: its traceback on stderr, exit status 1."""


class StepClock:
    """A clock for runs that must look the same every time (snapshots, screenshots): each reading is ``step``
    seconds after the previous one. Give the same clock to the transport and the session, so a round's latency is
    the number of readings between its request and its reply, which the code path fixes, not the machine's load."""

    def __init__(self, step: float = 0.012, start: float = 1000.0) -> None:
        self.step = step
        self.now = start

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@dataclass(frozen=True, slots=True)
class PeerTimeouts:
    """How long each stage of a bounded ``close`` waits for the peer's task to end, in seconds."""

    stdin_close: float = 2.0
    """After its stdin is ended (a well-behaved peer returns at end of input)."""
    cancel: float = 2.0
    """After its task is cancelled; then ``Closed`` is reported whatever the peer does."""


class MemoryTransport:
    """The client side of a connection to an in-process peer (see the module docstring). ``close`` is bounded: end
    the peer's stdin, wait; cancel it, wait; then report ``Closed`` whatever the peer does."""

    kind: TransportKind = "stdio"
    """A peer reads and writes lines as a stdio server does, so the session treats it as one (no HTTP headers) and
    its recordings read back as stdio recordings."""
    reply_poll_s: float = 0.0
    """The reply is produced by a task of this very loop: polling for it would only delay that task."""

    def __init__(
        self,
        peer: Peer,
        *,
        name: str = "in-memory peer",
        clock: Callable[[], float] = time.monotonic,
        timeouts: PeerTimeouts = PeerTimeouts(),
    ) -> None:
        self.peer = peer
        self.name = name
        self._clock = clock
        self._timeouts = timeouts
        self._sink: EventSink | None = None
        self._streams: PeerStreams | None = None
        self._task: asyncio.Task[int | None] | None = None
        self._closing = SharedShutdown(self._shutdown, lambda: self._task is not None)
        self._close_stage: str | None = None
        self._closed = False

    def describe(self) -> str:
        """The peer's name (there is no command line)."""
        return self.name

    @property
    def returncode(self) -> int | None:
        """The peer's exit status once it has ended (None while it runs, or when it was cancelled)."""
        task = self._task
        if task is None or not task.done() or task.cancelled():
            return None
        if task.exception() is not None:
            return 1
        return task.result() or 0

    async def start(self, sink: EventSink) -> None:
        """Start the peer as a task of the running loop; it runs once the caller next yields."""
        if self._task is not None:
            raise RuntimeError("MemoryTransport.start called twice")
        self._sink = sink
        self._streams = PeerStreams(
            PeerInput(),
            PeerOutput(lambda line: self._emit(Received(raw=line, at=self._clock()))),
            PeerOutput(lambda line: self._emit(StderrLine(text=line, at=self._clock()))),
        )
        self._task = asyncio.get_running_loop().create_task(self._run(self._streams))
        self._task.add_done_callback(self._ended)

    async def _run(self, streams: PeerStreams) -> int | None:
        return await self.peer(streams)

    async def send(self, message: OutgoingMessage) -> None:
        """Hand one line to the peer's stdin. A peer that has ended becomes a fatal ``process-exited`` fault."""
        streams, task = self._streams, self._task
        if streams is None or task is None or task.done() or self._closing.started:
            status = f" (exit code {self.returncode})" if self.returncode is not None else ""
            self._emit(
                TransportFault(
                    kind="process-exited",
                    message=f"the peer is not running; nothing was sent{status}",
                    hint="its stderr says why it stopped; reconnect to restart it",
                    at=self._clock(),
                    request_id=message.request_id,
                    fatal=True,
                )
            )
            return
        # Sent first: the peer cannot answer a line it has not been given yet.
        self._emit(Sent(raw=message.raw, at=self._clock(), request_id=message.request_id, owner=message.owner))
        streams.stdin.feed(message.raw)

    @property
    def session_expired(self) -> bool:
        """Never: a process has no legacy HTTP session to lose."""
        return False

    async def open_server_stream(self) -> None:
        """Nothing to open: every server message already comes on stdout."""

    async def cancel(self, request_id: RequestKey) -> bool:
        """No transport-level cancel (as on stdio): the session sends ``notifications/cancelled``."""
        return False

    async def close(self) -> None:
        """End the peer's stdin, wait; cancel it, wait. Idempotent; concurrent callers share one shutdown."""
        await self._closing.run()

    async def _shutdown(self) -> None:
        task, streams, timeouts = self._task, self._streams, self._timeouts
        assert task is not None and streams is not None
        if not task.done():
            self._close_stage = "exited after its stdin was closed"
            streams.stdin.end()
            if not await self._wait(task, timeouts.stdin_close):
                self._close_stage = f"was cancelled (still running {timeouts.stdin_close:g}s after stdin closed)"
                task.cancel()
                if not await self._wait(task, timeouts.cancel):
                    self._close_stage = f"ignored its cancellation for {timeouts.cancel:g}s and was left running"
        self._emit_closed()

    @staticmethod
    async def _wait(task: asyncio.Task[int | None], seconds: float) -> bool:
        with contextlib.suppress(TimeoutError, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(task), seconds)
        return task.done()

    def _ended(self, task: asyncio.Task[int | None]) -> None:
        """The peer's task finished (on its own, or in ``close``)."""
        error = None if task.cancelled() else task.exception()
        if error is not None:
            for block in traceback.format_exception(error):
                for line in block.splitlines():
                    if line and self._streams is not None:
                        self._streams.stderr.write_now(line + "\n")
        if not self._closing.started:  # it ended by itself: report it now, as a process exiting would be
            self._emit_closed()

    def _emit_closed(self) -> None:
        if self._closed:
            return
        if self._streams is not None:
            self._streams.stdout.end()
            self._streams.stderr.end()
        code = self.returncode
        self._emit(Closed(reason=self._reason(code), at=self._clock(), returncode=code))
        self._closed = True

    def _reason(self, code: int | None) -> str:
        if self._close_stage is not None:
            return f"closed: the peer {self._close_stage}"
        if code is None:
            return "the peer was cancelled"
        return f"the peer exited with code {code}"

    def _emit(self, event: TransportEvent) -> None:
        if self._sink is not None and not self._closed:
            self._sink(event)
