"""Roots: the server asks which directories it may use (``roots/list``); the user edits the list and sends it.

Each row is a ``file://`` URI (a local path is accepted and turned into one) and an optional name; rows can be
added, edited and removed. Anything but ``file://`` is refused under its row before anything is sent. A checkbox
"don't ask again" makes later ``roots/list`` requests use this list without a dialog.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, Label, Static

from inspector.answers.roots import parse_root
from inspector.protocol.methods import ROOTS
from inspector.ui.keys import Key, bindings
from inspector.ui.modals.answer_dialog import AnswerModal, AskedFor
from inspector.ui.safe_text import safe

if TYPE_CHECKING:
    from collections.abc import Sequence

    from textual.app import ComposeResult

    from inspector.answers.roots import Root


@dataclass(frozen=True, slots=True)
class RootsReply:
    """What the roots dialog returns: the roots to send (and keep), and whether to stop asking."""

    roots: list[Root]
    dont_ask: bool
    """Answer later ``roots/list`` requests with this list, without a dialog."""


class RootRow(Horizontal):
    """One editable root: URI (or path), name, remove button, and its error line below."""

    DEFAULT_CSS = """
    RootRow { height: auto; }
    RootRow > Vertical { height: auto; width: 1fr; }
    RootRow .root-inputs { height: 1; }
    RootRow Input { background: $panel; }
    RootRow .root-uri { width: 3fr; }
    RootRow .root-name { width: 1fr; margin-left: 1; }
    RootRow .root-remove { width: 5; min-width: 5; margin-left: 1; }
    RootRow .root-error { color: $error; height: auto; display: none; }
    RootRow .root-error.-shown { display: block; }
    """

    def __init__(self, uri: str = "", name: str = "") -> None:
        super().__init__(classes="root-row")
        self.uri = uri
        self.root_name = name

    def compose(self) -> ComposeResult:
        with Vertical():
            with Horizontal(classes="root-inputs"):
                yield Input(
                    self.uri, placeholder="file:///path/to/project  or  ./path", classes="root-uri", compact=True
                )
                yield Input(self.root_name, placeholder="name (optional)", classes="root-name", compact=True)
            yield Static("", classes="root-error")
        yield Button("✕", classes="root-remove", compact=True, tooltip="Remove this root")

    def read(self) -> Root | None:
        """The root this row shows (None when the row is empty); ``ValueError`` for anything but file://."""
        uri = self.query_one(".root-uri", Input).value.strip()
        name = self.query_one(".root-name", Input).value.strip()
        if not uri:
            return None
        root = parse_root(uri)
        if root["uri"] != uri:  # a path, turned into its file:// URI: show what is sent
            self.query_one(".root-uri", Input).value = root["uri"]
        if name:
            root["name"] = name
        else:
            root.pop("name", None)
        return root

    def show_error(self, message: str) -> None:
        """Show (or clear) the row's error."""
        error = self.query_one(".root-error", Static)
        error.update(safe(message))
        error.set_class(bool(message), "-shown")


class RootsModal(AnswerModal[RootsReply | None]):
    """Answer a ``roots/list`` request; dismissed with a ``RootsReply``, or ``None`` to cancel the call."""

    KIND = "The server asks for your roots (roots/list)"

    DEFAULT_CSS = """
    RootsModal #roots-list { height: auto; max-height: 50vh; }
    RootsModal .roots-header { height: 1; padding-right: 6; }
    RootsModal .roots-header > Label { text-style: bold; }
    RootsModal .roots-header > .root-uri { width: 3fr; }
    RootsModal .roots-header > .root-name { width: 1fr; margin-left: 1; }
    RootsModal #add { margin: 1 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "roots",
        Key("ctrl+enter,ctrl+j", "send", "send roots", "Send this list of roots"),
        Key("ctrl+n", "add", "add root", "Add a row for another root"),
    )

    def __init__(self, roots: Sequence[Root], asked: AskedFor) -> None:
        super().__init__(ROOTS, asked)
        self.initial = list(roots)

    def compose_dialog(self) -> ComposeResult:
        yield Static(
            "The server may only use the directories you list. Each is a file:// URI; a local path becomes one.",
            classes="answer-message",
        )
        with Horizontal(classes="roots-header"):
            yield Label("URI (file://) or local path", classes="root-uri")
            yield Label("name", classes="root-name")
        with VerticalScroll(id="roots-list"):
            for root in self.initial or [{"uri": ""}]:
                yield RootRow(root["uri"], root.get("name", ""))
        yield Button("+ add root", id="add", compact=True, tooltip="Add a row (ctrl+n)")
        yield Checkbox("Don't ask again: answer roots/list with this list from now on", id="dont-ask", compact=True)

    def compose_buttons(self) -> ComposeResult:
        yield Button("Send roots", variant="primary", id="send", compact=True, tooltip="Send this list (ctrl+enter)")
        yield Button("Stop the call", variant="warning", id="cancel-call", compact=True, tooltip="(escape)")

    def collect(self) -> list[Root] | None:
        """The roots the rows show, or None (errors shown under their rows) when one is not file://."""
        roots: list[Root] = []
        valid = True
        for row in self.query(RootRow):
            try:
                root = row.read()
            except ValueError as error:
                row.show_error(str(error))
                valid = False
                continue
            row.show_error("")
            if root is not None:
                roots.append(root)
        return roots if valid else None

    def action_send(self) -> None:
        """Send the list if every row is a file:// root."""
        roots = self.collect()
        if roots is not None:
            self.dismiss(RootsReply(roots, self.query_one("#dont-ask", Checkbox).value))

    async def action_add(self) -> None:
        """Add an empty row and put the cursor in it."""
        row = RootRow()
        await self.query_one("#roots-list").mount(row)
        row.query_one(".root-uri", Input).focus()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        # (the other buttons run the action their id names: ``AnswerModal.on_button_pressed``)
        if event.button.has_class("root-remove") and isinstance(event.button.parent, RootRow):
            event.stop()
            await event.button.parent.remove()
