"""The login screen: a session's OAuth logins step by step as they happen, and the person's part of the one that
waits.

Each step is listed as the timeline gets it (``AuthSteps``: the request's method and URL, the response's status,
what was decided and why, what to try when it failed; tokens were redacted before any step reached the timeline).
While a login waits for the person (``ScreenLogin``), the screen shows the authorization URL with its real domain
highlighted, never fetched; the browser has opened on it, or ``c`` copies it; ``p`` takes the address the browser
ended on when its redirect cannot reach this machine; ``x`` stops the login. Escape goes back to the timeline: the
login goes on, and ``a`` brings this screen back.

When the login's addresses were warned about (``protocol.login_urls``), the screen first shows the address and
every warning, and asks: ``y`` goes on (the browser opens, the token request leaves), ``n`` (or ``x``) refuses, and
the login stops with nothing opened or sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual import on
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input, Static

from inspector.protocol.sanitize import has_hidden
from inspector.timeline.model import SessionChanged
from inspector.timeline.wording import title
from inspector.ui.bridge import TimelineBridge, TimelineChanged
from inspector.ui.keys import Key, bindings, typing
from inspector.ui.modals.url_check import analyse, url_text
from inspector.ui.safe_text import clean, one_line
from inspector.ui.widgets.key_footer import KeyFooter
from inspector.ui.widgets.login_rows import AuthSteps
from inspector.ui.widgets.title_bar import TitleBar

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.app import ComposeResult

    from inspector.timeline.model import Timeline
    from inspector.ui.key_hold import Hold
    from inspector.ui.login.tui_login import LoginNow, ScreenLogin

WAITING_NOTES = {
    "idle": "no login waits for you now",
    "confirm": "⚠ look at this login's addresses before anything is opened or sent: y goes on, n refuses",
    "opening": "… opening your browser on the address below",
    "opened": "… opened in your browser: log in and consent there; each step shows below as it happens",
    "no-browser": "no browser here: copy the address (c), open it in a browser anywhere, then paste where it ended (p)",
    "hidden": "⚠ the address holds hidden characters: it is neither opened nor copied (x stops the login)",
    "landed": "✓ the browser came back: the login goes on below",
    "pasted": "✓ the address you pasted was taken: the login goes on below",
    "stopped": "the login was stopped: its request fails, saying so",
    "failed": "✗ the login ended",
}


class AuthScreen(Screen[None]):
    """A session's logins (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "auth",
        Key("c", "copy", "copy URL", "Copy the authorization URL (never one with hidden characters)"),
        Key("o", "open", "open in browser", "Open the authorization URL in your browser again"),
        Key("p", "paste", "paste redirect", "Paste the address the browser ended on (when it cannot come back here)"),
        Key("x", "stop", "stop login", "Give up the login that waits: its request fails, saying so"),
        Key("y", "answer(True)", "go on", "Accept the warnings about the login's addresses: the login goes on"),
        Key("n", "answer(False)", "refuse", "Refuse the login's addresses: nothing is opened or sent, it stops"),
        Key("escape", "back", "back", "Back to the timeline (the login goes on; a brings this screen back)"),
    )

    DEFAULT_CSS = """
    AuthScreen { background: $background; }
    AuthScreen #auth-status { height: auto; padding: 0 1; margin: 1 0 0 0; }
    AuthScreen #auth-url-box { height: auto; max-height: 8; border: round $accent; padding: 0 1; }
    AuthScreen #auth-url-box.-unsafe { border: round $warning; }
    AuthScreen #auth-paste { margin: 0 0; }
    AuthScreen #auth-paste-note { height: auto; padding: 0 1; color: $warning; }
    AuthScreen #auth-steps-box { height: 1fr; border: round $panel; padding: 0 1; }
    AuthScreen #auth-steps-box:focus { border: round $primary; }
    """

    class LoginChanged(Message):
        """The person's part of the login moved on (the browser opened, the redirect came, it stopped)."""

    def __init__(self, timeline: Timeline, login: ScreenLogin | None, server: str, *, hold: Hold | None = None) -> None:
        super().__init__()
        self.timeline = timeline
        self.login = login
        self.server = server
        self._hold = hold
        self._bridge: TimelineBridge | None = None
        self._unsubscribe: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar(Text(one_line(f"Login · {self.server}", 200)), id="auth-title")
        yield Static("", id="auth-status")
        with VerticalScroll(id="auth-url-box", can_focus=False):
            yield Static("", id="auth-url")
        yield Input(
            placeholder="paste where the browser ended, then enter (it holds the code: masked)",  # (fits 80 columns)
            password=True,
            id="auth-paste",
        )
        yield Static("", id="auth-paste-note")
        with VerticalScroll(id="auth-steps-box"):
            yield AuthSteps(id="auth-steps")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#auth-url-box").border_title = "Open this address in a browser · it is never fetched here"
        self.query_one("#auth-steps-box").border_title = "Each step, as it happens"
        self._bridge = TimelineBridge(self.timeline, self)
        if self.login is not None:
            self._unsubscribe = self.login.subscribe(self._login_changed)
        self._refresh_all()
        self.set_focus(self.query_one("#auth-steps-box"), scroll_visible=False)
        if self._hold is not None:
            self._hold.release()
            self._hold = None

    def on_unmount(self) -> None:
        if self._bridge is not None:
            self._bridge.close()
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._hold is not None:
            self._hold.release()

    # ------------------------------------------------------------------------------------------------ drawing
    @property
    def now(self) -> LoginNow | None:
        """The person's part of the current (or last) login, when the TUI can log in."""
        return self.login.now if self.login is not None else None

    @on(TimelineChanged)
    def _timeline_changed(self, message: TimelineChanged) -> None:
        message.stop()
        steps = self.query_one(AuthSteps)
        if steps.count != len(self.timeline.auth) or isinstance(message.event, SessionChanged):
            self._refresh_all()

    def _login_changed(self, now: LoginNow) -> None:
        self.post_message(self.LoginChanged())

    def on_auth_screen_login_changed(self) -> None:
        self._refresh_all()

    def _refresh_all(self) -> None:
        steps = self.query_one(AuthSteps)
        grew = steps.count != len(self.timeline.auth)
        steps.show(self.timeline)
        if grew:
            self.query_one("#auth-steps-box", VerticalScroll).scroll_end(animate=False)
        self._show_person()
        self.refresh_bindings()

    def _show_person(self) -> None:
        now = self.now
        prompt = now.prompt if now is not None else None
        box = self.query_one("#auth-url-box")
        paste = self.query_one("#auth-paste", Input)
        waiting = self.login is not None and self.login.waiting
        check = now.check if now is not None and self.login is not None and self.login.confirming else None
        paste.display = waiting
        box.display = (prompt is not None and waiting) or check is not None
        self.query_one("#auth-status", Static).update(self._status(now))
        if check is not None:  # the address asked about, and every warning, until the person answers
            box.set_class(True, "-unsafe")
            self.query_one("#auth-url", Static).update(self._url_text(check.url, tuple(r.message for r in check.risks)))
            return
        if prompt is None:
            return
        unsafe = has_hidden(prompt.url) or bool(analyse(prompt.url).warnings) or bool(prompt.warnings)
        box.set_class(unsafe, "-unsafe")
        self.query_one("#auth-url", Static).update(self._url_text(prompt.url, prompt.warnings))

    def _status(self, now: LoginNow | None) -> Text:
        """Where the login stands: the last step when it ended, else the person's part."""
        palette = self.query_one(AuthSteps).palette
        last = self.timeline.auth[-1] if self.timeline.auth else None
        asking = self.login is not None and (self.login.waiting or self.login.confirming)
        if last is not None and not asking:
            if last.step == "retry" and last.outcome == "ok":
                return Text("✓ logged in: the request was sent again with the new token · escape: back", palette["ok"])
            if last.outcome in ("refused", "failed"):
                text = Text(f"✗ {title(last.step)}: ", palette["failed"])
                text.append(clean(last.what, keep_newlines=False))
                if last.hint:
                    text.append("\ntry: ", palette["label"])
                    text.append(clean(last.hint, keep_newlines=False))
                return text
        if now is None:
            return Text("logins are listed here as they happen (this session cannot ask you to log in)", palette["dim"])
        text = Text(WAITING_NOTES[now.state], palette["waiting" if self.login and self.login.waiting else "info"])
        if now.state in ("failed", "stopped") and now.note:
            text.append(f": {clean(now.note, keep_newlines=False)}")
        prompt = now.prompt
        if prompt is not None and self.login is not None and self.login.waiting:
            at = f" at {prompt.issuer}" if prompt.issuer else ""
            scope = f", scope {prompt.scope!r}" if prompt.scope else ""
            said = f"log in{at}{scope}; waiting for the browser to come back to {prompt.redirect_uri}"
            text.append("\n")
            text.append(one_line(said, 240), palette["dim"])
        return text

    def _url_text(self, url: str, warnings: tuple[str, ...]) -> Text:
        """The full URL, literally (hidden characters as their stand-ins), its real domain bold and underlined; then
        the login's own warnings about its addresses (``warnings``), and what else ``analyse`` sees in the URL."""
        view = analyse(url)
        palette = self.query_one(AuthSteps).palette
        text = url_text(view, palette["url"] + Style(underline=True), palette["dim"])
        shown = [f"⚠ {warning}" for warning in warnings]
        # (plain http and a user name are the login's own warnings above, judged against its origins: a loopback
        # authorization server is plain http, and is no warning)
        seen = ("not encrypted", "user name before '@'")
        shown += [warning for warning in view.warnings if not any(part in warning for part in seen)]
        for warning in ("⚠ the URL holds hidden characters" if has_hidden(url) else "", *shown):
            if warning:
                text.append("\n")
                text.append(clean(warning, keep_newlines=False), palette["refused"])
        return text

    # ------------------------------------------------------------------------------------------------ keys
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("copy", "open", "paste", "stop", "answer") and typing(self.app):
            return False  # the letter is typed in the paste field
        prompt = self.now.prompt if self.now is not None else None
        waiting = self.login is not None and self.login.waiting
        confirming = self.login is not None and self.login.confirming
        if action == "answer":
            return confirming
        if action == "stop" and confirming:
            return True
        if action == "copy":
            return prompt is not None and not has_hidden(prompt.url) and not confirming
        if action == "open":
            browser = self.login is not None and self.login.opener is not None
            return waiting and browser and prompt is not None and not has_hidden(prompt.url)
        if action in ("paste", "stop"):
            return waiting
        return True

    def action_copy(self) -> None:
        prompt = self.now.prompt if self.now is not None else None
        if prompt is not None and not has_hidden(prompt.url):
            self.app.copy_to_clipboard(prompt.url)
            self.notify("the authorization URL was copied to your clipboard", timeout=3)

    def action_open(self) -> None:
        if self.login is not None and self.login.open_again():
            self.notify("opening your browser again", timeout=3)

    def action_paste(self) -> None:
        self.query_one("#auth-paste", Input).focus()

    def action_stop(self) -> None:
        if self.login is not None and self.login.stop():
            self.notify("the login was stopped", timeout=3)

    def action_answer(self, accepted: bool) -> None:
        """The person's answer to the warnings about the login's addresses."""
        if self.login is not None and self.login.answer(accepted):
            self.notify("accepted: the login goes on" if accepted else "refused: the login stops", timeout=3)

    @on(Input.Submitted, "#auth-paste")
    def _pasted(self, event: Input.Submitted) -> None:
        event.stop()
        field = self.query_one("#auth-paste", Input)
        refused = self.login.paste(event.value) if self.login is not None else "no login waits"
        field.value = ""  # (the address holds the code: it does not stay in the field)
        self.query_one("#auth-paste-note", Static).update(Text(clean(refused or ""), style=""))
        if refused is None:
            self.query_one("#auth-steps-box").focus()

    def action_back(self) -> None:
        self.dismiss(None)
