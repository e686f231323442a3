"""How soon the TUI shows itself: its first frame before the server answers (issues 4 and 33), from a cold process.

1. the demo server: spawn ``python -m inspector.demo`` and time until it answers ``server/discover``;
2. the TUI: spawn a process that imports the app and runs it headless on the real ``InspectorSession`` over the
   memory transport to a peer that has not answered yet (what ``inspector demo`` shows while its server starts),
   and time until the timeline pane's first line is painted. (Opening a recording of N calls adds the time to
   build its timeline: see bench_tui.py.)
3. what a user sees (issue 33: the first frame under 400 ms after start): the whole ``inspector demo`` and
   ``inspector connect "python echo_server.py"`` processes under a pseudo-terminal of 100x30, from the spawn to the
   first paint of the main screen (the alternate screen, then its "Timeline" border title), to its first whole frame
   (the "Catalog" border title too), and to the catalog filled (the server's tools listed: the catalog's "Tools N"
   heading). Their data and config go to a temporary folder, so the recordings and the recent targets of the person
   running it are left alone.

Every process runs with its bytecode cached, as an installed package's is (``PYTHONDONTWRITEBYTECODE`` is dropped;
the cache goes to a temporary ``PYTHONPYCACHEPREFIX``, filled by one uncounted start of each kind first): a start
that compiles every module it imports spends about half a second more on the 2-core machine.

The default run (3 counted starts of each, medians) takes about 40 s on the 2-core development machine; the first line
says how long a run will take from its options. Longer: more ``--runs``. Times are printed, never asserted.

Usage: python tests/perf/bench_startup.py [--runs 3]
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import shlex
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path
from typing import Final, NamedTuple

from perf_support import announce, arguments

DISCOVER = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "server/discover",
    "params": {
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }
    },
}

TUI_PROBE = r"""
import sys, time
sys.path.insert(0, sys.argv[1])  # tests/perf, for perf_support
from inspector.answers.build import build_answer_source
from inspector.session.session import InspectorSession
from inspector.transport.memory import MemoryTransport
from inspector.ui.app import InspectorApp
from inspector.targets.target import Target
from inspector.ui.widgets.timeline_view import TimelineView
from perf_support import silent_peer
original = TimelineView.render_line
def painted(self, y):
    if True:
        print(time.time(), flush=True)
        sys.stdout.flush()
        import os; os._exit(0)
    return original(self, y)
TimelineView.render_line = painted
session = InspectorSession(MemoryTransport(silent_peer), build_answer_source())
app = InspectorApp(None, Target.from_spec("demo", name="demo"), session=session)
app.run(headless=True, size=(160, 45))
"""
PERF = Path(__file__).parent
SECONDS_PER_RUN: Final = 10.0
"""A demo server's start, a TUI's start and the two whole processes on the 2-core development machine, for the
first line's estimate."""
GOAL_S: Final = 0.4
"""Issue 33: the TUI's first frame under 400 ms after start."""
SIZE: Final = (100, 30)
"""The pseudo-terminal's columns and rows."""
INSPECTOR: Final = [sys.executable, "-c", "import sys; from inspector.cli import main; sys.exit(main())"]
"""The ``inspector`` console script, as the interpreter running this script runs it."""
ALT_SCREEN: Final = b"\x1b[?1049h"
FIRST_PAINT: Final = (b"Timeline",)
"""The main screen's first write: the header and its timeline pane's border title."""
FIRST_FRAME: Final = (b"Timeline", b"Catalog")
"""The main screen's first whole frame: the border titles of its timeline and catalog panes (at 100x30 both show).
Textual paints a new screen in a few writes, and the catalog's border came a write or two after the timeline's:
the frame counts when both are on the terminal."""
PTY_TIMEOUT_S: Final = 30.0


class Seen(NamedTuple):
    """Seconds from a TUI process's spawn to its first paint, its first whole frame and its catalog filled (None: not
    within the wait)."""

    first_paint: float | None
    first_frame: float | None
    catalog: float | None


