"""One-shot commands from a cold process (issue 33): whole-process wall time, spawn to exit, as a user sees it.

1. ``inspector call echo --args '{"text":"hello"}' --server 'PYTHON echo_server.py'`` (the console script of this
   interpreter's environment, recording on as by default, into a temporary ``INSPECTOR_DATA_DIR``), paired with
2. the official Inspector CLI's one-shot call (``@modelcontextprotocol/inspector@2.12.0`` under Node 22, from
   ``~/.cache/inspector-peers``, found as bench_load.py finds it): ``node .../launcher/build/index.js --cli
   --protocol-era modern --method tools/call --tool-name echo --tool-args-json '{"text":"hello"}' PYTHON
   echo_server.py``, against the same stdlib server (``echo_server.py``, bench_load.py's);
3. ``inspector --help`` (no server: the command line's own start);
4. ``inspector list tools --server ...`` (``--list``; paired with the official CLI's ``--method tools/list``).

Our commands run with a temporary ``INSPECTOR_CACHE_DIR`` too, and their bytecode kept in a temporary
``PYTHONPYCACHEPREFIX`` (whatever ``PYTHONDONTWRITEBYTECODE`` says: a user's install has its modules compiled).
After one untimed run of each command (the result models' validators and the bytecode are then in those folders,
as after a first run on any machine), each round runs every command once, in a rotating order, so a slow spell of
the shared machine falls on each alike; a call's figure is the median over the rounds of the pair ratio ours /
official (each pair from the same round), beside the medians of the times. Goals (printed with each ratio, never
asserted): ``inspector call`` at most 0.6x the official CLI's wall time, ``inspector --help`` under 150 ms. The
load average is printed at the start and end.

``--baseline DIR`` runs our commands a second time with ``PYTHONPATH=DIR`` (another checkout, such as the tree
before a change: ``--baseline /work/main``), interleaved with the others, and prints its figures and after / before
ratios, so a change is measured in turns on the same machine load. The official CLI is skipped, saying why, when
Node 22 or the package is not installed.

The default run (10 rounds) takes about 25 s on the 2-core development machine (about 40 s with ``--baseline``,
more with ``--list``); the first line says how long a run will take from its options. More: ``--rounds``.
Usage: python tests/perf/bench_cold.py [--rounds 10] [--list] [--baseline DIR]
"""

from __future__ import annotations

import atexit
import os
import shlex
import shutil
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bench_load import ARGS_JSON, SERVER, TOOL, find_official, inspector_argv, load_average
from perf_support import announce, arguments

GOAL_CALL_RATIO: Final = 0.6
"""``inspector call`` / the official CLI's one-shot call, paired median (at most)."""
GOAL_HELP_MS: Final = 150.0
"""``inspector --help``, median wall time (under)."""
RUN_S: Final = {"call": 0.8, "official call": 0.5, "help": 0.3, "list": 0.8, "official list": 0.5}
"""A run of each command on the 2-core development machine (before issue 33's change), for the first line's
estimate."""


@dataclass(frozen=True, slots=True)
class Command:
    """One command line to time, with the environment it runs in and what its output must contain."""

    argv: list[str]
    env: dict[str, str]
    expect: str


def timed(command: Command) -> float:
    """Seconds from spawn to exit; a command that fails, or prints not what it should, is an error, not a figure."""
    began = time.perf_counter()
    done = subprocess.run(command.argv, env=command.env, capture_output=True, text=True, timeout=60, check=False)
    elapsed = time.perf_counter() - began
    if done.returncode != 0 or command.expect not in done.stdout:
        raise RuntimeError(f"{shlex.join(command.argv)}: exit {done.returncode}; {done.stderr.strip()[-500:]}")
    return elapsed


def our_commands(folder: str, python_path: str | None, *, listing: bool) -> dict[str, Command]:
    """Our one-shot commands as a user types them, with their data and cache folders under ``folder``;
    ``python_path`` runs another checkout's code."""
    env = {**os.environ, "INSPECTOR_DATA_DIR": f"{folder}/data", "INSPECTOR_CACHE_DIR": f"{folder}/cache"}
    # Compiled once, as an installed package is: the bytecode goes to a folder of the run's own (the source trees
    # get no __pycache__), even where the environment says not to write it.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = f"{folder}/pycache"
    if python_path is not None:
        env["PYTHONPATH"] = python_path
    server = ("--server", shlex.join(SERVER))
    commands = {
        "call": Command([*inspector_argv(), "call", TOOL, "--args", ARGS_JSON, *server], env, "hello"),
        "help": Command([*inspector_argv(), "--help"], env, "Usage"),
    }
    if listing:
        commands["list"] = Command([*inspector_argv(), "list", "tools", *server], env, TOOL)
    return commands


