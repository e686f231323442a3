"""Opening the TUI costs no more than the demo server's start (issue 4), measured side by side, from a cold process.

1. the demo server: spawn ``python -m inspector.demo`` and time until it answers ``server/discover``;
2. the TUI: spawn a process that imports the app and runs it headless on the real ``InspectorSession`` over the
   memory transport to a peer that has not answered yet (what ``inspector demo`` shows while its server starts),
   and time until the timeline pane's first line is painted. (Opening a recording of N calls adds the time to
   build its timeline: see bench_tui.py.)

The default run (5 starts of each) takes about 18 s on the 2-core development machine; the first line says how long
a run will take from its options. Longer: more ``--runs``.

Usage: python tests/perf/bench_startup.py [--runs 5]
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Final

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
SECONDS_PER_RUN: Final = 3.5
"""A demo server's start and a TUI's start on the 2-core development machine, for the first line's estimate."""


def demo_start() -> float:
    """Seconds from spawn to the demo server's answer to server/discover."""
    began = time.time()
    proc = subprocess.Popen(
        [sys.executable, "-m", "inspector.demo"],
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


def tui_start() -> float:
    """Seconds from spawn to the TUI's first painted timeline line."""
    began = time.time()
    done = subprocess.run(
        [sys.executable, "-c", TUI_PROBE, str(PERF)], capture_output=True, text=True, timeout=60, check=False
    )
    return float(done.stdout.split()[0]) - began


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    announce("bench_startup", runs * SECONDS_PER_RUN, f"{runs} runs x 2 processes started", "--runs")
    demo = [demo_start() for _ in range(runs)]
    tui = [tui_start() for _ in range(runs)]
    print(f"demo server start (spawn -> server/discover answered): median {statistics.median(demo) * 1000:.0f} ms")
    print(f"TUI start (spawn -> first timeline line painted):      median {statistics.median(tui) * 1000:.0f} ms")
    print(f"TUI / demo server = {statistics.median(tui) / statistics.median(demo):.2f}x   (target <= 1.0)")


if __name__ == "__main__":
    main()
