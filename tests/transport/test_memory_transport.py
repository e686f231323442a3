"""MemoryTransport against peers written here: exact text, event order, stderr, exits, crashes, bounded close."""

from __future__ import annotations

import asyncio
import time

from transport_support import FakeClock, Recorder

from inspector.transport.base import Closed, OutgoingMessage, Received, Sent, StderrLine, TransportFault
from inspector.transport.memory import MemoryTransport, PeerStreams, PeerTimeouts, StepClock


def message(raw: str, request_id: int | None = 1) -> OutgoingMessage:
    return OutgoingMessage(raw=raw, method="ping", request_id=request_id)


async def echo(streams: PeerStreams) -> int:
    """Logs once, then writes every line back, in two pieces, as a buffered writer may."""
    await streams.stderr.write("echo peer ready\n")
    async for line in streams.stdin:
        half = len(line) // 2
        await streams.stdout.write(line[:half])
        await streams.stdout.write(line[half:])
        await streams.stdout.flush()
    return 0


async def test_exact_text_both_ways_sent_before_received(recorder: Recorder) -> None:
    transport = MemoryTransport(echo, name="echo", clock=FakeClock())
    assert transport.describe() == "echo" and transport.kind == "stdio"
    await transport.start(recorder)
    raw = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"text":"é \\u001b[2J"}}'
    await transport.send(message(raw))
    received = await recorder.wait_for(Received)
    assert received.raw == raw
    sent = recorder.of(Sent)[0]
    assert sent.raw == raw and sent.request_id == 1
    order = [type(event) for event in recorder.events]
    assert order.index(Sent) < order.index(Received)
    assert recorder.of(StderrLine)[0].text == "echo peer ready"
    assert sent.at < received.at  # one clock, read in wire order
    assert await transport.cancel(1) is False  # as on stdio: the session sends notifications/cancelled
    await transport.close()
    closed = recorder.of(Closed)
    assert len(closed) == 1 and closed[0].returncode == 0
    assert closed[0].reason == "closed: the peer exited after its stdin was closed"
    assert isinstance(recorder.events[-1], Closed)


async def test_a_peer_that_exits_is_closed_then_sending_is_a_fatal_fault(recorder: Recorder) -> None:
    async def crashing_at_start(streams: PeerStreams) -> int:
        await streams.stderr.write("Traceback (most recent call last):\nImportError: no module named foo")
        return 3

    transport = MemoryTransport(crashing_at_start)
    await transport.start(recorder)
    closed = await recorder.wait_for(Closed)
    assert closed.returncode == 3 and closed.reason == "the peer exited with code 3"
    # The last line had no newline: it is handed up when the stream ends, before Closed.
    assert [line.text for line in recorder.of(StderrLine)] == [
        "Traceback (most recent call last):",
        "ImportError: no module named foo",
    ]
    await transport.send(message("{}"))
    assert recorder.of(Sent) == []
    await transport.close()  # already closed: idempotent, no second Closed
    assert len(recorder.of(Closed)) == 1


async def test_sending_as_the_peer_ends_is_a_fatal_fault(recorder: Recorder) -> None:
    async def quits(streams: PeerStreams) -> None:
        return None

    transport = MemoryTransport(quits)
    await transport.start(recorder)
    await asyncio.sleep(0)  # the peer has run and ended; the transport has not heard yet
    await transport.send(message("{}", request_id=7))
    fault = recorder.of(TransportFault)[0]
    assert fault.kind == "process-exited" and fault.fatal and fault.request_id == 7
    assert fault.message == "the peer is not running; nothing was sent (exit code 0)"
    closed = await recorder.wait_for(Closed)
    assert closed.returncode == 0
    await MemoryTransport(quits).send(message("{}"))  # never started: no sink, nothing raised


async def test_a_peer_that_raises_shows_its_traceback_and_exit_status_1(recorder: Recorder) -> None:
    async def broken(streams: PeerStreams) -> int:
        await streams.stdin.readline()
        raise ValueError("bad line [bold]x[/bold]")

    transport = MemoryTransport(broken)
    await transport.start(recorder)
    await transport.send(message("{}"))
    closed = await recorder.wait_for(Closed)
    assert closed.returncode == 1
    lines = [line.text for line in recorder.of(StderrLine)]
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[-1] == "ValueError: bad line [bold]x[/bold]"


async def test_close_is_bounded_for_a_peer_that_ignores_its_stdin(recorder: Recorder) -> None:
    async def deaf(streams: PeerStreams) -> int:
        await asyncio.Event().wait()
        return 0

    transport = MemoryTransport(deaf, timeouts=PeerTimeouts(stdin_close=0.05, cancel=0.05))
    await transport.start(recorder)
    await asyncio.sleep(0)
    began = time.monotonic()
    await asyncio.gather(transport.close(), transport.close())  # concurrent callers share one shutdown
    assert time.monotonic() - began < 2
    closed = recorder.of(Closed)
    assert len(closed) == 1 and closed[0].returncode is None
    assert closed[0].reason == "closed: the peer was cancelled (still running 0.05s after stdin closed)"


async def test_close_is_bounded_even_when_the_peer_refuses_to_stop(recorder: Recorder) -> None:
    release = asyncio.Event()

    async def stubborn(streams: PeerStreams) -> int:
        while not release.is_set():
            try:
                await release.wait()
            except asyncio.CancelledError:
                continue  # swallows every cancellation
        return 0

    transport = MemoryTransport(stubborn, timeouts=PeerTimeouts(stdin_close=0.05, cancel=0.05))
    await transport.start(recorder)
    await asyncio.sleep(0)
    await asyncio.wait_for(transport.close(), 2)
    assert "ignored its cancellation" in recorder.of(Closed)[0].reason
    release.set()
    await asyncio.sleep(0.01)
    assert len(recorder.of(Closed)) == 1  # nothing is reported after Closed


async def test_stdin_reads_like_a_file_and_end_of_file_stays(recorder: Recorder) -> None:
    seen: list[str] = []

    async def reader(streams: PeerStreams) -> int:
        seen.append(await streams.stdin.readline())
        seen.append(await streams.stdin.readline())
        seen.append(await streams.stdin.readline())
        return 0

    transport = MemoryTransport(reader)
    await transport.start(recorder)
    await transport.send(message("one"))
    await transport.close()
    assert seen == ["one\n", "", ""]


def test_step_clock_advances_one_step_a_reading() -> None:
    clock = StepClock(step=0.5, start=10.0)
    assert [clock(), clock(), clock()] == [10.5, 11.0, 11.5]
