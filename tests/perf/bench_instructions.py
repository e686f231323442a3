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

How long: callgrind runs Python about 50 times slower than it runs natively, and the client's start-up (the
interpreter, the imports, the handshake: about 3.2 billion instructions) is most of a run, so counting from the start
took 1.7 minutes (200 and 700 calls) to 3.3 minutes (the default sizes, on a busy machine) on the 2-core development
machine. Instead each client starts uninstrumented (``--instr-atstart=no``, about 6 times slower than natively) and
switches callgrind on itself just before its first call, through ``CALLGRIND_START_INSTRUMENTATION`` in a helper
compiled here with ``cc`` from valgrind's own ``callgrind.h``. The start-up is then neither counted nor paid for; the
calls, the close and the exit are counted as before, so the per-call figure is the same (the start-up cancelled out
of it anyway; 340,897 against 343,950 from the start at 200/700 calls, within the 1% the count moves between runs).
The default run takes 35-40 s; the first line says how long a run will take from its options (a call costs about
4 ms under callgrind, a client's run 16 s more).

Slow modes: ``--from-start`` instruments the whole process as before (about 1.2 minutes more: to check that both
ways give the same figure, or where no C compiler is at hand), and larger ``--large`` sizes.

Usage: python tests/perf/bench_instructions.py [--small 200] [--large 1200] [--concurrency 1] [--as-load]
       [--from-start]
Needs valgrind on PATH (and a C compiler with valgrind's headers, unless --from-start).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Final

from perf_support import announce, arguments

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
    if sys.argv[5]:  # counted (and slowed down) from here on: the start-up would cancel out anyway
        import ctypes
        ctypes.CDLL(sys.argv[5]).start_instrumentation()
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


START: Final = r"""
#include <valgrind/callgrind.h>
void start_instrumentation(void) { CALLGRIND_START_INSTRUMENTATION; }
"""
"""The helper the client calls before its first call (a client request is an instruction sequence: C, not Python)."""
SECONDS_PER_CALL: Final = 0.004
"""What a call costs under callgrind on the 2-core development machine (0.3-0.45 million instructions)."""
SECONDS_PER_RUN: Final = {"from first call": 16.0, "from start": 50.0}
"""A client run's fixed cost there: valgrind's start, the start-up and handshake (uninstrumented, or instrumented
from the start), and the close and exit, which are counted either way."""


def start_helper(folder: Path) -> Path:
    """The shared object with ``start_instrumentation``, compiled from valgrind's ``callgrind.h``."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise SystemExit("no C compiler (cc) for the instrumentation switch: install one, or run with --from-start")
    source, helper = folder / "start.c", folder / "start.so"
    source.write_text(START)
    done = subprocess.run(
        [compiler, "-shared", "-fPIC", "-O1", "-o", str(helper), str(source)], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"cannot compile the instrumentation switch (run with --from-start):\n{done.stderr}")
    return helper


def count(calls: int, concurrency: int, folder: Path, as_load: bool, helper: Path | None) -> int:
    """Instructions the client process executed for ``calls`` calls: from its first call to its exit with a
    ``helper``, else from its start (start-up and handshake included)."""
    script = folder / "client.py"
    script.write_text(CLIENT)
    server = Path(__file__).resolve().with_name("echo_server.py")
    out = folder / f"callgrind.{calls}.out"
    instrument = [] if helper is None else ["--instr-atstart=no"]
    done = subprocess.run(
        [
            *("valgrind", "--tool=callgrind", *instrument, f"--callgrind-out-file={out}"),
            *(sys.executable, str(script)),
            *(str(calls), str(concurrency), str(server), "load" if as_load else "session", str(helper or "")),
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
    parser = arguments(__doc__)
    parser.add_argument("--small", type=int, default=200)
    parser.add_argument("--large", type=int, default=1200)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--as-load", action="store_true", help="no recording, collections as `inspector load` runs")
    parser.add_argument(
        "--from-start", action="store_true", help="instrument the whole client process, start-up included (slow)"
    )
    opts = parser.parse_args()
    mode = "from start" if opts.from_start else "from first call"
    announce(
        "bench_instructions",
        2 * SECONDS_PER_RUN[mode] + SECONDS_PER_CALL * (opts.small + opts.large),
        f"{opts.small} and {opts.large} calls under callgrind, counted {mode}",
        "--small/--large/--from-start",
    )
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not on PATH")
    with tempfile.TemporaryDirectory() as tmp:
        helper = None if opts.from_start else start_helper(Path(tmp))
        small = count(opts.small, opts.concurrency, Path(tmp), opts.as_load, helper)
        large = count(opts.large, opts.concurrency, Path(tmp), opts.as_load, helper)
    per_call = (large - small) / (opts.large - opts.small)
    print(f"{opts.small} calls: {small:,} instructions; {opts.large} calls: {large:,} (counted {mode})")
    how = ", as inspector load makes them" if opts.as_load else ""
    print(f"instructions per tools/call (concurrency {opts.concurrency}{how}): {per_call:,.0f}")


if __name__ == "__main__":
    main()
