"""Brings up the login screen when a login starts: held by the main screen, following its live session's timeline.

A login starts with a challenge (a ``401``, or a ``403 insufficient_scope`` asking for more scope); the screen opens
then, before any person is needed, so every step shows as it happens, and a login that cannot run (``--no-login``,
a metadata document that is not JSON) says why and what to try there. A login that needs the person
(``ScreenLogin.authorize``) brings the screen up too, if it was closed meanwhile. ``a`` opens it any time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.ui.app_settings import AppSettings
from inspector.ui.key_hold import hold_keys
from inspector.ui.screen_login import ScreenLogin
from inspector.ui.screens.auth import AuthScreen

if TYPE_CHECKING:
    from collections.abc import Callable

    from inspector.session.timeline import Timeline
    from inspector.session.timeline_events import TimelineEvent
    from inspector.ui.screens.main import MainScreen


class LoginWatch:
    """The login screen's opener for one main screen."""

    def __init__(self, main: MainScreen) -> None:
        self.main = main
        self.opened = 0
        """How many times it brought the screen up by itself (tests read it)."""
        self._seen = 0
        self._unsubscribe: Callable[[], None] | None = None

    @property
    def login(self) -> ScreenLogin | None:
        """The TUI's login, when the composition root gave one."""
        settings = getattr(self.main.app, "settings", None)
        login = settings.login if isinstance(settings, AppSettings) else None
        return login if isinstance(login, ScreenLogin) else None

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
            self.main.app.call_later(self.show)  # (not from inside the timeline's own write)

    def _asked(self) -> None:
        self.show()

    def show(self) -> None:
        """The login screen over the main screen, unless it is already up (or the main screen has gone)."""
        app = self.main.app
        if not self.main.is_attached or any(isinstance(screen, AuthScreen) for screen in app.screen_stack):
            return
        target = self.main.target
        server = target.spec if target.source == "replay" else target.display_name  # (the recorded server)
        app.push_screen(AuthScreen(self.main.timeline, self.login, server, hold=hold_keys(app)))
