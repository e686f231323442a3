"""StdioTransport against real subprocesses (tests/fixtures/transport_stdio_server.py)."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from typing import TYPE_CHECKING

import pytest
from transport_support import STDIO_SERVER, FakeClock, Recorder

from inspector.transport.base import (
    Closed,
    OutgoingMessage,
    Received,
    Sent,
    StderrLine,
    TransportFault,
    TransportStartError,
)
from inspector.transport.stdio import StdioTimeouts, StdioTransport

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

if TYPE_CHECKING:
    from pathlib import Path


def server(mode: str, *args: str, timeouts: StdioTimeouts | None = None) -> StdioTransport:
    return StdioTransport([sys.executable, STDIO_SERVER, mode, *args], timeouts=timeouts or StdioTimeouts())


def message(raw: str, request_id: int | None = 1) -> OutgoingMessage:
    return OutgoingMessage(raw=raw, method="ping", request_id=request_id)


async def test_echo_round_trip_keeps_exact_text_and_wire_order(recorder: Recorder) -> None:
    clock = FakeClock()
    transport = StdioTransport([sys.executable, STDIO_SERVER, "echo"], clock=clock)
    await transport.start(recorder)
    raw = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"héllo ☃"}}'
    await transport.send(message(raw))
    received = await recorder.wait_for(Received)
    assert received.raw == raw
    assert received.in_reply_to is None and received.http is None
    sent = recorder.of(Sent)[0]
    assert sent.raw == raw and sent.request_id == 1
    assert recorder.events.index(sent) < recorder.events.index(received)
    assert sent.at < received.at  # stamped by the injected clock
    assert await transport.cancel(1) is False
    await transport.close()
    closed = recorder.of(Closed)
    assert len(closed) == 1
    assert closed[0].returncode == 0
    assert "stdin" in closed[0].reason


def test_on_uvloop_lines_sent_in_one_turn_arrive_in_order_and_a_send_after_exit_faults() -> None:
    # The headless commands run on uvloop (cli.wiring.run_loop), whose pipes are not asyncio's classes: the
    # transport writes to them straight, the first line of a turn at once and the rest together.
    uvloop = pytest.importorskip("uvloop")
    recorder = Recorder()

    async def main() -> None:
        transport = StdioTransport([sys.executable, STDIO_SERVER, "echo"])
        await transport.start(recorder)
        raws = [f'{{"jsonrpc":"2.0","id":{n},"method":"ping"}}' for n in range(1, 6)]
        for n, raw in enumerate(raws, 1):
            await transport.send(message(raw, request_id=n))
        await recorder.wait_for(Received, lambda received: received.raw == raws[-1])
        assert [r.raw for r in recorder.of(Received)] == raws
        assert [s.raw for s in recorder.of(Sent)] == raws
        await transport.close()
        await transport.send(message('{"n":6}', request_id=6))
        assert recorder.of(TransportFault)[0].request_id == 6

    uvloop.run(main())


async def test_describe_is_the_shell_quoted_command() -> None:
    transport = StdioTransport(["my server", "--flag", "it's"])
    assert transport.describe() == "'my server' --flag 'it'\"'\"'s'"


async def test_a_20_mb_line_arrives_whole(recorder: Recorder) -> None:
    size = 20 * 1024 * 1024
    transport = server("bigline", str(size))
    await transport.start(recorder)
    try:
        await recorder.wait_for(Received, lambda e: e.raw == "done", within=30)
        big, done = recorder.of(Received)
        assert len(big.raw) == size
        assert big.raw.startswith('{"jsonrpc":"2.0"') and big.raw.endswith('"}}')
        assert done.raw == "done"
    finally:
        await transport.close()


async def test_garbage_lines_are_received_not_raised(recorder: Recorder) -> None:
    transport = server("garbage")
    await transport.start(recorder)
    try:
        await recorder.wait_for(Received, lambda e: e.raw == "done")
        assert [e.raw for e in recorder.of(Received)] == [
            "this is not json",
            "\ufffd\ufffd broken utf-8 \ufffd",
            '{"jsonrpc":"2.0","method":"crlf"}',
            "   ",
            "done",
        ]
    finally:
        await transport.close()


async def test_stderr_lines_become_events(recorder: Recorder) -> None:
    transport = server("stderr")
    await transport.start(recorder)
    try:
        await recorder.wait_for(StderrLine, lambda e: e.text == "warning: something")
        assert [e.text for e in recorder.of(StderrLine)] == ["starting up", "warning: something"]
    finally:
        await transport.close()


async def test_process_exit_is_closed_once_and_later_sends_fault(recorder: Recorder) -> None:
    transport = server("exit-after-one")
    await transport.start(recorder)
    await transport.send(message('{"n":1}'))
    closed = await recorder.wait_for(Closed)
    assert closed.returncode == 3
    assert "code 3" in closed.reason
    assert recorder.of(Received)[0].raw == '{"n":1}'
    assert recorder.events.index(recorder.of(Received)[0]) < recorder.events.index(closed)
    await transport.send(message('{"n":2}', request_id=2))
    fault = await recorder.wait_for(TransportFault)
    assert fault.kind == "process-exited" and fault.fatal and fault.request_id == 2
    assert "exit code 3" in fault.message
    assert len(recorder.of(Sent)) == 1
    await transport.close()
    await transport.close()
    assert len(recorder.of(Closed)) == 1


async def test_close_escalates_to_sigterm_when_stdin_eof_is_ignored(recorder: Recorder) -> None:
    transport = server("ignore-eof", timeouts=StdioTimeouts(stdin_close=0.3, terminate=5.0))
    await transport.start(recorder)
    await recorder.wait_for(Received, lambda e: e.raw == "ready")
    started = time.monotonic()
    async with asyncio.timeout(5):
        await transport.close()
    assert time.monotonic() - started < 4
    (closed,) = recorder.of(Closed)
    assert closed.returncode == -signal.SIGTERM
    assert "SIGTERM" in closed.reason


async def test_close_escalates_to_sigkill_when_sigterm_is_ignored(recorder: Recorder) -> None:
    transport = server("ignore-term", timeouts=StdioTimeouts(stdin_close=0.3, terminate=0.3))
    await transport.start(recorder)
    await recorder.wait_for(Received, lambda e: e.raw == "ready")
    started = time.monotonic()
    async with asyncio.timeout(5):
        # Concurrent callers share one shutdown.
        await asyncio.gather(transport.close(), transport.close())
    assert time.monotonic() - started < 4
    (closed,) = recorder.of(Closed)
    assert closed.returncode == -signal.SIGKILL
    assert "SIGKILL" in closed.reason
    await transport.send(message("{}"))
    assert (await recorder.wait_for(TransportFault)).kind == "process-exited"


async def test_env_is_merged_onto_the_parent_environment(recorder: Recorder, tmp_path: Path) -> None:
    code = "import os; print(os.environ['INSPECTOR_TEST_VAR']); print('PATH' in os.environ); print(os.getcwd())"
    transport = StdioTransport([sys.executable, "-c", code], env={"INSPECTOR_TEST_VAR": "from-test"}, cwd=str(tmp_path))
    await transport.start(recorder)
    await recorder.wait_for(Closed)
    assert [e.raw for e in recorder.of(Received)] == ["from-test", "True", str(tmp_path)]


async def test_missing_command_raises_start_error_with_a_hint() -> None:
    transport = StdioTransport(["definitely-not-a-command-4711", "--stdio"])
    with pytest.raises(TransportStartError) as info:
        await transport.start(lambda event: None)
    assert "command not found: definitely-not-a-command-4711" in info.value.message
    assert "PATH" in info.value.hint


async def test_non_executable_file_raises_start_error(tmp_path: Path) -> None:
    script = tmp_path / "server.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    transport = StdioTransport([str(script)])
    with pytest.raises(TransportStartError) as info:
        await transport.start(lambda event: None)
    assert "permission denied" in info.value.message
    assert "chmod +x" in info.value.hint


async def test_missing_working_directory_is_named(tmp_path: Path) -> None:
    transport = StdioTransport([sys.executable, "-c", "pass"], cwd=str(tmp_path / "nope"))
    with pytest.raises(TransportStartError) as info:
        await transport.start(lambda event: None)
    assert "working directory not found" in info.value.message


async def test_a_read_of_several_replies_holds_the_turns_first_request_with_the_rest(recorder: Recorder) -> None:
    transport = StdioTransport([sys.executable, STDIO_SERVER, "echo"])
    await transport.start(recorder)
    try:
        protocol = transport._protocol
        assert protocol is not None
        protocol.pipe_data_received(2, b"one\ntwo\n")  # several stderr lines: no requests are woken by them
        assert transport._held is None
        raws = ['{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","id":2,"method":"ping"}']
        protocol.pipe_data_received(1, ("\n".join(raws) + "\n").encode())  # two replies in one read
        assert [r.raw for r in recorder.of(Received)] == raws, "split in one pass, in order"
        await transport.send(message('{"n":1}', request_id=3))
        await transport.send(message('{"n":2}', request_id=4))
        assert transport._held is not None and len(transport._held) == 2, "the first line waits with the second"
        await recorder.wait_for(Received, lambda received: received.raw == '{"n":2}')
        assert [r.raw for r in recorder.of(Received)][-2:] == ['{"n":1}', '{"n":2}']
        # Nothing of ours is left waiting. (When the two echoes come back in one read, that read arms the next turn's
        # hold, empty: so "nothing waiting", not "no hold".)
        assert not transport._held, "written together at the end of the turn"
    finally:
        await transport.close()
