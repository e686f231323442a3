"""Instructions per tools/call of the inspector's process, counted by valgrind's callgrind: the end-to-end cost of a
call in a figure that does not move with the machine's load (the same code and inputs give the same count within
about 1%, however busy the other cores are, with the client's string hashes fixed: ``PYTHONHASHSEED=0``, since a
random seed moves the count by up to 2% between runs), so a change to the hot path can be judged on a shared machine.

The client runs ``N`` sequential ``tools/call`` over stdio against ``echo_server.py``, as a user runs them
(``build_session``: timeline, recording, heap policy), except that it never polls for the reply (the polling
loop's count depends on how fast the server answers). It runs twice, with ``--small`` and ``--large`` calls;
the difference over the difference in calls is the cost of one call, start-up and handshake cancelled out. The
server (a child process) is not counted. At ``--concurrency C`` the calls are made C at a time, as ``inspector
load`` makes them. ``--as-load`` makes them as ``inspector load`` does: no recording, and the collector's automatic
runs paused as it pauses them (``FreezingHeap.calling``), and the calls that ended let go every ``LET_GO_EVERY``.

Both runs close the session; the larger one froze a timeline (every ``CALLS_PER_FREEZE`` = 1000 calls) and so
unfreezes it at close, whose exit then walks every object of the process once (the official models too): about
100,000 instructions of each per-call figure at the default sizes are that one walk. ``--small 200 --large 700``
stays below the first freeze and counts only the calls.

Usage: python tests/perf/bench_instructions.py [--small 200] [--large 1200] [--concurrency 1]
Needs valgrind on PATH.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CLIENT = r"""
import asyncio, contextlib, shlex, sys, tempfile
from pathlib import Path
from inspector.answers.build import build_answer_source
from inspector.cli.wiring import HEAP, build_session, run_loop
from inspector.headless.load_runner import LET_GO_EVERY
from inspector.targets.target import Target

SERVER = [sys.executable, sys.argv[3]]

async def main(calls: int, concurrency: int, path: Path | None) -> None:
    session = build_session(Target.from_spec(shlex.join(SERVER)), build_answer_source(), record=path)
    session.connection.reply_poll_s = 0.0  # no spinning: its instruction count depends on timing
    await session.connect()
    await session.list_all("tools")
    left = calls

    async def worker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            outcome = await session.call_tool("echo", {"text": "hello"})
            assert outcome.ok, outcome.detail
            if AS_LOAD and (calls - left) % LET_GO_EVERY == 0:
                session.log.forget_ended()  # as run_load lets go

    with HEAP.calling() if AS_LOAD else contextlib.nullcontext():
        await asyncio.gather(*(worker() for _ in range(concurrency)))
    await session.close()

AS_LOAD = sys.argv[4] == "load"
with tempfile.TemporaryDirectory() as tmp:
    run_loop(main(int(sys.argv[1]), int(sys.argv[2]), None if AS_LOAD else Path(tmp) / "r.jsonl"))
"""


def count(calls: int, concurrency: int, folder: Path, as_load: bool) -> int:
    """Instructions the client process executed for ``calls`` calls (start-up and handshake included)."""
    script = folder / "client.py"
    script.write_text(CLIENT)
    server = Path(__file__).resolve().with_name("echo_server.py")
    out = folder / f"callgrind.{calls}.out"
    done = subprocess.run(
        [
            *("valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, str(script)),
            *(str(calls), str(concurrency), str(server), "load" if as_load else "session"),
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONHASHSEED": "0"},  # (string hashes vary the dicts' probing by 1-2% between runs)
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed (exit {done.returncode}): {done.stderr[-1500:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", type=int, default=200)
    parser.add_argument("--large", type=int, default=1200)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--as-load", action="store_true", help="no recording, collections as `inspector load` runs")
    opts = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not on PATH")
    with tempfile.TemporaryDirectory() as tmp:
        small = count(opts.small, opts.concurrency, Path(tmp), opts.as_load)
        large = count(opts.large, opts.concurrency, Path(tmp), opts.as_load)
    per_call = (large - small) / (opts.large - opts.small)
    print(f"{opts.small} calls: {small:,} instructions; {opts.large} calls: {large:,}")
    how = ", as inspector load makes them" if opts.as_load else ""
    print(f"instructions per tools/call (concurrency {opts.concurrency}{how}): {per_call:,.0f}")


if __name__ == "__main__":
    main()
