"""stdio transport: a child process speaking newline-delimited JSON-RPC on stdin/stdout, logging on stderr.

Lines of any length are read (the reader splits chunks on ``\\n`` itself, so asyncio's 64 KiB line limit never
applies), decoded as UTF-8 with replacement characters, and handed up verbatim, garbage included.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

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
    TransportStartError,
    decode_wire,
)
from inspector.transport.shutdown import SharedShutdown

if TYPE_CHECKING:
    from asyncio.subprocess import Process
    from collections.abc import Mapping


class _LineSplitter:
    """Splits a byte stream on ``\\n`` into lines of any length (a 20 MB line is one line)."""

    def __init__(self, on_line: Callable[[bytes], None]) -> None:
        self.on_line = on_line
        self.buffer = bytearray()
        self.scanned = 0

    def feed(self, data: bytes) -> int:
        """Hand up every whole line in ``data`` (after what was buffered); returns how many there were."""
        if not self.buffer and data.endswith(b"\n"):
            # The common cases, whole messages only: one (a lone request's reply), or several (the replies to
            # concurrent requests, come back together), split in one pass.
            if data.count(b"\n") == 1:
                self.on_line(data[:-1])
                return 1
            lines = data[:-1].split(b"\n")
            for line in lines:
                self.on_line(line)
            return len(lines)
        buffer = self.buffer
        buffer += data
        count = 0
        while (newline := buffer.find(b"\n", self.scanned)) >= 0:
            line = bytes(buffer[:newline])
            del buffer[: newline + 1]
            self.scanned = 0
            count += 1
            self.on_line(line)
        self.scanned = len(buffer)
        return count

    def end(self) -> None:
        if self.buffer:
            self.on_line(bytes(self.buffer))
            self.buffer.clear()


class _LineProtocol(asyncio.subprocess.SubprocessStreamProtocol):
    """The standard subprocess protocol, except stdout and stderr are split into lines right in the read callback."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        on_stdout: Callable[[bytes], None],
        on_stderr: Callable[[bytes], None],
        on_several_stdout: Callable[[], None],
    ) -> None:
        super().__init__(limit=2**16, loop=loop)
        self._splitters = {1: _LineSplitter(on_stdout), 2: _LineSplitter(on_stderr)}
        self._on_several_stdout = on_several_stdout
        """Called after one read handed up several stdout lines."""
        self._open = {1, 2}
        self.outputs_ended: asyncio.Future[None] = loop.create_future()
        """Done once stdout and stderr have both reached end of file."""

    def pipe_data_received(self, fd: int, data: bytes | str) -> None:
        splitter = self._splitters.get(fd)
        if splitter is None:
            super().pipe_data_received(fd, data)
        elif splitter.feed(data if isinstance(data, bytes) else data.encode()) > 1 and fd == 1:
            self._on_several_stdout()

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        splitter = self._splitters.get(fd)
        if splitter is not None:
            splitter.end()
            self._open.discard(fd)
            if not self._open and not self.outputs_ended.done():
                self.outputs_ended.set_result(None)
        super().pipe_connection_lost(fd, exc)


@dataclass(frozen=True, slots=True)
class StdioTimeouts:
    """How long each stage of a bounded ``close`` waits for the process to exit, in seconds."""

    stdin_close: float = 2.0
    """After its stdin is closed (a well-behaved server exits at end of input)."""
    terminate: float = 2.0
    """After SIGTERM."""
    kill: float = 2.0
    """After SIGKILL; also how long a grandchild holding our pipes open may keep us reading."""


