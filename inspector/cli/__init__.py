"""The ``inspector`` command: the composition root. Each command module registers its commands on the app here,
explicitly; the TUI is imported lazily by the commands that open it, so headless commands never load textual.

A one-shot command imports only the module that defines it (``COMMAND_MODULES``): ``inspector call`` never loads
the login, replay or lab commands. ``inspector --help`` (or a name no module defines) imports every command module
(each imports what runs a command inside the command); the bare listing (``inspector`` and ``inspector --help``)
shows each command's name and help alone, so typer never reads their parameters (``listing``).
The listing is printed from the cache folder when nothing that shapes it changed (``listing_cache``).
``tests/perf/bench_cold.py`` measures what a one-shot command costs from a cold process.
"""

from __future__ import annotations

import copy
import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from inspector.cli.listing_cache import LISTING_ARGS, print_listing

if TYPE_CHECKING:  # (typer is imported when the app is built: a listing printed from the cache never imports it)
    import typer
    from typer.models import CommandInfo

MODULES: Final = (
    "call_commands",
    "auth_commands",
    "listen_commands",
    "task_commands",
    "tui_commands",
    "replay_commands",
    "lab_commands",
    "server_commands",
)
"""Every command module of ``inspector.cli``, in the order ``--help`` lists their commands."""
COMMAND_MODULES: Final = {
    **dict.fromkeys(("call", "list", "prompt", "read", "load"), "call_commands"),
    "auth": "auth_commands",
    "listen": "listen_commands",
    "task": "task_commands",
    **dict.fromkeys(("demo", "connect", "screenshots"), "tui_commands"),
    **dict.fromkeys(("replay", "export", "sessions"), "replay_commands"),
    "lab": "lab_commands",
    **dict.fromkeys(("demo-server", "conformance-client"), "server_commands"),
}
"""Each top-level command -> the module that registers it (a test checks this against what each module registers)."""


def build_app(command: str | None = None) -> typer.Typer:
    """The typer app: with ``command``, only the module that defines it; otherwise (or for a name no module defines,
    which typer then refuses with the list of every command) all of them."""
    import typer

    app = typer.Typer(
        name="inspector",
        help="A terminal inspector and debugger for MCP servers: every call as a timeline of round trips.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    # A callback keeps the app a group of commands when only one is registered (typer would otherwise run that one
    # command as the whole app, and take its name for an argument).
    app.callback()(_commands)
    wanted = MODULES if command not in COMMAND_MODULES else (COMMAND_MODULES[command],)
    for name in wanted:
        importlib.import_module(f"inspector.cli.{name}").register(app)
    return app


def _commands() -> None:
    pass  # (the app's help is the Typer's own)


def listing(app: typer.Typer) -> typer.Typer:
    """``app`` for its own help: each command (and each group's) stands in as its name and help, with no parameters.
    Typer reads every parameter of every command it builds (all 22, about 35 each: the most of `inspector --help`'s
    own time), and the list of commands says none of them; a test checks that the list reads the same."""
    listed = copy.copy(app)
    listed.registered_commands = [_stand_in(info) for info in app.registered_commands]
    listed.registered_groups = [copy.copy(group) for group in app.registered_groups]
    for group in listed.registered_groups:
        assert group.typer_instance is not None
        group.typer_instance = listing(group.typer_instance)
    return listed


def _stand_in(info: CommandInfo) -> CommandInfo:
    """A command's registration with its callback replaced by one of the same name and help that takes nothing."""
    callback = info.callback
    assert callback is not None

    def stand_in() -> None:
        raise AssertionError("a listing's command never runs")

    stand_in.__name__, stand_in.__doc__ = callback.__name__, callback.__doc__
    listed = copy.copy(info)
    listed.callback = stand_in
    return listed


def command_named(argv: Sequence[str]) -> str | None:
    """The command a command line names: its first word (the app itself has no options but ``--help``)."""
    return argv[0] if argv and not argv[0].startswith("-") else None


def __getattr__(name: str) -> typer.Typer:
    """``app``: the whole app (every command), built on first use (tests drive it with typer's runner)."""
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    app = globals()["app"] = build_app()
    return app


def main() -> None:
    """Console-script entry point."""
    argv = sys.argv[1:]
    if argv in LISTING_ARGS:
        print_listing(argv, lambda: listing(build_app())())
    build_app(command_named(argv))()
