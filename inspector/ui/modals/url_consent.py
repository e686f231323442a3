"""Elicitation, URL mode: show the full URL with its domain highlighted, warn, and open it only on consent.

Nothing is fetched. The user consents ("Open"), the URL opens in their browser (or is copied to the clipboard when
there is no browser, and the dialog says so), and the dialog waits: when the user is done in the browser, "Done,
retry" answers ``{"action": "accept"}`` and the call is retried. Decline and Cancel answer
``{"action": "decline"}`` / ``{"action": "cancel"}``; Escape stops the whole call.

A URL that holds control or invisible characters (an escape sequence, a bell, a bidi override, a zero-width space:
``sanitize.has_hidden``) is shown through the sanitizer, with its stand-ins, and is never opened or copied: pasted
into a shell, it would carry them along (the session raises the ``unsafe-url`` finding). The server's message and
the URL scroll in bounded boxes, so the warnings and the buttons stay on screen however long they are.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.errors import StyleSyntaxError
from rich.style import Style
from rich.text import Text
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import Button, Static

from inspector.answers.source import InputResponse
from inspector.protocol.methods import ELICITATION
from inspector.protocol.sanitize import has_hidden
from inspector.ui.keys import Key, bindings
from inspector.ui.modals.answer_dialog import AnswerModal, AskedFor
from inspector.ui.modals.url_check import UrlView, analyse, open_in_browser, url_text
from inspector.ui.safe_text import safe

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual.app import ComposeResult


Opener = Callable[[str], bool]
"""Opens a URL in the user's browser; returns False when there is none."""


class UrlConsentModal(AnswerModal[InputResponse | None]):
    """Ask consent to open an elicitation URL; dismissed with the ElicitResult, or ``None`` to cancel the call."""

    KIND = "The server asks you to open a web page"

    DEFAULT_CSS = """
    UrlConsentModal .url-box {
        height: auto; max-height: 25vh; border: round $warning; padding: 0 1; margin-bottom: 1;
    }
    UrlConsentModal .url-box.-safe { border: round $accent; }
    UrlConsentModal #url-status { height: auto; color: $success; margin-top: 1; display: none; }
    UrlConsentModal #url-status.-shown { display: block; }
    UrlConsentModal .answer-note { margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "url",
        Key("o", "open", "open", "Consent: open the URL in your browser (nothing is fetched here)"),
        Key("r", "done", "done, retry", 'Answer {"action": "accept"}: the call is retried'),
        Key("d", "decline", "decline", 'Answer {"action": "decline"}: the server hears that you said no'),
        Key("c", "cancel", "cancel (answer)", 'Answer {"action": "cancel"}: dismissed without a choice'),
    )

    def __init__(
        self,
        params: Mapping[str, Any],
        asked: AskedFor,
        *,
        server_host: str | None = None,
        opener: Opener = open_in_browser,
    ) -> None:
        super().__init__(ELICITATION, asked)
        self.params = params
        url = params.get("url")
        self.url = url if isinstance(url, str) else ""
        self.view: UrlView = analyse(self.url, server_host)
        self.hidden = has_hidden(self.url)
        """The URL holds control or invisible characters: it is shown with stand-ins, never opened or copied."""
        self.opener = opener
        self.opened: bool | None = None
        """None before consent; then True (opened in a browser) or False (copied to the clipboard)."""

    def compose_dialog(self) -> ComposeResult:
        yield self.message_widget(self.params.get("message"))
        box = VerticalScroll(Static(self.highlighted()), classes="url-box", can_focus=False)
        box.border_title = "URL (not fetched)"
        box.set_class(not self.view.warnings and not self.hidden, "-safe")
        yield box
        if self.hidden:
            yield Static(
                "⚠ The URL holds control or invisible characters (shown above as ␛, ␇, ⟨U+…⟩): it will not be "
                "opened or copied. Decline, or stop the call.",
                classes="answer-warning",
                markup=False,
            )
        for warning in self.view.warnings:
            yield Static(safe(f"⚠ {warning}"), classes="answer-warning")
        yield Static("", id="url-status")
        yield Static(
            "Open sends nothing to the server: the page opens in your browser. When you have finished there, "
            "choose Done, retry.",
            classes="answer-note",
        )

    def compose_buttons(self) -> ComposeResult:
        yield Button(
            "Open in browser",
            variant="primary",
            id="open",
            compact=True,
            tooltip="Consent and open (o)",
            disabled=self.hidden,
        )
        yield Button("Done, retry", variant="success", id="done", compact=True, disabled=True, tooltip="(r)")
        yield Button("Decline", id="decline", compact=True, tooltip='Answer {"action": "decline"} (d)')
        yield Button("Cancel", variant="warning", id="cancel", compact=True, tooltip='Answer {"action": "cancel"} (c)')

    def highlighted(self) -> Text:
        """The full URL, literally (a newline in it shown as ⏎, like any hidden character), with its real domain in
        bold (and its look-alike disguises dimmed)."""
        return url_text(self.view, self._host_style(), "dim")

    def _host_style(self) -> Style:
        """Bold and underlined, in the theme's warning colour when there is a warning, else its accent."""
        variables = self.app.get_css_variables() if self.is_attached else {}
        colour = variables.get("warning" if self.view.warnings else "accent", "")
        try:
            return Style.parse(f"bold underline {colour}".strip())
        except StyleSyntaxError:
            return Style(bold=True, underline=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open":
            return not self.hidden and self.opened is None
        if action == "done":
            return self.opened is not None
        return True

    async def action_open(self) -> None:
        """Consent: open the URL in a browser (or copy it when there is none); then wait for "Done, retry". A URL
        with hidden characters is neither."""
        if self.opened is not None or self.hidden:
            return
        opened = self.view.openable and await asyncio.to_thread(self.opener, self.url)
        if not opened:
            self.app.copy_to_clipboard(self.url)
        self.opened = opened
        status = self.query_one("#url-status", Static)
        status.add_class("-shown")
        if opened:
            status.update("Opened in your browser. When you are done there, choose Done, retry (r).")
        else:
            status.update(
                "No browser could be opened here: the URL was copied to your clipboard. Open it yourself, "
                "then choose Done, retry (r)."
            )
        self.query_one("#open", Button).disabled = True
        done = self.query_one("#done", Button)
        done.disabled = False
        done.focus()
        self.refresh_bindings()

    def action_done(self) -> None:
        """The user finished in the browser: answer ``{"action": "accept"}`` (consent only, no content)."""
        if self.opened is not None:
            self.dismiss({"action": "accept"})

    def action_decline(self) -> None:
        """Answer ``{"action": "decline"}``."""
        self.dismiss({"action": "decline"})

    def action_cancel(self) -> None:
        """Answer ``{"action": "cancel"}``."""
        self.dismiss({"action": "cancel"})