def tui_process(args: list[str], catalog_marker: bytes, home: Path) -> Seen:
    """Spawn ``inspector ARGS`` on a new pseudo-terminal of ``SIZE`` and read what it writes to the terminal until
    ``catalog_marker`` shows; then end it (its whole process group: it and the server it started)."""
    master, slave = os.openpty()
    columns, rows = SIZE
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    env = {
        **cached_bytecode(home / "pycache"),
        "TERM": "xterm-256color",
        "COLUMNS": str(columns),
        "LINES": str(rows),
        "INSPECTOR_DATA_DIR": str(home / "data"),
        "INSPECTOR_CONFIG_DIR": str(home / "config"),
    }
    began = time.perf_counter()
    proc = subprocess.Popen(
        [*INSPECTOR, *args], stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
    )
    os.close(slave)
    written = b""
    painted: float | None = None
    first: float | None = None
    filled: float | None = None
    try:
        while filled is None and time.perf_counter() - began < PTY_TIMEOUT_S:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the process ended: the terminal is gone
                break
            if not chunk:
                break
            now = time.perf_counter() - began
            written += chunk
            screen = written.partition(ALT_SCREEN)[2]
            if painted is None and all(marker in screen for marker in FIRST_PAINT):
                painted = now
            if first is None and all(marker in screen for marker in FIRST_FRAME):
                first = now
            if first is not None and catalog_marker in screen:
                filled = now
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
        os.close(master)
    return Seen(painted, first, filled)


def shown(seconds: list[float | None]) -> str:
    """The median of the runs that showed it, and every run, in milliseconds."""
    got = [s for s in seconds if s is not None]
    every = " ".join("-" if s is None else f"{s * 1000:.0f}" for s in seconds)
    if not got:
        return f"never within {PTY_TIMEOUT_S:.0f} s ({every})"
    median = statistics.median(got)
    return f"median {median * 1000:4.0f} ms = {median / GOAL_S:.2f}x the 400 ms goal   (runs: {every})"


def cached_bytecode(folder: Path) -> dict[str, str]:
    """This process's environment for a child whose compiled modules are kept in ``folder`` (see the docstring)."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "PYTHONPYCACHEPREFIX": str(folder)}


def demo_start(env: dict[str, str]) -> float:
    """Seconds from spawn to the demo server's answer to server/discover."""
    began = time.time()
    proc = subprocess.Popen(
        [sys.executable, "-m", "inspector.demo"],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(DISCOVER) + "\n")
    proc.stdin.flush()
    proc.stdout.readline()
    elapsed = time.time() - began
    proc.stdin.close()
    proc.wait(10)
    return elapsed


def tui_start(env: dict[str, str]) -> float:
    """Seconds from spawn to the TUI's first painted timeline line."""
    began = time.time()
    done = subprocess.run(
        [sys.executable, "-c", TUI_PROBE, str(PERF)], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    return float(done.stdout.split()[0]) - began


ECHO: Final = shlex.join([sys.executable, str(PERF / "echo_server.py")])
"""The stdlib echo server, as ``inspector connect`` is given it."""


def whole_processes(runs: int, home: Path) -> dict[str, list[Seen]]:
    """``inspector demo`` and ``inspector connect ECHO``, started in turns (a moment of load falls on both), after
    one uncounted start of each."""
    wholes: dict[str, list[Seen]] = {"inspector demo": [], "inspector connect ECHO": []}
    for run in range(runs + 1):
        demo = tui_process(["demo"], b"Tools 12", home)
        echo = tui_process(["connect", ECHO], b"Tools 1", home)
        if run > 0:
            wholes["inspector demo"].append(demo)
            wholes["inspector connect ECHO"].append(echo)
    return wholes


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    announce("bench_startup", (runs + 1) * SECONDS_PER_RUN, f"{runs} runs x 4 processes started, 1 warm-up", "--runs")
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as folder:
        home = Path(folder)
        env = cached_bytecode(home / "pycache")
        demo = [demo_start(env) for _ in range(runs + 1)][1:]
        tui = [tui_start(env) for _ in range(runs + 1)][1:]
        wholes = whole_processes(runs, home)
    print(f"demo server start (spawn -> server/discover answered): median {statistics.median(demo) * 1000:.0f} ms")
    print(f"TUI start (spawn -> first timeline line painted):      median {statistics.median(tui) * 1000:.0f} ms")
    print(f"TUI / demo server = {statistics.median(tui) / statistics.median(demo):.2f}x   (target <= 1.0)")
    load = ", ".join(f"{figure:.2f}" for figure in os.getloadavg())
    print(f"whole process under a {SIZE[0]}x{SIZE[1]} pseudo-terminal (ECHO: {ECHO}); load average {load}")
    for name, seen in wholes.items():
        print(f"{name:<23} spawn -> first paint:    {shown([s.first_paint for s in seen])}")
        print(f"{name:<23} spawn -> first frame:    {shown([s.first_frame for s in seen])}")
        print(f"{name:<23} spawn -> catalog filled: {shown([s.catalog for s in seen])}")


if __name__ == "__main__":
    main()
