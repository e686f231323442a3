"""A notification storm: how the memory of ``inspector listen`` moves while a server floods one subscription.

The server is the tests' stdlib fixture (``tests/fixtures/bad_server.py flood``, ``BAD_SERVER_FLOOD=0``): it
acknowledges ``subscriptions/listen`` and then sends ``notifications/resources/updated`` as fast as the pipe takes
them, until the client ends the subscription. ``inspector listen --uri URI --duration S --json`` runs as a real
process, recording to a temporary folder as a person's run would (``--no-record`` leaves the recording out); its
resident memory (``VmRSS`` in ``/proc/PID/status``) is read every second. Issue 29's goal: after the first 10 s, RSS
grows by under 30 MB. Printed: RSS at 10 s and at the end, the peak, the growth, and the events received (the
``--json`` document's ``eventCount``) and their rate. Before the timeline kept counts and the newest events only, the
listen grew about 11 MB a second (186 MB after 15 s).

The default run (a 60 s storm) takes about 65 s on the 2-core development machine; the first line says how long a run
will take from its options. ``--duration`` for a longer or shorter storm (at least 12 s: the goal is read at 10 s).

Usage: python tests/perf/bench_storm.py [--duration 60] [--no-record]
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Final

from perf_support import announce, arguments

FIXTURE: Final = Path(__file__).resolve().parents[1] / "fixtures" / "bad_server.py"
SETTLED_S: Final = 10.0
"""When the growth is measured from: start-up, imports and the first buffers are over by then."""
GOAL_MB: Final = 30.0
"""Issue 29: what RSS may grow by after the first 10 s of a 60 s storm."""
START_S: Final = 5.0
"""What a run costs besides its storm on the development machine (start-up, the handshake, printing the end)."""


def rss_mb(pid: int) -> float | None:
    """The process's resident memory now, in MB (None once it is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


def storm(duration: float, record: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-storm-") as folder:
        env = {**os.environ, "BAD_SERVER_FLOOD": "0", "INSPECTOR_DATA_DIR": folder}
        server = shlex.join([sys.executable, str(FIXTURE), "flood"])
        saved = ["--record", str(Path(folder) / "storm.jsonl")] if record else ["--no-record"]
        argv = [sys.executable, "-c", "from inspector.cli import main; main()", "listen", "--uri", "file:///storm"]
        argv += ["--duration", f"{duration:g}", "--server", server, "--json", *saved]
        out = Path(folder) / "out.json"
        with out.open("w") as stdout:
            began = time.monotonic()
            process = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.DEVNULL, env=env)
            samples: list[tuple[float, float]] = []
            while True:
                try:
                    process.wait(timeout=1.0)  # (the sampling tick: one reading a second until it exits)
                    break
                except subprocess.TimeoutExpired:
                    mb = rss_mb(process.pid)
                    if mb is not None:
                        samples.append((time.monotonic() - began, mb))
        took = time.monotonic() - began
        doc = json.loads(out.read_text(encoding="utf-8"))
        size = sum(f.stat().st_size for f in Path(folder).glob("*.jsonl"))
    events = (doc.get("listen") or {}).get("eventCount", 0)
    settled = [mb for at, mb in samples if at >= SETTLED_S]
    if process.returncode != 0 or not settled:
        print(f"the listen ended with exit code {process.returncode} after {took:.1f} s: {doc.get('detail')}")
        raise SystemExit(1)
    at_10, last, peak = settled[0], settled[-1], max(mb for _, mb in samples)
    growth = max(settled) - at_10
    print(
        f"storm of {duration:g} s: {events:,} events ({events / duration:,.0f}/s)"
        + (f", recorded {size / 1e6:,.0f} MB" if record else "")
    )
    print(f"RSS at {SETTLED_S:g} s {at_10:.1f} MB, at the end {last:.1f} MB, peak {peak:.1f} MB")
    verdict = "met" if growth < GOAL_MB else "MISSED"
    print(f"growth after {SETTLED_S:g} s: {growth:+.1f} MB (goal: under {GOAL_MB:g} MB): {verdict}")
    print("samples (s: MB): " + " ".join(f"{at:.0f}:{mb:.0f}" for at, mb in samples))


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of storm (at least 12)")
    parser.add_argument("--no-record", action="store_true", help="leave the recording out")
    options = parser.parse_args()
    if options.duration < SETTLED_S + 2:
        parser.error(f"--duration must be at least {SETTLED_S + 2:g} s: the growth is read from {SETTLED_S:g} s on")
    announce("bench_storm", options.duration + START_S, f"a {options.duration:g} s storm", "--duration")
    storm(options.duration, not options.no_record)


if __name__ == "__main__":
    main()
