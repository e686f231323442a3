"""``InspectorApp``: the Textual application. The composition root (``inspector.cli``) calls ``run_app``.

The app holds no protocol logic: given the composition root's ``AppSettings``, it picks the theme, builds the
interactive answers source, and opens the connect screen (no target) or the main screen on a target's
``LiveSession``, which asks the injected ``session_factory`` for a session, or (``run_replay``) the main screen on a
recording, read-only, with no session at all.

The first frame is the main screen (or the connect screen), painted before the server has answered (issue 33): the
screens and dialogs shown later (help, connect, lab, the composer, export, login) are imported when first shown, not
with this module, so the process gets to that frame sooner (``tests/perf/bench_startup.py`` times it).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlparse

from textual import events
from textual.app import App, SystemCommand
from textual.binding import BindingType
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, TextArea

from inspector.answers.roots import Root, root_from_path
from inspector.targets import known as known_targets
from inspector.ui.app_settings import AppSettings
from inspector.ui.interactive_answers import InteractiveAnswers, questions_left
from inspector.ui.key_hold import KeyHold, Settling
from inspector.ui.keys import Key, bindings, gather_keys, typing, wants_tab
from inspector.ui.main.live_session import LiveSession
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.modals.dialog import open_dialog
from inspector.ui.themes import DEFAULT_THEME, default_variables, load_themes, shipped_themes_dir

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from inspector.answers.source import AnswerSource
    from inspector.replay.loader import Loaded
    from inspector.targets.target import Target
    from inspector.timeline.model import Timeline
    from inspector.ui.lab.lab_screen import LabScreen
    from inspector.ui.recorded import Recording
    from inspector.ui.session_port import SessionFactory, SessionPort


class InspectorApp(App[None]):
    """The inspector TUI."""

    CSS_PATH = "app.tcss"
    TITLE = "inspector"
    ENABLE_COMMAND_PALETTE = True

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "app",
        Key("question_mark", "help", "help", "List every key of this screen", display="?", priority=True),
        Key("tab", "move_focus(1)", "next field", "Move to the next field or pane", show=False, priority=True),
        Key("shift+tab", "move_focus(-1)", "previous field", "Back to the previous field", show=False, priority=True),
        Key("t", "next_theme", "theme", "Switch to the next theme"),
        Key("ctrl+p", "command_palette", "commands", "Open the command palette", show=False, priority=True),
        Key("q", "quit", "quit", "Close the session and quit"),
    )

    def __init__(
        self,
        session_factory: SessionFactory | None,
        target: Target | None,
        settings: AppSettings | None = None,
        *,
        answers: AnswerSource | None = None,
        session: SessionPort | None = None,
        replay: Recording | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings if settings is not None else AppSettings()
        self.session_factory = session_factory
        self.target = target
        self.preset_session = session
        self.replay = replay
        """A recording to show read-only instead of connecting (``target`` is then ignored)."""
        self.config_dir = self.settings.config_dir or known_targets.config_dir()
        roots = self.settings.roots
        self.roots: list[Root] = [root_from_path(path) for path in (roots if roots is not None else [Path.cwd()])]
        """The roots offered for roots/list (the roots modal may edit them)."""
        self.answers: AnswerSource | None = answers
        """The one source every session answers with, when one was given (tests, the screenshots); None: each session
        gets the person's own, knowing its server and its timeline (``answers_for``)."""
        self._live: list[LiveSession] = []
        """The live sessions this app opened: quitting closes them."""
        self.theme_problems: list[str] = []
        """Theme files that were skipped (reported once, at mount)."""
        self.theme_names: list[str] = self._register_themes()
        """Names of the inspector themes, in the order ``t`` cycles through them."""
        wanted = self.settings.theme or DEFAULT_THEME
        if wanted not in self.available_themes:
            self.theme_problems.append(f"unknown theme {wanted!r}; using {DEFAULT_THEME}")
            wanted = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
        self.theme = wanted
        self.key_hold = KeyHold(self._hand_on_held_keys)
        """Keeps the keys typed while a dialog opens, for the dialog (``inspector.ui.key_hold``)."""
        self.settling = Settling(self.key_hold, self.call_later)
        """Holds the keys after a key, or a push, until the focus it moves has arrived."""

    class HeldKeysReleased(Message):
        """Every dialog the keys were held for has the focus: hand the kept keys on."""

    # ------------------------------------------------------------------------------------------------ setup
    def answers_for(self, target: Target | None, timeline: Callable[[], Timeline | None]) -> AnswerSource:
        """What one session answers with: the source the app was given, else the person's (``interactive_answers``)."""
        return self.answers if self.answers is not None else self.interactive_answers(target, timeline)

    def interactive_answers(
        self, target: Target | None = None, timeline: Callable[[], Timeline | None] = lambda: None
    ) -> InteractiveAnswers:
        """The answers a person gives in this app's dialogs, for a session on ``target`` whose timeline is
        ``timeline()``: URL-mode elicitation warns about a domain unlike the target's, and a dialog says how many
        questions of its round are left."""
        host = urlparse(target.url).hostname if target is not None and target.url else None
        # The roots callable returns the app's own list, so what the roots modal edits is what later calls use.
        return InteractiveAnswers(
            self,
            lambda: self.roots,
            lambda: self.settings.stub_sampling,
            server_host=host,
            questions_left=lambda: questions_left(timeline()),
        )

    def _register_themes(self) -> list[str]:
        loaded = load_themes(shipped_themes_dir(), self.config_dir / "themes")
        self.theme_problems.extend(loaded.problems)
        for theme in loaded.themes.values():
            self.register_theme(theme)
        return list(loaded.themes)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Inspector variables for themes that do not set them (Textual's built-in themes)."""
        return default_variables()

    def on_mount(self) -> None:
        for problem in self.theme_problems:
            self.notify(problem, title="theme", severity="warning", timeout=8)
        if self.replay is not None:
            self.push_screen(self._recorded(self.replay))
        elif self.target is not None:
            # Escape on it opens the connect screen, as after a server chosen there ("escape to choose another
            # server", the failure panel says): the server named on the command line is one of the recent ones.
            self.push_screen(self._main(self.target), lambda _: self._choose_target())
        else:
            self._choose_target()

    def _main(self, target: Target) -> MainScreen:
        live: LiveSession | None = None
        answers = self.answers_for(target, lambda: live.session.timeline if live and live.session else None)
        live = LiveSession(target, self.session_factory, answers, self.preset_session, config_dir=self.config_dir)
        self._live.append(live)
        settings = self.settings
        recording = settings.record_path_text
        return MainScreen(
            live, answers, recording=recording, can_go_back=True, login=settings.login, lab=settings.lab_factory
        )

    def _recorded(self, recording: Recording, *, can_go_back: bool = False) -> MainScreen:
        answers = self.answers_for(recording.target(), lambda: None)
        return MainScreen(recording, answers, can_go_back=can_go_back, login=self.settings.login)

    async def on_lab_screen_open_recording(self, message: LabScreen.OpenRecording) -> None:
        """A lab run's recording, read-only over the Lab screen, at the call the person was on."""
        screen = self._recorded(message.recording, can_go_back=True)
        await self.push_screen(screen)
        if message.call is not None:
            screen.timeline_view.select_call(message.call, 1)

    def _choose_target(self) -> None:
        from inspector.ui.screens.connect import ConnectScreen  # (when first shown: see the module docstring)

        def chosen(target: Target | None) -> None:
            if target is not None:
                self.push_screen(self._main(target), lambda _: self._choose_target())

        self.push_screen(ConnectScreen(self.config_dir, home=self.settings.home, cwd=self.settings.cwd), chosen)

    # ------------------------------------------------------------------------------------------------ keys
    def _hand_on_held_keys(self) -> None:
        self.post_message(self.HeldKeysReleased())

    async def on_event(self, event: events.Event) -> None:
        # A key the terminal sends (not one bubbling back up from a widget) waits while the focus is on its way.
        if isinstance(event, events.Key) and not event.is_forwarded:
            if not self.key_hold.take(event):
                await self._read_key(event)
            return
        await super().on_event(event)
        if isinstance(event, events.Key):
            self.settling.returned(event)  # (back from the focused widget: its bindings have run)

    async def on_inspector_app_held_keys_released(self, message: HeldKeysReleased) -> None:
        while (key := self.key_hold.next_key()) is not None:
            await self._read_key(key)

    async def _read_key(self, key: events.Key) -> None:
        """Hand ``key`` on as Textual does, then hold the next keys until what it set off has run
        (``inspector.ui.key_hold``): a priority action (the key was not forwarded) may move the focus a turn
        later; a key given to a dialog's field may close the dialog or move to the next field (every key in a
        dialog, so that none is typed in a field being closed); anywhere, any key but a character typed in a text
        box (enter, escape, ctrl+u, backspace, an arrow there; ``l`` or ``k`` on a list) is a binding, run only
        once the key has come back up to the app, so the keys typed after it wait for it: they overtook it ("/",
        ctrl+u, "slow" left the search box empty, ctrl+u clearing what was typed after it; a backspace deleted the
        letter typed after it; the space after ``l`` went to the list, not to the panel ``l`` opened). A character
        typed in a text box needs no wait: the box takes the keys in the order they come."""
        focused, screen = self.focused, self.screen
        await super().on_event(key)
        typed = key.is_printable and isinstance(focused, Input | TextArea)
        if not key.is_forwarded:
            self.settling.after_action()
        elif isinstance(screen, ModalScreen) or not typed:
            self.settling.after_forward(focused or screen, key)  # (where Textual sent it)

    def push_screen(self, screen: Any, *args: Any, **options: Any) -> Any:
        """Push ``screen``; the keys typed until its first focus is set wait for it (none goes to a screen with
        nothing focused, or to the screen behind)."""
        pushed = super().push_screen(screen, *args, **options)
        if isinstance(screen, Screen):
            self.settling.after_push(screen)
        return pushed

    # ------------------------------------------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "help":
            return not typing(self)  # "?" types in a text field
        if action == "move_focus":
            return not wants_tab(self.focused)
        return True

    def action_move_focus(self, step: int) -> None:
        """Tab and shift+tab, at once (see ``inspector.ui.keys``: the next keys go to the field it moved to)."""
        if step > 0:
            self.screen.focus_next()
        else:
            self.screen.focus_previous()

    def action_help(self) -> None:
        from inspector.ui.screens.help import HelpScreen  # (when first shown: see the module docstring)

        if not isinstance(self.screen, HelpScreen):
            recording = self.screen.recording if isinstance(self.screen, MainScreen) else None
            open_dialog(self, HelpScreen(gather_keys(self.screen, unavailable=True), recording))

    def action_next_theme(self) -> None:
        names = self.theme_names or [self.theme]
        position = names.index(self.theme) if self.theme in names else -1
        self.theme = names[(position + 1) % len(names)]
        self.notify(f"theme: {self.theme}", timeout=2)

    async def action_quit(self) -> None:
        for live in self._live:
            await live.close()
        self.exit()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette offers every key of the screen (the same list as the help screen)."""
        for key in gather_keys(screen):
            if key.action in ("command_palette",):
                continue
            node = key.node

            def run(action: str = key.action, target: Any = node) -> None:
                self.call_later(self.run_action, action, target)

            yield SystemCommand(f"{key.description} ({key.key})", key.tooltip, run)


def run_app(session_factory: SessionFactory | None, target: Target | None, settings: AppSettings) -> int:
    """Run the TUI until the user quits; returns the process exit code. The recording's path is said again once the
    screen is gone (the header said it all along), so it is in the terminal to copy."""
    app = InspectorApp(session_factory, target, settings)
    app.run()
    if settings.record_path_text:
        sys.stdout.write(f"recording: {settings.record_path_text}\n")
    return app.return_code or 0


def run_replay(loaded: Loaded, *, step: bool = False, theme: str | None = None) -> int:
    """Show a loaded recording in the TUI, read-only (``step``: message by message); returns the exit code."""
    from inspector.ui.recorded import Recording

    app = InspectorApp(None, None, AppSettings(theme=theme), replay=Recording.from_loaded(loaded, step=step))
    app.run()
    return app.return_code or 0
