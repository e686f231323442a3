"""Brings up the login screen when a login starts: held by the main screen (its ``LoginHost``), following its live
session's timeline.

A login starts with a challenge (a ``401``, or a ``403 insufficient_scope`` asking for more scope); the screen opens
then, before any person is needed, so every step shows as it happens, and a login that cannot run (``--no-login``,
a metadata document that is not JSON) says why and what to try there. A login that needs the person
(``ScreenLogin.authorize``) brings the screen up too, if it was closed meanwhile. ``a`` opens it any time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from inspector.ui.key_hold import hold_keys

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.app import App

    from inspector.targets.target import Target
    from inspector.timeline.model import Timeline, TimelineEvent
    from inspector.ui.login.login_screen import AuthScreen
    from inspector.ui.login.tui_login import ScreenLogin


class LoginHost(Protocol):
    """What the watch needs of the screen it serves (the main screen is one): whether that screen is still up, the
    app it is on (to open the login screen over it), its target and its timeline."""

    @property
    def app(self) -> App[Any]: ...

    @property
    def is_attached(self) -> bool: ...

    @property
    def target(self) -> Target: ...

    @property
    def timeline(self) -> Timeline: ...


class LoginWatch:
    """The login screen's opener for one main screen."""

    def __init__(self, host: LoginHost, login: ScreenLogin | None) -> None:
        self.host = host
        self.login = login
        """The TUI's login, when the composition root gave one (None: the login screen only shows the steps)."""
        self.opened = 0
        """How many times it brought the screen up by itself (tests read it)."""
        self._seen = 0
        self._unsubscribe: Callable[[], None] | None = None
        self._screen: AuthScreen | None = None

    def follow(self, timeline: Timeline) -> None:
        """Watch ``timeline`` (a new session's) from now on."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        self._seen = len(timeline.auth)
        self._unsubscribe = timeline.subscribe(lambda event: self._changed(timeline, event))
        if self.login is not None:
            self.login.attach(self._asked)

    def _changed(self, timeline: Timeline, event: TimelineEvent) -> None:
        if len(timeline.auth) == self._seen:
            return
        new, self._seen = timeline.auth[self._seen :], len(timeline.auth)
        if any(step.step == "challenge" for step in new):
            self.opened += 1
            self.host.app.call_later(self.show)  # (not from inside the timeline's own write)

    def _asked(self) -> None:
        self.show()

    def show(self) -> None:
        """The login screen over the main screen, unless it is already up (or the main screen has gone)."""
        host = self.host
        if not host.is_attached or (self._screen is not None and self._screen.is_attached):
            return
        target = host.target
        server = target.spec if target.source == "replay" else target.display_name  # (the recorded server)
        from inspector.ui.login.login_screen import AuthScreen  # (when a login first shows: most servers have none)

        self._screen = AuthScreen(host.timeline, self.login, server, hold=hold_keys(host.app))
        host.app.push_screen(self._screen)
