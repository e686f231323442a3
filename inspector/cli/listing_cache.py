"""The bare listing (``inspector`` and ``inspector --help``) as it was last printed to a terminal like this one.

Typer renders its help with rich: importing typer, the command modules and typer's rich help (which imports a
markdown parser) costs about 0.2 s of the 0.24 s ``inspector --help`` takes (``tests/perf/bench_cold.py``, idle
machine, 2026-12-05), for a text that changes only when the inspector, typer or rich do. So the text printed is kept
in the cache folder under a key of everything that shapes it (the ``inspector.cli`` modules' files, typer's and
rich's, the Python, whether stdout is a terminal and its size, the environment variables rich and typer read), and
printed from there the next time, without importing typer. Any difference in the key renders it again; a cache that
cannot be read or written is simply not used.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Final, TextIO

from inspector.paths import cache_dir, write_cached

LISTING_ARGS: Final[tuple[list[str], ...]] = ([], ["--help"])
"""The command lines that print the bare listing."""
SHAPING_ENV: Final = (
    "COLUMNS",
    "LINES",
    "TERM",
    "COLORTERM",
    "NO_COLOR",
    "FORCE_COLOR",
    "TTY_COMPATIBLE",
    "TTY_INTERACTIVE",
    "TERMINAL_WIDTH",
    "JUPYTER_COLUMNS",
    "JUPYTER_LINES",
    "_TYPER_FORCE_DISABLE_TERMINAL",
    "TYPER_USE_RICH",
    "PYTHONIOENCODING",
)
"""Environment variables rich or typer read when they render help (a change in any renders it again)."""


def listing_key(argv: list[str], stdout: TextIO) -> str:
    """A digest of everything that shapes the listing ``argv`` prints to ``stdout`` (and how it exits: with no
    arguments, as a usage error)."""
    shaping: list[object] = [argv, sys.version, sys.executable, [os.environ.get(name) for name in SHAPING_ENV]]
    terminal = False
    with contextlib.suppress(AttributeError, ValueError, OSError):
        terminal = stdout.isatty()
        if terminal:
            shaping.append(tuple(os.get_terminal_size(stdout.fileno())))
    shaping.append([terminal, getattr(stdout, "encoding", None)])
    shaping.extend(_files_of(Path(__file__).parent))
    for package in ("typer", "rich"):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.origin is not None:
            shaping.extend(_files_of(Path(spec.origin).parent))
    return hashlib.sha256(json.dumps(shaping, default=str).encode()).hexdigest()[:32]


def _files_of(folder: Path) -> list[tuple[str, int, int]]:
    """Each Python file of ``folder`` (not below it) with its modification time and size."""
    found: list[tuple[str, int, int]] = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.name.endswith(".py"):
                stat = entry.stat()
                found.append((entry.path, stat.st_mtime_ns, stat.st_size))
    return sorted(found)


def print_listing(argv: list[str], render: Callable[[], None]) -> None:
    """Print the bare listing ``argv`` asks for: from the cache when its key matches, else by ``render`` (typer),
    keeping what it printed and how it exited for the next time. Ends as ``render`` does (SystemExit, its code)."""
    key = listing_key(argv, sys.stdout)
    kept = cache_dir() / "listing" / f"{key}.json"
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        stored = json.loads(kept.read_text(encoding="utf-8"))
        text, exit_code = stored["text"], stored["code"]
        if isinstance(text, str) and type(exit_code) is int:  # (else a damaged file: rendered again, and written over)
            sys.stdout.write(text)
            sys.stdout.flush()
            raise SystemExit(exit_code)
    tee = _Tee(sys.stdout)
    code: int | str | None = 0
    sys.stdout = tee
    try:
        render()
    except SystemExit as exit_:
        code = exit_.code
    finally:
        sys.stdout = tee.out
    if isinstance(code, int) and tee.seen:
        write_cached(kept, json.dumps({"text": "".join(tee.seen), "code": code}))
    raise SystemExit(code)


class _Tee:
    """``sys.stdout`` while typer renders the listing: every write goes through, and is kept. It answers what rich
    asks a stream (a terminal? its file descriptor, its encoding) as the stream itself, so the render is the same."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.seen: list[str] = []

    def write(self, text: str) -> int:
        written = self.out.write(text)  # (first: click probes a stream with bytes, which a text stream refuses)
        self.seen.append(text)
        return written

    def flush(self) -> None:
        self.out.flush()

    def isatty(self) -> bool:
        return self.out.isatty()

    def fileno(self) -> int:
        return self.out.fileno()

    def __getattr__(self, name: str) -> object:
        return getattr(self.out, name)
