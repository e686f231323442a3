"""The Lab screen's questions: instance B (a second process of the same command, another command, or a URL), the
checks to run, and the calls to make. It reads them back as a ``LabAsk`` and posts ``RunRequested``; it never
starts anything itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, Label, SelectionList, Static
from textual.widgets.selection_list import Selection

from inspector.ui.lab.offered_calls import describe
from inspector.ui.lab_port import CHECK_NAMES, CHECK_TITLES, LabAsk, LabChoice
from inspector.ui.safe_text import one_line

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.app import ComposeResult

    from inspector.targets.target import Target


class LabForm(Vertical):
    """Instance A (shown), instance B, the checks and the calls."""

    DEFAULT_CSS = """
    LabForm { width: 56; height: 1fr; border: round $panel; padding: 0 1; }
    LabForm:focus-within { border: round $primary; }
    LabForm > Label { color: $primary; text-style: bold; margin-top: 1; }
    LabForm > Label.-first { margin-top: 0; }
    LabForm > .lab-note { color: $foreground-muted; }
    LabForm > Input { margin: 0; }
    LabForm > Checkbox { border: none; padding: 0; height: 1; background: $surface; }
    LabForm > SelectionList { height: 1fr; min-height: 5; border: none; padding: 0; }
    LabForm > Button { width: 100%; margin-top: 1; }
    """

    class RunRequested(Message):
        """The person asked to run the lab (the button, or enter in the B field)."""

    def __init__(self, target: Target, second: str, choices: list[tuple[LabChoice, bool]], *, id: str) -> None:
        super().__init__(id=id)
        self.target = target
        self.second = second
        """What B is when the field is left empty, in words ("" when B must be given)."""
        self.choices = [choice for choice, _ in choices]
        self._ticked = [ticked for _, ticked in choices]

    def compose(self) -> ComposeResult:
        yield Label("Instance A", classes="-first")
        yield Static(Text(one_line(self.target.display_name, 200)), id="lab-a")
        yield Label("Instance B")
        placeholder = f"empty: {self.second}" if self.second else "a URL of a second instance (or a command)"
        yield Input(placeholder=placeholder, id="lab-b")
        yield Label("Checks")
        for name in CHECK_NAMES:
            yield Checkbox(CHECK_TITLES[name], value=True, id=f"lab-check-{name}")
        yield Label(f"Calls ({len(self.choices)})")
        options = [
            Selection(Text(describe(choice, 44)), index, ticked)
            for index, (choice, ticked) in enumerate(zip(self.choices, self._ticked, strict=True))
        ]
        yield SelectionList[int](*options, id="lab-calls")
        if not self.choices:
            yield Static("no call to offer: make a call from the catalog first", classes="lab-note")
        yield Static("space ticks · #N: this session's call #N", classes="lab-note")
        yield Button("Run the lab  ctrl+r", variant="primary", id="lab-run", compact=True)

    @property
    def checks(self) -> tuple[str, ...]:
        """The checks ticked, in the lab's order."""
        return tuple(name for name in CHECK_NAMES if self.query_one(f"#lab-check-{name}", Checkbox).value)

    @property
    def calls(self) -> tuple[LabChoice, ...]:
        """The calls ticked, in the order offered."""
        ticked = set(self.query_one("#lab-calls", SelectionList).selected)
        return tuple(choice for index, choice in enumerate(self.choices) if index in ticked)

    def tick(self, wanted: Callable[[LabChoice], bool]) -> None:
        """Tick exactly the calls ``wanted`` says yes to."""
        calls = self.query_one("#lab-calls", SelectionList)
        calls.deselect_all()
        for index, choice in enumerate(self.choices):
            if wanted(choice):
                calls.select(index)

    def ask(self) -> LabAsk:
        """What the form says now."""
        return LabAsk(self.target, self.query_one("#lab-b", Input).value, self.checks, self.calls)

    def running(self, now: bool) -> None:
        """Grey out the run button while a run goes on."""
        self.query_one("#lab-run", Button).disabled = now

    @on(Button.Pressed, "#lab-run")
    @on(Input.Submitted, "#lab-b")
    def _run(self, event: Button.Pressed | Input.Submitted) -> None:
        event.stop()
        self.post_message(self.RunRequested())
