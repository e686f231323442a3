"""Sequential ``tools/call add`` round trips over Streamable HTTP against the bundled demo server, in one run:

1. the inspector's session (``InspectorSession`` with its timeline and a recording on, under uvloop through
   ``inspector.cli.run.run``, exactly as the CLI runs it);
2. the official Python SDK client, ``mcp.Client(url)``, against the same server process.

Both eras: modern (the inspector's ``--era auto`` and the SDK's ``mode="auto"`` both settle on 2026-07-28) and legacy
(``--era legacy`` / ``mode="legacy"``: initialize, ``Mcp-Session-Id``). The server is started here with
``python -m inspector.demo --http --port 0`` (127.0.0.1, a free port) and stopped at the end.

Prints both rates per era and the ratio inspector / SDK, which must not be below 1.0, and each client's CPU time per
call (the server's share of a round trip is the same for both, so this is the steadier signal on a busy machine).
The default run (500 calls a run, best of 5 rounds, both eras: 20 runs) takes about 70 s on the 2-core development
machine; the first line says how long a run will take from its options. Longer: more ``--rounds`` or ``--calls``;
shorter: ``--era modern`` or ``--era legacy`` alone.

Usage: python tests/perf/bench_http.py [--calls 500] [--rounds 5] [--era both] [--profile FILE]
"""

from __future__ import annotations

import asyncio
import cProfile
import sys
import tempfile
import time
from pathlib import Path
from typing import Final, Literal

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from http_interop_support import demo_http_server
from perf_support import announce, arguments

ARGS = {"a": 2, "b": 3}
Era = Literal["modern", "legacy"]
SECONDS_PER_CALL: Final = 0.006
"""What a call costs on the 2-core development machine, both clients and both eras alike (a legacy call is slower,
a modern one faster), for the first line's estimate."""
SECONDS_PER_RUN: Final = 0.3
"""What a run costs there besides its calls: connecting, listing the tools, closing."""
SECONDS_TO_START: Final = 3.0
"""The imports and the demo server's start."""


Measure = tuple[float, float]
"""(calls per second, client CPU microseconds per call)"""


async def inspector_session(url: str, era: Era, calls: int, recording: Path) -> Measure:
    """Calls per second of InspectorSession.call_tool, timeline and recorder on."""
    from inspector.answers.build import build_answer_source
    from inspector.cli.wiring import build_session
    from inspector.targets.target import Target

    target = Target.from_spec(url)
    session = build_session(
        target, build_answer_source(), era="auto" if era == "modern" else "legacy", record=recording
    )
    await session.connect()
    await session.list_all("tools")
    try:
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(calls):
            outcome = await session.call_tool("add", ARGS)
            assert outcome.ok, outcome.detail
        rate = calls / (time.perf_counter() - start), (time.process_time() - cpu) / calls * 1e6
    finally:
        await session.close()
    assert session.timeline.era is not None and session.timeline.era.era == era
    assert len(session.timeline.calls) >= calls
    return rate


async def sdk_client(url: str, era: Era, calls: int) -> Measure:
    """Calls per second of the official SDK's ``mcp.Client(url)``."""
    from mcp import Client

    async with Client(url, mode="auto" if era == "modern" else "legacy") as client:
        await client.list_tools()
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(calls):
            result = await client.call_tool("add", ARGS)
            assert not result.is_error
        return calls / (time.perf_counter() - start), (time.process_time() - cpu) / calls * 1e6


def main() -> None:
    from inspector.cli.wiring import run_loop as run

    parser = arguments(__doc__)
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5, help="repeat each measurement and keep the best")
    parser.add_argument("--era", choices=["modern", "legacy", "both"], default="both")
    parser.add_argument("--profile", type=Path, help="write a cProfile of one inspector run (modern) here")
    opts = parser.parse_args()
    eras: list[Era] = ["modern", "legacy"] if opts.era == "both" else [opts.era]
    runs = opts.rounds * len(eras) * 2 + (opts.profile is not None)
    announce(
        "bench_http",
        SECONDS_TO_START + runs * (SECONDS_PER_RUN + opts.calls * SECONDS_PER_CALL),
        f"{opts.rounds} rounds x {len(eras)} eras x 2 clients x {opts.calls} calls",
        "--rounds/--calls/--era",
    )
    best = {(who, era): 0.0 for who in ("inspector", "sdk") for era in eras}
    cpu = {(who, era): float("inf") for who in ("inspector", "sdk") for era in eras}
    with demo_http_server() as url, tempfile.TemporaryDirectory() as tmp:
        if opts.profile is not None:
            profiler = cProfile.Profile()
            profiler.enable()
            run(inspector_session(url, eras[0], opts.calls, Path(tmp) / "profile.jsonl"))
            profiler.disable()
            profiler.dump_stats(opts.profile)
        for r in range(opts.rounds):
            for era in eras:
                recording = Path(tmp) / f"bench-{era}-{r}.jsonl"
                ours = run(inspector_session(url, era, opts.calls, recording))
                theirs = asyncio.run(sdk_client(url, era, opts.calls))
                for who, (rate, micros) in (("inspector", ours), ("sdk", theirs)):
                    best[who, era] = max(best[who, era], rate)
                    cpu[who, era] = min(cpu[who, era], micros)
    print(
        f"sequential tools/call add over HTTP against the demo server: {opts.calls} calls a run, best of {opts.rounds}"
    )
    for era in eras:
        ours_rate, sdk_rate = best["inspector", era], best["sdk", era]
        ours_cpu, sdk_cpu = cpu["inspector", era], cpu["sdk", era]
        print(
            f"[{era}] inspector session (timeline + recording, uvloop):{ours_rate:5.0f} calls/s, {ours_cpu:5.0f} us CPU"
        )
        print(
            f"[{era}] official SDK mcp.Client(url):                    {sdk_rate:5.0f} calls/s, {sdk_cpu:5.0f} us CPU"
        )
        print(
            f"[{era}] inspector / SDK = {ours_rate / sdk_rate:.2f}x calls/s (target >= 1.0); SDK CPU / ours = ", end=""
        )
        print(f"{sdk_cpu / ours_cpu:.2f}x")


if __name__ == "__main__":
    main()