class StdioTransport:
    """A server run as a subprocess. ``close`` is bounded: close stdin, wait, SIGTERM, wait, SIGKILL."""

    kind: TransportKind = "stdio"
    _pipes: tuple[asyncio.SubprocessTransport, asyncio.WriteTransport] | None = None
    """The process's transport and its stdin pipe (set by ``start``): what ``Process.returncode``,
    ``stdin.is_closing()`` and ``stdin.write`` call, called straight from ``send`` (three Python frames fewer a
    message: ``tests/perf/bench_instructions.py``)."""

    def __init__(
        self,
        argv: list[str],
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
        *,
        timeouts: StdioTimeouts = StdioTimeouts(),
    ) -> None:
        self.argv = list(argv)
        self.env = dict(env) if env is not None else None
        self.cwd = cwd
        self._clock = clock
        self._timeouts = timeouts
        self._sink: EventSink | None = None
        self._process: Process | None = None
        self._protocol: _LineProtocol | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._closing = SharedShutdown(self._shutdown, lambda: self._process is not None)
        self._close_stage: str | None = None
        self._closed_emitted = False
        self._held: list[tuple[bytes, RequestKey | None]] | None = None
        """Lines sent after the first one of a loop turn, written together when the turn ends (None: nothing left
        in this turn yet). Concurrent callers (``inspector load --concurrency 10``) send several requests a turn;
        one write a line woke a server that had already drained the pipe for each of them: ``bench_load.py``
        measured the server's CPU per call at 48-54 us that way and 30-34 us with the turn's lines together. The
        first line of a turn still leaves at once, so a lone request waits for nothing."""

    def describe(self) -> str:
        """The command line, shell-quoted."""
        return shlex.join(self.argv)

    @property
    def pid(self) -> int | None:
        """The child's process id, once started."""
        return self._process.pid if self._process is not None else None

    @property
    def returncode(self) -> int | None:
        """The child's exit status once it has exited (negative: killed by that signal)."""
        return self._process.returncode if self._process is not None else None

    async def start(self, sink: EventSink) -> None:
        """Spawn the process. Raises ``TransportStartError`` when the command cannot be run at all."""
        if self._process is not None:
            raise RuntimeError("StdioTransport.start called twice")
        if not self.argv:
            raise TransportStartError("no command given", "give the server command, e.g. `python server.py`")
        command = self.argv[0]
        env = {**os.environ, **self.env} if self.env is not None else None
        loop = asyncio.get_running_loop()
        # The sink is there before the process is: its first lines can be read (and handed up) before
        # subprocess_exec's caller resumes, and a server that writes at once would otherwise lose them.
        self._sink = sink
        try:
            # What asyncio.create_subprocess_exec does, with a protocol that hands lines up straight from the
            # event loop's read callback: no reader task to wake per message, which is most of a round trip's cost.
            transport, protocol = await loop.subprocess_exec(
                lambda: _LineProtocol(loop, self._on_stdout_line, self._on_stderr_line, self._replies_together),
                *self.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=env,
                cwd=self.cwd,
                # A session of its own: the terminal's Ctrl-C goes to the inspector only, which cancels what it
                # started on the server (tasks/cancel needs the server alive) and then closes it (stdin, SIGTERM).
                start_new_session=True,
            )
            self._process = asyncio.subprocess.Process(transport, protocol, loop)
            self._protocol = protocol
            stdin_pipe = transport.get_pipe_transport(0)
            if stdin_pipe is not None:  # (uvloop's pipes are no asyncio.WriteTransport subclass, but write like one)
                self._pipes = (transport, cast("asyncio.WriteTransport", stdin_pipe))
        except FileNotFoundError as exc:
            if self.cwd is not None and exc.filename is not None and os.fspath(self.cwd) == str(exc.filename):
                raise TransportStartError(f"working directory not found: {self.cwd}", "check the --cwd path") from exc
            raise TransportStartError(
                f"command not found: {command}",
                "check the spelling, install it, or give its full path; "
                "commands are looked up on PATH without a shell (no aliases, no shell functions)",
            ) from exc
        except PermissionError as exc:
            raise TransportStartError(
                f"permission denied running {command}",
                f"make it executable (chmod +x {shlex.quote(command)}) or run it through its interpreter",
            ) from exc
        except OSError as exc:
            raise TransportStartError(
                f"could not start {command}: {exc}", "check the command and its arguments"
            ) from exc
        self._watcher = asyncio.create_task(self._watch())

    async def send(self, message: OutgoingMessage) -> None:
        """Write ``raw + "\\n"``. A dead process or broken pipe becomes a fatal ``process-exited`` fault."""
        pipes = self._pipes
        if pipes is None or pipes[0].get_returncode() is not None or pipes[1].is_closing():
            self._fault_exited(message.request_id, "the server process is not running; nothing was sent")
            return
        data = message.raw.encode("utf-8") + b"\n"
        if self._held is not None:
            # Another line left in this same turn of the loop: this one goes with the rest of the turn's, in one
            # write at its end, which wakes the server once for all of them (see ``_held``).
            self._held.append((data, message.request_id))
            self._emit(
                Sent(message.raw, self._clock(), message.request_id, None, message.owner)
            )  # (positional: values)
            return
        pipe = pipes[1]
        try:
            pipe.write(data)
        except (BrokenPipeError, ConnectionResetError, RuntimeError):
            self._fault_exited(message.request_id, "the server process closed its stdin; nothing was sent")
            return
        self._held = []
        asyncio.get_running_loop().call_soon(self._write_held)
        # Emitted before draining: a fast server may answer while we drain, and Sent must come first.
        self._emit(Sent(message.raw, self._clock(), message.request_id, None, message.owner))  # (positional: fast)
        if not pipe.get_write_buffer_size() and not pipe.is_closing():
            return  # the pipe took it all: drain() would return at once (it waits only on a full or closing pipe)
        stdin = self._process.stdin if self._process is not None else None
        if stdin is None:
            return
        try:
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError):
            self._fault_exited(message.request_id, "the server process exited while the message was being written")

    def _replies_together(self) -> None:
        """One read brought several lines: the callers they answer wake in this turn and send again, so even the
        turn's first line waits for the rest of the turn's (one write for all of them, which wakes the server once,
        instead of the first at once and the rest after). ``tests/perf/bench_load.py`` at concurrency 10, ours
        alternated with and without this, three 2 s runs each (load average 2.7-4.4): 7,705 / 8,358 / 8,747
        calls/s against 6,187 / 7,281 / 8,147. A lone request's reply comes alone, and its next request still
        leaves at once."""
        if self._held is None:
            self._held = []
            asyncio.get_running_loop().call_soon(self._write_held)

    def _write_held(self) -> None:
        held, self._held = self._held, None
        if not held:
            return
        pipe = self._pipes[1] if self._pipes is not None else None
        try:
            if pipe is None or pipe.is_closing():
                raise BrokenPipeError
            pipe.write(b"".join([data for data, _ in held]))
        except (BrokenPipeError, ConnectionResetError, RuntimeError):
            for _, request_id in held:
                self._fault_exited(request_id, "the server process closed its stdin; the message was not sent")

    @property
    def session_expired(self) -> bool:
        """Never: a process has no legacy HTTP session to lose."""
        return False

    async def open_server_stream(self) -> None:
        """Nothing to open: every server message already comes on stdout."""

    async def cancel(self, request_id: RequestKey) -> bool:
        """stdio has no transport-level cancel: the session sends ``notifications/cancelled``."""
        return False

    async def close(self) -> None:
        """Close stdin, wait; SIGTERM, wait; SIGKILL. Idempotent; concurrent callers share one shutdown."""
        await self._closing.run()

    async def _shutdown(self) -> None:
        process, timeouts = self._process, self._timeouts
        assert process is not None
        if process.returncode is None:
            self._close_stage = "exited after its stdin was closed"
            if process.stdin is not None and not process.stdin.is_closing():
                # Not awaiting wait_closed(): with unread data buffered it lasts as long as the child ignores stdin.
                process.stdin.close()
            if not await self._wait_exit(timeouts.stdin_close):
                self._close_stage = (
                    f"terminated with SIGTERM (still running {timeouts.stdin_close:g}s after stdin closed)"
                )
                with contextlib.suppress(ProcessLookupError):
                    process.terminate()
                if not await self._wait_exit(timeouts.terminate):
                    self._close_stage = f"killed with SIGKILL (ignored SIGTERM for {timeouts.terminate:g}s)"
                    with contextlib.suppress(ProcessLookupError):
                        process.kill()
                    await self._wait_exit(timeouts.kill)
        elif process.stdin is not None:
            process.stdin.close()
        # A grandchild holding our pipes open must not hold close() hostage: stop reading after a grace period.
        if self._watcher is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._watcher), timeouts.kill)
        if self._watcher is not None and not self._watcher.done():
            self._watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watcher
        self._emit_closed()

    async def _wait_exit(self, seconds: float) -> bool:
        assert self._process is not None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._process.wait(), seconds)
        return self._process.returncode is not None

    async def _watch(self) -> None:
        """Closed comes after every stdout/stderr line and after the exit status is known."""
        assert self._protocol is not None and self._process is not None
        await self._protocol.outputs_ended
        await self._process.wait()
        self._emit_closed()

    def _on_stdout_line(self, line: bytes) -> None:
        text, undecodable = decode_wire(line.removesuffix(b"\r"))
        if text:
            at = self._clock()
            # (positional in the common case: see protocol.values)
            self._emit(Received(text, at) if undecodable is None else Received(text, at, undecodable=undecodable))

    def _on_stderr_line(self, line: bytes) -> None:
        text, undecodable = decode_wire(line.removesuffix(b"\r"))
        if text:
            self._emit(StderrLine(text=text, at=self._clock(), undecodable=undecodable))

    def _emit_closed(self) -> None:
        if self._closed_emitted:
            return
        self._closed_emitted = True
        code = self._process.returncode if self._process is not None else None
        self._emit(Closed(reason=self._reason(code), at=self._clock(), returncode=code))

    def _reason(self, code: int | None) -> str:
        if self._close_stage is not None:
            return f"closed: the server {self._close_stage}"
        if code is None:
            return "closed: the server's output ended but its exit status is unknown"
        if code < 0:
            with contextlib.suppress(ValueError):
                return f"the server was killed by {signal.Signals(-code).name}"
            return f"the server was killed by signal {-code}"
        return f"the server exited with code {code}"

    def _fault_exited(self, request_id: RequestKey | None, message: str) -> None:
        code = self.returncode
        status = f" (exit code {code})" if code is not None else ""
        self._emit(
            TransportFault(
                kind="process-exited",
                message=message + status,
                hint="the server's stderr says why it stopped; reconnect to restart it",
                at=self._clock(),
                request_id=request_id,
                fatal=True,
            )
        )

    def _emit(self, event: TransportEvent) -> None:
        if self._sink is not None:
            self._sink(event)
