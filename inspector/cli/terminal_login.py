"""How a person logs in from a terminal: the browser opens on the authorization URL when there is one on this
machine, the URL is printed either way, and whichever comes first ends the wait: the browser's redirect reaching
the loopback callback, or the address the browser ended on, pasted into the terminal (over SSH the browser is on
another machine and its redirect cannot reach us).

Server text (the URL is built from the server's metadata) is printed through the sanitizer; a pasted address holds
the authorization code, so it is never echoed.

Before any of that, the login's addresses are judged (``protocol.login_urls``); on the command line
``--accept-login-risks`` is what accepts the warnings (``FlagConsent``): without it such a login stops before
anything is opened or sent, and its error says each warning and the flag.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
import webbrowser
from collections.abc import Callable, Iterator
from typing import Final

from rich.console import Console
from rich.text import Text

from inspector.protocol.login_urls import ACCEPT_FLAG, LoginCheck
from inspector.protocol.oauth import AuthorizationPrompt, BadRedirect, Landing, LoginHelpers, parse_landing
from inspector.protocol.sanitize import clean, one_line

Opener = Callable[[str], bool]
NO_DISPLAY_ENV: Final = ("DISPLAY", "WAYLAND_DISPLAY")


def browser_here() -> bool:
    """Is there a browser on the machine the terminal runs on? ``$BROWSER`` says yes; an SSH session or a Linux box
    with no display says no (the browser that would open is not the user's)."""
    if os.environ.get("BROWSER"):
        return True
    if os.environ.get("SSH_CONNECTION") or os.environ.get("SSH_TTY"):
        return False
    return not (sys.platform.startswith("linux") and not any(os.environ.get(name) for name in NO_DISPLAY_ENV))


def terminal_here() -> bool:
    """Can a person paste into this process (stdin is a terminal)?"""
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


class FlagConsent:
    """``protocol.login_urls.RiskConsent`` on the command line: ``--accept-login-risks`` (``accepted``) accepts,
    and each warning is printed on ``console`` first, so what was accepted is on the screen (None: the TUI owns the
    terminal, and its login screen lists the steps); without the flag the login stops, and its error line says
    every warning and the flag, once."""

    waits_for_a_person: Final = False
    how_to_accept: Final = f"look at these addresses; if you trust them, run again with {ACCEPT_FLAG}"

    def __init__(self, accepted: bool, console: Console | None) -> None:
        self._accepted = accepted
        self._console = console

    async def accept(self, check: LoginCheck) -> str | None:
        if not self._accepted:
            return None
        if self._console is not None:
            for risk in check.risks:
                self._console.print(Text(f"warning: {clean(risk.message)}", style="yellow"), soft_wrap=True)
        return f"{ACCEPT_FLAG} was given"


class TerminalLogin:
    """``protocol.oauth.Login`` for the headless commands."""

    def __init__(self, console: Console, *, browser: bool, paste: bool, opener: Opener = webbrowser.open) -> None:
        self._console = console
        self._browser = browser
        self._paste = paste
        self._opener = opener

    async def authorize(self, prompt: AuthorizationPrompt, helpers: LoginHelpers) -> Landing:
        console = self._console
        where = f" at {one_line(prompt.issuer, 100)}" if prompt.issuer else ""
        console.print(Text(f"login needed for {one_line(prompt.server, 100)}{where}", style="bold"))
        # listening before the browser opens: it may come back before the opener returns
        waits: list[asyncio.Future[Landing]] = [asyncio.ensure_future(helpers.wait_for_browser())]
        if self._browser:
            # In a thread of its own, never waited for: webbrowser waits for a $BROWSER command to exit, and that
            # command may be the very browser that has to reach our callback.
            threading.Thread(target=self._open, args=(prompt.url,), daemon=True).start()
            console.print(Text("your browser is opening; if it does not, open this address in one:"))
        else:
            console.print(Text("open this address in a browser:"))
        console.print(Text(clean(prompt.url)), soft_wrap=True)
        if self._paste:
            console.print(
                Text(
                    f"waiting for the browser to come back to {prompt.redirect_uri}; if it cannot reach this machine, "
                    "paste the address it ended on here and press enter:",
                    style="dim",
                )
            )
            waits.append(asyncio.ensure_future(self._pasted(prompt.redirect_uri)))
        else:
            console.print(Text(f"waiting for the browser to come back to {prompt.redirect_uri} …", style="dim"))
        try:
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            return next(iter(done)).result()
        finally:
            for wait in waits:
                wait.cancel()
            await asyncio.gather(*waits, return_exceptions=True)

    def _open(self, url: str) -> None:
        with contextlib.suppress(Exception):  # a browser that fails to start is no browser: the URL is printed
            self._opener(url)

    async def _pasted(self, redirect_uri: str) -> Landing:
        while True:
            # (the address holds the authorization code: it is not echoed, so it is not left on the screen)
            line = await read_line(echo=False)
            self._console.print(Text("(pasted)", style="dim") if line.strip() else "")
            if line == "":  # stdin closed: nobody will paste; the browser may still come back
                await asyncio.Event().wait()
            try:
                return parse_landing(line, redirect_uri)
            except BadRedirect as bad:
                self._console.print(Text(f"not that: {bad}", style="yellow"))


@contextlib.contextmanager
def _echo_off(fd: int) -> Iterator[None]:
    """The terminal on ``fd`` does not echo what is typed (lines are still read whole); as it was afterwards."""
    try:
        import termios  # (POSIX only: elsewhere the line is echoed)
    except ImportError:
        yield
        return
    try:
        before = termios.tcgetattr(fd)
    except (termios.error, OSError):  # not a terminal: nothing is echoed to hide
        yield
        return
    quiet = list(before)
    quiet[3] &= ~termios.ECHO
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, before)


async def read_line(*, echo: bool = True) -> str:
    """One line from stdin without blocking the loop, and without a thread left behind when the browser wins (a
    reader registered on the descriptor, removed when this is cancelled; a daemon thread where there is none).
    ``echo=False``: a terminal does not show what is typed meanwhile."""
    if not echo:
        try:
            fd = sys.stdin.fileno()
        except (OSError, ValueError):  # no real stdin: nothing is echoed
            return await read_line()
        with _echo_off(fd):
            return await read_line()
    loop = asyncio.get_running_loop()
    got: asyncio.Future[str] = loop.create_future()

    def settle(line: str) -> None:
        if not got.done():
            got.set_result(line)

    try:
        fd = sys.stdin.fileno()
        loop.add_reader(fd, lambda: settle(sys.stdin.readline()))
    except (NotImplementedError, OSError, ValueError):  # Windows' proactor loop, or no real stdin

        def read() -> None:
            line = sys.stdin.readline()
            loop.call_soon_threadsafe(settle, line)

        threading.Thread(target=read, daemon=True).start()
        return await got
    try:
        return await got
    finally:
        loop.remove_reader(fd)