def official_commands(prefix: list[str], *, listing: bool) -> dict[str, Command]:
    """The official CLI's one-shot call (and list) against the same server, in the same (2026-07-28) era."""
    era = ("--cli", "--protocol-era", "modern")
    call = ("--method", "tools/call", "--tool-name", TOOL, "--tool-args-json", ARGS_JSON)
    commands = {"official call": Command([*prefix, *era, *call, *SERVER], dict(os.environ), "hello")}
    if listing:
        commands["official list"] = Command([*prefix, *era, "--method", "tools/list", *SERVER], dict(os.environ), TOOL)
    return commands


def ms(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:4.0f} ms (" + " ".join(f"{s * 1000:.0f}" for s in seconds) + ")"


def paired(mine: list[float], theirs: list[float]) -> float:
    """The median of the ratios of runs from the same round."""
    return statistics.median(a / b for a, b in zip(mine, theirs, strict=True))


def main() -> None:
    parser = arguments(__doc__)
    parser.add_argument("--rounds", type=int, default=10, help="runs of each command (default 10)")
    parser.add_argument("--list", action="store_true", help="also time `inspector list tools` (and the official's)")
    parser.add_argument("--baseline", metavar="DIR", help="also run our commands with PYTHONPATH=DIR")
    opts = parser.parse_args()
    prefix, note = find_official()
    folder = tempfile.mkdtemp(prefix="bench-cold-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    commands = our_commands(folder, None, listing=opts.list)
    if prefix is not None:
        commands |= official_commands(prefix, listing=opts.list)
    if opts.baseline is not None:
        before = our_commands(folder, str(Path(opts.baseline).resolve()), listing=opts.list)
        commands |= {f"{name} (baseline)": command for name, command in before.items()}
    names = list(commands)
    announce(
        "bench_cold",
        (opts.rounds + 1) * sum(RUN_S[name.removesuffix(" (baseline)")] for name in names),
        f"{opts.rounds} rounds x {len(names)} commands",
        "--rounds/--list/--baseline",
    )
    print(f"server: {shlex.join(SERVER)}; load average at the start: {load_average()}")
    print(f"official CLI: {note}" if prefix is not None else f"skipping the official Inspector CLI: {note}")
    if opts.baseline is not None:
        print(f"baseline: PYTHONPATH={Path(opts.baseline).resolve()}")
    # One untimed run of each first: the result models' validators are then in the cache folder, as after any
    # first run on a machine (the first run after an install builds them: about a quarter of a second more).
    for name in names:
        try:
            timed(commands[name])
        except (RuntimeError, subprocess.TimeoutExpired) as exc:
            print(f"warm-up {name} FAILED: {exc}", flush=True)
    times: dict[str, list[float]] = {name: [] for name in names}
    failed: set[int] = set()
    for r in range(opts.rounds):
        # Interleaved, in a rotating order, so that a slow spell of the machine falls on each command alike.
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            try:
                times[name].append(timed(commands[name]))
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                print(f"round {r + 1} {name} FAILED: {exc}", flush=True)
                failed.add(r)
                times[name].append(float("nan"))
        print(f"round {r + 1}: " + ", ".join(f"{n} {times[n][-1] * 1000:.0f} ms" for n in names), flush=True)
    kept = [r for r in range(opts.rounds) if r not in failed]
    figures = {name: [times[name][r] for r in kept] for name in names}
    print()
    for name in names:
        print(f"{name:24} median {ms(figures[name])}")
    print(f"load average at the end: {load_average()}")
    report(figures)


def say(met: bool) -> str:
    return "met" if met else "MISSED"


def report(figures: dict[str, list[float]]) -> None:
    """The ratios against the goals, and after / before where a baseline ran."""
    if not next(iter(figures.values())):
        print("no round completed")
        return
    for tree in ("", " (baseline)"):
        if f"call{tree}" not in figures:
            continue
        for kind in ("call", "list"):
            if f"{kind}{tree}" in figures and f"official {kind}" in figures:
                ratio = paired(figures[f"{kind}{tree}"], figures[f"official {kind}"])
                goal = f"   (goal <= {GOAL_CALL_RATIO}: {say(ratio <= GOAL_CALL_RATIO)})" if kind == "call" else ""
                print(f"inspector {kind}{tree} / official = {ratio:.2f}x paired median{goal}")
            elif f"{kind}{tree}" in figures:
                print(f"inspector {kind}{tree} / official = (skipped)")
        help_ms = statistics.median(figures[f"help{tree}"]) * 1000
        print(f"inspector --help{tree} = {help_ms:.0f} ms   (goal < {GOAL_HELP_MS:.0f}: {say(help_ms < GOAL_HELP_MS)})")
    if "call (baseline)" in figures:
        for kind in ("call", "help", "list"):
            if f"{kind} (baseline)" in figures:
                ratio = paired(figures[kind], figures[f"{kind} (baseline)"])
                print(f"{kind}: this tree / baseline = {ratio:.2f}x paired median")


if __name__ == "__main__":
    main()
