"""Sequential tools/call round trips over stdio against a trivial stdlib echo server, three ways, in one run:

1. the inspector's session, with the timeline and a recording on (what a user runs);
2. the official Python SDK client (``mcp.Client``) against the same server;
3. a bare synchronous pipe loop (write a line, read a line): the ceiling for any client.

Prints the three rates and the two ratios the issue names (inspector / SDK >= 2.5, inspector / bare >= 0.4).
The default run (2,000 calls a run, best of 7 rounds) takes about 15 s on the 2-core development machine; the first
line says how long a run will take from its options. Longer: more ``--rounds`` or ``--calls``.
Usage: python tests/perf/bench_stdio.py [--calls 2000] [--rounds 7]
"""

from __future__ import annotations

import asyncio
import json
import shlex
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

import uvloop
from perf_support import announce, arguments

SERVER = [sys.executable, str(Path(__file__).with_name("echo_server.py"))]
ARGS = {"text": "hello"}
SECONDS_PER_CALL: Final = 0.0008
"""What a call of each of the three clients together costs on the 2-core development machine (the SDK's is most of
it), for the first line's estimate."""
SECONDS_PER_ROUND: Final = 0.5
"""What a round costs there besides its calls: three servers started, two sessions opened and closed."""
SECONDS_TO_START: Final = 1.0
"""The imports (the inspector's and the SDK's, on first use)."""


def bare_pipe(calls: int) -> float:
    """Calls per second of a synchronous write-line/read-line loop (with the same request shape)."""
    proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
    try:
        start = time.perf_counter()
        for i in range(calls):
            request = {
                "jsonrpc": "2.0",
                "id": i,
                "method": "tools/call",
                "params": {"_meta": meta, "name": "echo", "arguments": ARGS},
            }
            proc.stdin.write(json.dumps(request) + "\n")
            proc.stdin.flush()
            json.loads(proc.stdout.readline())
        return calls / (time.perf_counter() - start)
    finally:
        proc.stdin.close()
        proc.wait(timeout=5)


async def inspector_session(calls: int, recording: Path) -> float:
    """Calls per second of InspectorSession.call_tool, timeline and recorder on."""
    from inspector.answers.build import build_answer_source
    from inspector.cli.wiring import build_session
    from inspector.targets.target import Target

    session = build_session(Target.from_spec(shlex.join(SERVER)), build_answer_source(), record=recording)
    await session.connect()
    await session.list_all("tools")
    try:
        start = time.perf_counter()
        for _ in range(calls):
            outcome = await session.call_tool("echo", ARGS)
            assert outcome.ok, outcome.detail
        return calls / (time.perf_counter() - start)
    finally:
        await session.close()


async def sdk_client(calls: int) -> float:
    """Calls per second of the official SDK's mcp.Client over stdio."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(command=SERVER[0], args=SERVER[1:])
    async with Client(params) as client:
        await client.list_tools()
        start = time.perf_counter()
        for _ in range(calls):
            await client.call_tool("echo", ARGS)
        return calls / (time.perf_counter() - start)


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7, help="repeat each measurement and keep the best")
    opts = parser.parse_args()
    announce(
        "bench_stdio",
        SECONDS_TO_START + opts.rounds * (SECONDS_PER_ROUND + opts.calls * SECONDS_PER_CALL),
        f"{opts.rounds} rounds x 3 clients x {opts.calls} calls",
        "--rounds/--calls",
    )
    runs: dict[str, list[float]] = {"inspector": [], "sdk": [], "bare": []}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(opts.rounds):
            # Interleaved, and in a rotating order, so a slow spell of the machine falls on each of the three alike.
            recording = Path(tmp) / f"bench-{r}.jsonl"
            measure: dict[str, Callable[[], float]] = {
                "bare": lambda: bare_pipe(opts.calls),
                "inspector": lambda: uvloop.run(inspector_session(opts.calls, recording)),  # noqa: B023 (called now)
                "sdk": lambda: asyncio.run(sdk_client(opts.calls)),
            }
            order = list(measure)
            for name in order[r % 3 :] + order[: r % 3]:
                runs[name].append(measure[name]())
    best = {name: max(rates) for name, rates in runs.items()}
    print(f"calls per run: {opts.calls}, best of {opts.rounds} (each run, in calls/s:", end=" ")
    print("; ".join(f"{name} " + " ".join(f"{rate:.0f}" for rate in rates) for name, rates in runs.items()) + ")")
    print(f"inspector session (timeline + recording): {best['inspector']:8.0f} calls/s")
    print(f"official SDK mcp.Client:                  {best['sdk']:8.0f} calls/s")
    print(f"bare synchronous pipe loop:               {best['bare']:8.0f} calls/s")
    print(f"inspector / SDK  = {best['inspector'] / best['sdk']:.2f}x   (target >= 2.5)")
    print(f"inspector / bare = {best['inspector'] / best['bare']:.2f}x   (target >= 0.4)")


if __name__ == "__main__":
    main()
