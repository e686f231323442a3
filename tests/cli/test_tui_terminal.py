"""The TUI in a real (pseudo-)terminal, as a person starts it: ``inspector demo``, wait for the header to say
connected, press q; what is left in the terminal afterwards names the recording, which exists."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Final

import pytest

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

BOUND_S: Final = 90.0
"""Upper bound on the whole run (start-up on a loaded 2-core machine takes seconds): a hang fails the test."""
ANSI: Final = re.compile(
    rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]"  # CSI
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    rb"|\x1b[PX^_][^\x1b]*\x1b\\"  # DCS and the like
    rb"|\x1b."
)
INSPECTOR: Final = "import sys; from inspector.cli import main; sys.argv[0] = 'inspector'; main()"


class Terminal:
    """A child process on a pseudo-terminal of 160×45; everything it writes is kept."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 45, 160, 0, 0))
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True, start_new_session=True
        )
        os.close(slave)
        self.output = b""
        self.deadline = time.monotonic() + BOUND_S

    @property
    def text(self) -> str:
        """What was written, escape sequences left out."""
        return ANSI.sub(b"", self.output).decode("utf-8", "replace")

    def read_until(self, wanted: str) -> bool:
        """Read until ``wanted`` is in the text (True), the child closes the terminal or the bound passes."""
        while wanted not in self.text and (remaining := self.deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], remaining)
            if not ready:
                break
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the child closed its side
                return wanted in self.text
            if not chunk:
                break
            self.output += chunk
        return wanted in self.text

    def read_to_end(self) -> None:
        """Read until the child closes the terminal (or the bound passes)."""
        while (remaining := self.deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], remaining)
            if not ready:
                return
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # EIO: the child closed its side
                return
            if not chunk:
                return
            self.output += chunk

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)
        os.close(self.master)


def test_quitting_the_demo_prints_where_the_session_was_recorded(tmp_path: Path) -> None:
    data = tmp_path / "data"
    # (the size is the pseudo-terminal's: a COLUMNS or LINES of the shell that runs the tests would override it)
    inherited = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env = {**inherited, "TERM": "xterm-256color", "INSPECTOR_DATA_DIR": str(data)}
    terminal = Terminal([sys.executable, "-c", INSPECTOR, "demo"], env)
    try:
        assert terminal.read_until("connected"), terminal.text[-2000:]
        os.write(terminal.master, b"q")
        terminal.read_to_end()
        assert terminal.process.wait(timeout=max(terminal.deadline - time.monotonic(), 1)) == 0
    finally:
        terminal.close()
    printed = re.findall(r"recording: (\S+\.jsonl)", terminal.text)
    assert len(printed) == 1, terminal.text[-2000:]  # said once, after the screen is gone
    path = Path(printed[0])
    assert path.parent == data / "recordings" and path.is_file()
    assert path.read_text(encoding="utf-8").startswith('{"recording":"inspector"')
