"""A one-shot command imports only the module that defines it (``inspector.cli.COMMAND_MODULES``): the table names
every command of every module, and the app built for one command reads and behaves as the whole app."""

from __future__ import annotations

import importlib

import pytest
import typer
from typer.main import get_group
from typer.testing import CliRunner

from inspector.cli import COMMAND_MODULES, MODULES, build_app, command_named, listing


def registered_by(module: str) -> set[str]:
    """The top-level commands ``module`` registers."""
    app = typer.Typer()
    app.callback()(lambda: None)
    importlib.import_module(f"inspector.cli.{module}").register(app)
    return set(get_group(app).commands)


@pytest.mark.parametrize("module", MODULES)
def test_the_table_names_every_command_a_module_registers(module: str) -> None:
    assert registered_by(module) == {name for name, where in COMMAND_MODULES.items() if where == module}


@pytest.mark.parametrize("command", sorted(COMMAND_MODULES))
def test_the_app_built_for_one_command_gives_its_help_as_the_whole_app_does(command: str) -> None:
    alone = CliRunner().invoke(build_app(command), [command, "--help"], terminal_width=100)
    whole = CliRunner().invoke(build_app(), [command, "--help"], terminal_width=100)
    assert alone.exit_code == whole.exit_code == 0, alone.output
    assert alone.output == whole.output


def test_the_command_is_the_first_word_and_help_or_nothing_builds_every_command() -> None:
    assert command_named(["call", "echo", "--server", "x"]) == "call"
    assert command_named(["--help"]) is None
    assert command_named([]) is None
    assert set(get_group(build_app("no-such-command")).commands) == set(COMMAND_MODULES)


@pytest.mark.parametrize("args", [["--help"], []], ids=["help", "no-arguments"])
def test_the_listing_reads_as_the_whole_apps_help(args: list[str]) -> None:
    # (`inspector` and `inspector --help` list the commands from stand-ins that carry only their names and help)
    whole = build_app()
    listed = CliRunner().invoke(listing(whole), args, terminal_width=100)
    full = CliRunner().invoke(whole, args, terminal_width=100)
    assert listed.exit_code == full.exit_code
    assert listed.output == full.output
    assert "call" in listed.output and "auth" in listed.output and "conformance-client" in listed.output


def test_a_listing_leaves_the_app_it_lists_whole() -> None:
    whole = build_app("task")
    listing(whole)
    result = CliRunner().invoke(whole, ["task", "get", "--help"], terminal_width=100)
    assert result.exit_code == 0 and "--wait" in result.output
