"""A crafted recording cannot reach the terminal: every field read from it is server text. ``inspector sessions``,
``replay --print``, ``replay --json`` and ``replay --against`` print a recording whose header fields (``started``,
``transport``, ``target``, ``era``) and era event carry escape sequences (clear the screen, set the window title, set
the clipboard through OSC 52), C1 controls, a bidi override and zero-width characters: the bytes they write hold none
of them raw, on a pipe and on a pseudo-terminal alike. Real processes."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

ENTRY = [sys.executable, "-c", "from inspector.cli import main; main()"]
PAYLOADS = {
    "clear": "\x1b[2J\x1b[H",
    "title": "\x1b]0;pwned\x07",
    "clipboard": "\x1b]52;c;ZXZpbA==\x07",
    "c1": "\x9b31m",
    "bidi": "\u202e",
    "hidden": "\u200b\u2028",
}
RAW: tuple[bytes, ...] = (b"\x1b[2J", b"\x1b]0;", b"\x1b]52;", "\x9b".encode(), "\u202e".encode(), "\u200b".encode())
"""What must never be written (the payloads' working parts, in UTF-8)."""


def crafted(folder: Path) -> Path:
    """A recording of one call whose header and era event carry every payload."""
    bad = "".join(PAYLOADS.values())
    header = {"recording": "inspector", "version": 1, "target": f"srv{bad}", "transport": f"stdio{bad}",
              "era": f"modern{bad}", "started": f"2026-12-05T00:00:00{bad}", "inspector": f"0.1{bad}"}  # fmt: skip
    records = [
        header,
        {"t": 0.0, "dir": "event", "event": "era", "era": f"modern{bad}", "version": f"2026-07-28{bad}", "why": bad},
        {"t": 0.0, "dir": "event", "event": "call", "call": 1, "method": "tools/call", "params": {"name": f"x{bad}"}},
        {"t": 0.0, "dir": "c2s", "call": 1,
         "raw": json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": f"x{bad}"}})},
        {"t": 0.1, "dir": "s2c",
         "raw": json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": bad}]}})},
    ]  # fmt: skip
    path = folder / "recordings" / "session-20261205-000000-000000.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def on_a_pipe(*args: str, data: Path) -> bytes:
    env = {**os.environ, "INSPECTOR_DATA_DIR": str(data), "COLUMNS": "200"}
    done = subprocess.run([*ENTRY, *args], capture_output=True, env=env, timeout=60, check=False)
    return done.stdout + done.stderr


def on_a_terminal(*args: str, data: Path) -> bytes:
    """What the command writes to a pseudo-terminal (styles on, as a person sees it)."""
    controller, terminal = pty.openpty()
    env = {**os.environ, "INSPECTOR_DATA_DIR": str(data), "COLUMNS": "200", "TERM": "xterm-256color"}
    process = subprocess.Popen(
        [*ENTRY, *args], stdin=subprocess.DEVNULL, stdout=terminal, stderr=terminal, env=env, close_fds=True
    )
    os.close(terminal)
    written = b""
    try:
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the process closed the terminal
                break
            if not chunk:
                break
            written += chunk
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(controller)
    return written


@pytest.mark.parametrize(
    "command",
    [
        ["sessions"],
        ["replay", "{path}", "--print"],
        ["replay", "{path}", "--json"],
        ["export", "{path}", "--call", "1"],
    ],
    ids=["sessions", "replay --print", "replay --json", "export"],
)
@pytest.mark.parametrize("where", [on_a_pipe, on_a_terminal], ids=["pipe", "terminal"])
def test_nothing_from_a_crafted_recording_reaches_the_terminal_raw(
    command: list[str], where: object, tmp_path: Path
) -> None:
    path = crafted(tmp_path)
    assert callable(where)
    written: bytes = where(*(part.format(path=path) for part in command), data=tmp_path)
    assert written, "the command printed something"
    leaked = [raw for raw in RAW if raw in written]
    assert leaked == [], f"raw in the output: {leaked}: {written[-600:]!r}"
