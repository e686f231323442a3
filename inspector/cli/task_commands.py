"""``inspector task list|get|result|cancel``: tasks made earlier, looked at again by their ids.

Task ids are kept by every session that followed a task (``session/task_store.py``), so after a restart a new
session can find the task on the server again (seed 004's test: a new client, ``tasks/get`` on another instance).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Literal

import typer

from inspector.cli.options import ConnectOptions, Group, JsonOpt, ServerOpt, connects
from inspector.protocol.sanitize import json_text, one_line

if TYPE_CHECKING:
    from inspector.session.session import InspectorSession
    from inspector.timeline.outcome import Outcome

# `inspector --help` imports this module: the session is imported by the command that runs (bench_cold.py).

tasks = typer.Typer(help="Tasks made earlier: list them, look at one again by its id, wait for it, cancel it.")
IdArg = Annotated[str, typer.Argument(help="The task id (see `inspector task list`).")]
FOLLOW = (
    Group.SERVER, Group.TARGET, Group.ERA, Group.ANSWERS, Group.HELPERS, Group.RECORD, Group.JSON, Group.LIMITS,
    Group.TASKS,
)  # fmt: skip


@tasks.command("list")
def list_tasks(
    server: ServerOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The tasks this machine's sessions made, newest first (only those of --server SPEC when given)."""
    from rich.text import Text

    from inspector.headless.terminal import out_console
    from inspector.session.task_store import known_tasks

    found = known_tasks(target=server)
    if as_json:
        sys.stdout.write(json_text([t.to_json() for t in found]) + "\n")
        raise typer.Exit(0)
    console = out_console()
    if not found:
        console.print(Text("no tasks recorded" + (f" for {one_line(server, 80)}" if server else ""), style="dim"))
        raise typer.Exit(0)
    for known in found:
        line = Text(f"{one_line(known.task_id, 48)}  ", style="bold")
        line.append(f"{one_line(known.status, 16):<16} ", style="cyan")
        line.append(f"{one_line(known.tool or '?', 30)}  {known.shape}  seen {known.seen}", style="dim")
        console.print(line)
        console.print(Text("    " + one_line(known.target, 150), style="dim"), no_wrap=True, overflow="ellipsis")


def _look(task_id: str, action: Literal["get", "wait", "cancel"], opts: ConnectOptions) -> None:
    from inspector.cli.run import run_and_exit

    async def operation(session: InspectorSession) -> Outcome:
        return await session.look_at_task(task_id, action)

    # (a cancel the server confirmed is what `task cancel` asked for: exit 0; a task that completed or failed
    # anyway says so, with that ending's exit code)
    run_and_exit(operation, opts=opts, asked_for="cancelled" if action == "cancel" else None)


@connects(*FOLLOW)
def get(
    task_id: IdArg,
    wait: Annotated[bool, typer.Option("--wait", help="Follow the task to its end (answering what it asks).")] = False,
    *,
    opts: ConnectOptions,
) -> None:
    """One tasks/get of a task (with --wait: follow it to its end)."""
    _look(task_id, "wait" if wait else "get", opts)


@connects(*FOLLOW)
def result(task_id: IdArg, *, opts: ConnectOptions) -> None:
    """Follow a task to its end and print its result."""
    _look(task_id, "wait", opts)


@connects(*FOLLOW)
def cancel(task_id: IdArg, *, opts: ConnectOptions) -> None:
    """Ask the server to cancel a task (cooperative: it may still complete), and show what it did (exit 0 when the
    server confirms the cancel)."""
    _look(task_id, "cancel", opts)


tasks.command()(get)
tasks.command()(result)
tasks.command()(cancel)


def register(app: typer.Typer) -> None:
    """Add the ``task`` commands to ``app``."""
    app.add_typer(tasks, name="task")
