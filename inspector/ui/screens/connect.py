"""The connect screen (no SPEC given): type a command or URL, or pick a recent target or a configured server.

The box has the focus when the screen opens, as its first line says ("type a command ... and press enter"): what
is typed goes there, and enter connects to it (enter on an empty box: the server highlighted below; tab or down
goes to the list). Client config files are read, never written. Choosing a target dismisses the screen with it;
the app then opens the main screen, which connects and shows any failure with the server's stderr.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.binding import BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from inspector.targets import known as known_targets
from inspector.targets.target import Target
from inspector.ui.keys import Key, bindings, typing
from inspector.ui.safe_text import one_line
from inspector.ui.widgets.key_footer import KeyFooter

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import ComposeResult


class SpecBox(Input):
    """The box where a command line or URL is typed; its footer says what enter does, and down goes to the list."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "connect-spec",
        Key("enter", "submit", "connect", "Connect to what is typed (empty: the server highlighted below)"),
        Key("down", "to_list", "servers", "Go to the list of recent and configured servers", display="↓"),
    )
    KEYS_WHERE: ClassVar[str] = "command or URL box"
    """What the help screen names as where these keys work."""

    def action_to_list(self) -> None:
        self.screen.set_focus(self.screen.query_one(OptionList))


class ConnectScreen(Screen[Target]):
    """Recent targets and configured servers; dismisses with the chosen ``Target``."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "connect",
        Key("slash", "type_spec", "type target", "Type a command line or an http(s):// URL", priority=True),
    )

    DEFAULT_CSS = """
    ConnectScreen { align: center top; }
    ConnectScreen #connect-box { width: 110; max-width: 100%; height: 1fr; padding: 1 2; }
    ConnectScreen #connect-title { text-style: bold; color: $primary; }
    ConnectScreen #connect-help, ConnectScreen #connect-problems { color: $text-muted; height: auto; }
    ConnectScreen #connect-problems { color: $warning; }
    ConnectScreen #connect-error { color: $error; height: auto; }
    ConnectScreen Input { margin: 1 0; }
    ConnectScreen OptionList { height: 1fr; border: round $panel; }
    ConnectScreen OptionList:focus { border: round $primary; }
    """

    def __init__(self, config_dir: Path, *, home: Path | None = None, cwd: Path | None = None) -> None:
        super().__init__()
        self.config_dir = config_dir
        self.home = home
        self.cwd = cwd
        self.targets: dict[str, Target] = {}
        """Offered targets by option id."""
        self.problems: list[str] = []
        """Config files that could not be read."""

    def compose(self) -> ComposeResult:
        with Vertical(id="connect-box"):
            yield Static("inspector — connect to an MCP server", id="connect-title", markup=False)
            yield Static(
                "Type a command (python -m inspector.demo) or a URL (http://127.0.0.1:8000/mcp) and press enter, "
                "or pick a server below (tab or ↓, then enter). Config files are only read.",
                id="connect-help",
                markup=False,
            )
            yield SpecBox(placeholder="command line or http(s):// URL", id="connect-spec")
            yield Static("", id="connect-error", markup=False)
            yield OptionList(id="connect-list")
            yield Static("", id="connect-problems", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        recent = known_targets.load_recent(self.config_dir)
        found = known_targets.discover(self.home, self.cwd)
        self.problems = found.problems
        # The names' column is as wide as the longest name (50 at most): at 80 columns a row still holds the name,
        # the kind and the command, where a 50-column name pushed the command onto a line of its own.
        width = max((len(one_line(target.display_name, 50)) for target in [*recent, *found.targets]), default=0)
        options: list[Option] = [Option(Text(f"Recent ({len(recent)})", style="bold"), id="head:recent", disabled=True)]
        options += [self._option(f"recent:{i}", target, width) for i, target in enumerate(recent)]
        options.append(
            Option(
                Text(f"From client config files ({len(found.targets)})", style="bold"), id="head:found", disabled=True
            )
        )
        options += [self._option(f"found:{i}", target, width) for i, target in enumerate(found.targets)]
        listing = self.query_one(OptionList)
        listing.add_options(options)
        self.query_one("#connect-problems", Static).update("\n".join(self.problems))
        if self.targets:
            listing.highlighted = listing.get_option_index(next(iter(self.targets)))
        # The box, whatever the list offers: the screen says to type, so the first keys typed go there (set now,
        # not a turn later, so that no key typed meanwhile reaches the list).
        self.set_focus(self.query_one(SpecBox), scroll_visible=False)

    def _option(self, option_id: str, target: Target, width: int) -> Option:
        self.targets[option_id] = target
        label = Text(f"  {one_line(target.display_name, 50):<{width}}  ", no_wrap=True, end="")
        label.append(f"{target.kind:<6} ", style="italic")
        label.append(one_line(target.spec, 120), style="dim")
        return Option(label, id=option_id)

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        target = self.targets.get(event.option.id or "")
        if target is not None:
            self.dismiss(target)

    @on(Input.Submitted, "#connect-spec")
    def _typed(self, event: Input.Submitted) -> None:
        if not event.value.strip():
            # Enter on an empty box means "the server highlighted below", not a mistake to scold
            listing = self.query_one(OptionList)
            index = listing.highlighted
            option = listing.get_option_at_index(index) if index is not None else None
            chosen = self.targets.get(option.id or "") if option is not None else None
            if chosen is not None:
                self.dismiss(chosen)
                return
        try:
            target = Target.from_spec(
                event.value,
            )
        except ValueError as exc:
            self.query_one("#connect-error", Static).update(str(exc))
            return
        self.dismiss(target)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "type_spec":
            return not typing(self.app)  # a "/" typed in the box is part of the URL
        return True

    def action_type_spec(self) -> None:
        self.set_focus(self.query_one(SpecBox))
