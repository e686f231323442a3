"""How a person logs in from the TUI (``protocol.oauth.Login``): the auth screen shows the authorization URL, the
browser opens on it when there is one, and whichever comes first ends the wait: the browser's redirect reaching
the loopback callback, the address the browser ended on pasted into the screen (over SSH), or ``x`` (stop).

Before the browser opens, the login's addresses may have been warned about (``protocol.login_urls``: a user name
before '@', an endpoint on another origin, plain http off this machine): then the screen shows the warnings and
asks (``accept``: y goes on, n refuses), and nothing is opened or sent until the person answers.

The URL is built from the server's metadata: it is shown through the sanitizer and never fetched here; one that
holds a hidden character is neither opened nor copied. A pasted address carries the authorization code: it is
parsed, never shown or kept. The browser opens in a thread of its own, never waited for (``webbrowser`` waits for
a ``$BROWSER`` command to exit, and that command may be the very browser that has to reach our callback).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from inspector.protocol.login_urls import LoginCheck
from inspector.protocol.oauth import (
    AuthorizationPrompt,
    BadRedirect,
    Landing,
    LoginHelpers,
    LoginStopped,
    parse_landing,
)
from inspector.protocol.sanitize import has_hidden
from inspector.ui.modals.url_check import open_in_browser

Opener = Callable[[str], bool]
"""Opens a URL in the person's browser; False when none could be opened."""
State = Literal["idle", "confirm", "opening", "opened", "no-browser", "hidden", "landed", "pasted", "stopped", "failed"]
STOPPED: Final = "stopped from the login screen (x)"
STOPPED_HINT: Final = "log in again: r on the main screen retries the connection, or make the call again"
ACCEPT_HINT: Final = (
    "if you trust these addresses, log in again (r on the main screen retries) and accept them on the login screen (y)"
)


@dataclass(frozen=True, slots=True)
class LoginNow:
    """What the login screen shows about the person's part: the URL to open, and where the wait stands."""

    prompt: AuthorizationPrompt | None
    state: State
    note: str = ""
    check: LoginCheck | None = None
    """The warnings about the login's addresses waiting for the person's answer (state ``confirm``)."""


