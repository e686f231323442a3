"""A pasted redirect address holds the authorization code: while the login waits for it, the terminal does not echo
what is typed, and echoes again once the line is read (a real pseudo-terminal, no process)."""

from __future__ import annotations

import asyncio
import os
import pty
import sys
import termios

import pytest

from inspector.cli.terminal_login import read_line


def echoing(fd: int) -> bool:
    return bool(termios.tcgetattr(fd)[3] & termios.ECHO)


async def test_a_pasted_line_is_not_echoed_and_the_terminal_is_as_it_was_after(monkeypatch: pytest.MonkeyPatch) -> None:
    controller, terminal = pty.openpty()
    with os.fdopen(terminal, "r", closefd=True) as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        assert echoing(terminal)
        reading = asyncio.ensure_future(read_line(echo=False))
        await asyncio.sleep(0)  # (one turn of the loop: the read has started and waits for the line)
        assert not echoing(terminal), "nothing typed is shown while the login waits for the address"
        os.write(controller, b"http://127.0.0.1:1/callback?code=SECRET&state=s\n")
        async with asyncio.timeout(10):
            line = await reading
        assert line == "http://127.0.0.1:1/callback?code=SECRET&state=s\n"
        assert echoing(terminal), "echo is back once the line is read"
        shown = os.read(controller, 4096) if _readable(controller) else b""
        assert b"SECRET" not in shown, "what was typed was not echoed back to the screen"
    os.close(controller)


def _readable(fd: int) -> bool:
    import select

    return bool(select.select([fd], [], [], 0)[0])
