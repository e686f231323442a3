"""The requestState panel: the opaque state shown verbatim and read-only, with its length, sha256 and echo check.

Never an input widget: a static, selectable, scrollable text with a lock mark. The "looks like" line only names
what the value resembles; nothing here decodes it into something editable.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import TYPE_CHECKING, Final

from rich.cells import cell_len
from rich.text import Text
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from inspector.ui.safe_text import clean

if TYPE_CHECKING:
    from textual.app import ComposeResult

    from inspector.timeline.model import RequestState

TITLE: Final = "requestState 🔒 read-only"
SHORT_TITLE: Final = "requestState 🔒"
"""The title where the whole one would be cut (``requestState 🔒 read-…`` at 100x30): the lock says read-only."""
JWT: Final = re.compile(r"^[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*$")
BASE64: Final = re.compile(r"^[A-Za-z0-9+/]+={0,2}$|^[A-Za-z0-9_-]+={0,2}$")


def looks_like(value: str) -> str:
    """What an opaque value resembles: "JWT", "JSON", "base64 (of JSON)", "base64", or "opaque"."""
    text = value.strip()
    if JWT.match(text) and text.count(".") == 2:
        return "JWT (three base64url parts)"
    if text[:1] in "{[":
        try:
            json.loads(text)
        except ValueError:
            pass
        else:
            return "JSON"
    if len(text) >= 8 and BASE64.match(text):
        try:
            decoded = base64.b64decode(
                text + "=" * (-len(text) % 4), altchars=b"-_" if ("-" in text or "_" in text) else None, validate=True
            )
        except (binascii.Error, ValueError):
            return "opaque"
        try:
            json.loads(decoded.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            return "base64"
        return "base64 (of JSON)"
    return "opaque"


def echo_line(state: RequestState) -> tuple[str, str]:
    """(text, style class) saying whether the retry echoed the state."""
    if state.echoed is True:
        return "✓ echoed unchanged by the retry", "-ok"
    if state.echoed is False:
        return "✗ NOT echoed unchanged by the retry", "-bad"
    return "not echoed yet (no retry sent)", "-dim"


class RequestStatePanel(Widget):
    """Shows ``state`` (None: a note that the selected round carried none)."""

    DEFAULT_CSS = """
    RequestStatePanel { height: 1fr; border: round $panel; border-title-color: $request-state; background: $surface; }
    RequestStatePanel:focus-within { border: round $request-state; }
    RequestStatePanel #state-value { color: $request-state; background: $panel 40%; padding: 0 1; width: 1fr; }
    RequestStatePanel .state-meta { color: $text-muted; padding: 0 1; }
    RequestStatePanel .-ok { color: $success; }
    RequestStatePanel .-bad { color: $error; text-style: bold; }
    RequestStatePanel .-dim { color: $text-muted; }
    RequestStatePanel VerticalScroll { height: 1fr; }
    """

    state: reactive[RequestState | None] = reactive(None, always_update=True)
    """The state shown; set by the screen from the highlighted round."""
    where: reactive[str] = reactive("")
    """Which round it belongs to (``#3 round 1``)."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(can_focus=True):
            yield Static(id="state-value", markup=False)
        yield Static(id="state-size", classes="state-meta", markup=False)
        yield Static(id="state-looks", classes="state-meta", markup=False)
        yield Static(id="state-echo", classes="state-meta", markup=False)

    def on_mount(self) -> None:
        self.border_title = TITLE
        self._show()

    def on_resize(self) -> None:
        # (the border's corners, its rule either side of the title and a space each side take 6 cells)
        self.border_title = TITLE if self.outer_size.width >= cell_len(TITLE) + 6 else SHORT_TITLE

    def watch_state(self) -> None:
        if self.is_mounted:
            self._show()

    def watch_where(self) -> None:
        if self.is_mounted:
            self._show()

    def _show(self) -> None:
        value = self.query_one("#state-value", Static)
        size = self.query_one("#state-size", Static)
        looks = self.query_one("#state-looks", Static)
        echo = self.query_one("#state-echo", Static)
        state = self.state
        if state is None:
            value.update(Text("no requestState on the selected round", style="italic"))
            for widget in (size, looks, echo):
                widget.update("")
            size.tooltip = None
            return
        value.update(Text(clean(state.value)))
        size.update(f"{self.where} · {state.length:,} chars · sha256 {state.sha256[:16]}…")
        size.tooltip = f"sha256 {state.sha256}"
        looks.update(f"looks like: {looks_like(state.value)}")
        text, style = echo_line(state)
        echo.update(text)
        echo.set_classes(f"state-meta {style}")
