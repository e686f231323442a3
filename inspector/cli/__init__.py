"""The ``inspector`` command: the composition root. Each command module registers its commands on the app here,
explicitly; the TUI is imported lazily by the commands that open it, so headless commands never load textual."""

from __future__ import annotations

import typer

from inspector.cli import (
    auth_commands,
    call_commands,
    lab_commands,
    listen_commands,
    replay_commands,
    server_commands,
    task_commands,
    tui_commands,
)


def build_app() -> typer.Typer:
    """The typer app with every command."""
    app = typer.Typer(
        name="inspector",
        help="A terminal inspector and debugger for MCP servers: every call as a timeline of round trips.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    for module in (
        call_commands,
        auth_commands,
        listen_commands,
        task_commands,
        tui_commands,
        replay_commands,
        lab_commands,
        server_commands,
    ):
        module.register(app)
    return app


app = build_app()


def main() -> None:
    """Console-script entry point."""
    app()