class ScreenLogin:
    """``protocol.oauth.Login`` and ``protocol.login_urls.RiskConsent`` for the TUI (see the module docstring).
    ``opener``: None when there is no browser on this machine (the URL is then copied and opened by hand)."""

    waits_for_a_person: Final = True
    how_to_accept: Final = ACCEPT_HINT

    def __init__(self, opener: Opener | None = open_in_browser) -> None:
        self.opener = opener
        self.now = LoginNow(None, "idle")
        """The current (or last) login's person part."""
        self._show: Callable[[], None] | None = None
        self._listeners: list[Callable[[LoginNow], None]] = []
        self._pasted: asyncio.Future[Landing] | None = None
        self._stopped: asyncio.Future[Landing] | None = None
        self._answer: asyncio.Future[bool] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def attach(self, show: Callable[[], None]) -> None:
        """``show`` brings the login screen up (the app gives it, once it runs)."""
        self._show = show

    def subscribe(self, listener: Callable[[LoginNow], None]) -> Callable[[], None]:
        """Call ``listener`` on every change; returns the unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _tell(
        self, state: State, note: str = "", prompt: AuthorizationPrompt | None = None, check: LoginCheck | None = None
    ) -> None:
        self.now = LoginNow(prompt if prompt is not None else self.now.prompt, state, note, check)
        for listener in list(self._listeners):
            listener(self.now)

    @property
    def waiting(self) -> bool:
        """A login waits for the person now."""
        return self._pasted is not None and not self._pasted.done()

    @property
    def confirming(self) -> bool:
        """Warnings about a login's addresses wait for the person's answer now."""
        return self._answer is not None and not self._answer.done()

    # ------------------------------------------------------------------------------------------------ RiskConsent
    async def accept(self, check: LoginCheck) -> str | None:
        self._answer = asyncio.get_running_loop().create_future()
        self._tell("confirm", prompt=None, check=check)
        if self._show is not None:
            self._show()
        try:
            accepted = await self._answer
        finally:
            self._answer.cancel()  # (the login's timeout or its request's end: nobody answers any more)
            self._tell("idle" if self.now.state == "confirm" else self.now.state, check=None)
        return "accepted on the login screen" if accepted else None

    def answer(self, accepted: bool) -> bool:
        """The person's answer to the warnings that wait (y: go on, n: refuse); False when none wait."""
        if not self.confirming or self._answer is None:
            return False
        self._answer.set_result(accepted)
        return True

    # ------------------------------------------------------------------------------------------------ Login
    async def authorize(self, prompt: AuthorizationPrompt, helpers: LoginHelpers) -> Landing:
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._pasted = loop.create_future()
        self._stopped = loop.create_future()
        # listening before the browser opens: it may come back before the opener returns
        waits: list[asyncio.Future[Landing]] = [asyncio.ensure_future(helpers.wait_for_browser()), self._pasted,
                                                self._stopped]  # fmt: skip
        self._tell("opening", prompt=prompt)
        if self._show is not None:
            self._show()
        self._open(prompt)
        try:
            done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            landing = next(iter(done)).result()
        except BaseException as error:
            stopped = isinstance(error, LoginStopped) and error.message == STOPPED
            self._tell("stopped" if stopped else "failed", getattr(error, "message", "") or str(error))
            raise
        finally:
            for wait in waits:
                wait.cancel()
            await asyncio.gather(*waits, return_exceptions=True)
        self._tell("pasted" if landing.how == "pasted" else "landed", landing.describe())
        return landing

    def _open(self, prompt: AuthorizationPrompt) -> None:
        if has_hidden(prompt.url):
            self._tell("hidden", "the URL holds hidden characters: it is neither opened nor copied")
            return
        opener, loop = self.opener, self._loop
        if opener is None or loop is None:
            self._tell("no-browser", "no browser here: copy the URL (c) and open it in a browser anywhere")
            return

        def run() -> None:
            opened = False
            with contextlib.suppress(Exception):  # a browser that fails to start is no browser
                opened = bool(opener(prompt.url))
            with contextlib.suppress(RuntimeError):  # the app (and its loop) ended meanwhile
                loop.call_soon_threadsafe(self._opened, prompt, opened)

        threading.Thread(target=run, name="inspector-browser", daemon=True).start()

    def _opened(self, prompt: AuthorizationPrompt, opened: bool) -> None:
        if self.now.prompt is not prompt or self.now.state != "opening":
            return  # the login moved on (the redirect came back before the opener returned)
        if opened:
            self._tell("opened", "opened in your browser: log in and consent there")
        else:
            self._tell("no-browser", "no browser could be opened here: copy the URL (c) and open it anywhere")

    def open_again(self) -> bool:
        """Open the URL of the waiting login in the browser again (False: nothing to open)."""
        prompt = self.now.prompt
        if not self.waiting or prompt is None or has_hidden(prompt.url):
            return False
        self._tell("opening")
        self._open(prompt)
        return True

    # ------------------------------------------------------------------------------------------------ the person
    def paste(self, text: str) -> str | None:
        """The address the browser ended on: None when it ends the wait, else why it was not taken."""
        prompt = self.now.prompt
        if not self.waiting or prompt is None or self._pasted is None:
            return "no login is waiting for a redirect"
        try:
            landing = parse_landing(text, prompt.redirect_uri)
        except BadRedirect as bad:
            return str(bad)
        self._pasted.set_result(landing)
        return None

    def stop(self) -> bool:
        """Give up the waiting login (the request it was for fails, saying so); False when none waits. Warnings
        waiting for an answer are refused."""
        if self.confirming:
            return self.answer(False)
        if not self.waiting or self._stopped is None or self._stopped.done():
            return False
        self._stopped.set_exception(LoginStopped(STOPPED, STOPPED_HINT))
        return True
