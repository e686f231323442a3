"""The commands that open the TUI (``connect``, ``demo``) and regenerate its screenshots; ``demo --headless`` runs
every demo flow without it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from inspector.cli.options import ConnectOptions, Group, connects

if TYPE_CHECKING:
    from inspector.session.session import InspectorSession
    from inspector.timeline.outcome import Outcome

# `inspector --help` imports this module: the session is imported by the command that runs (bench_cold.py).

ThemeOpt = Annotated[str | None, typer.Option("--theme", help="A theme name (shipped or from your themes folder).")]
NoCacheOpt = Annotated[
    bool,
    typer.Option(
        "--no-cache",
        help="Ask the server for every list and read: none is served from the cache, whatever its ttlMs says.",
    ),
]


@connects(Group.ERA, Group.RECORD, Group.JSON)
def demo(
    headless: Annotated[
        bool, typer.Option("--headless", help="Run every demo flow without the TUI and print the timeline.")
    ] = False,
    theme: ThemeOpt = None,
    stub_model: Annotated[
        bool, typer.Option("--stub-model", help="Answer sampling requests with the deterministic stub model.")
    ] = False,
    no_cache: NoCacheOpt = False,
    *,
    opts: ConnectOptions,
) -> None:
    """Open the inspector on the bundled demo server (with --headless: run every flow and print the timeline)."""
    from inspector.cli.wiring import demo_target

    target = demo_target().with_era(opts.era_mode())
    if not headless:
        from inspector.cli.tui import open_tui

        code = open_tui(target, record=opts.recording(), theme=theme, stub_sampling=stub_model, cache=not no_cache)
        raise typer.Exit(code)
    from inspector.cli.demo_flows import example_answers_path, run_demo_flows
    from inspector.cli.run import run_and_exit

    answers = ConnectOptions(answers=example_answers_path(), stub_model=True).answer_source()
    results: list[Outcome] = []

    async def operation(session: InspectorSession) -> Outcome:
        results.extend(await run_demo_flows(session))
        failed = [r for r in results if not r.ok]
        return failed[0] if failed else results[-1]

    run_and_exit(operation, opts=opts, target=target, answers=answers, show_all_calls=True)


@connects(Group.TARGET, Group.ERA, Group.HELPERS, Group.RECORD, Group.LOGIN)
def connect(
    spec: Annotated[
        str | None, typer.Argument(help="An http(s) URL or a stdio command line; none: the connect screen.")
    ] = None,
    theme: ThemeOpt = None,
    no_cache: NoCacheOpt = False,
    *,
    opts: ConnectOptions,
) -> None:
    """Open the TUI on a server (or on the connect screen, with recent targets and servers from client configs)."""
    from inspector.cli.tui import open_tui

    target = opts.target(spec) if spec is not None else None
    code = open_tui(
        target,
        record=opts.recording(),
        theme=theme,
        roots=opts.root,
        stub_sampling=opts.stub_model,
        login=opts.login(),
        cache=not no_cache,
    )
    raise typer.Exit(code)


def screenshots(
    out: Annotated[Path, typer.Option("--out", help="Folder for the SVGs.")] = Path("screenshots"),
    only: Annotated[list[str] | None, typer.Argument(help="Only these shots (default: all).")] = None,
) -> None:
    """Regenerate the SVG screenshots of the TUI from the demo flows (what the README shows)."""
    import asyncio

    from inspector.cli.tui import in_process_demo_factory
    from inspector.cli.tui_lab import InProcessLabFactory
    from inspector.ui.devtools.screenshots import generate

    # The demo server runs in this process over the memory transport, with a step clock: the same pictures on
    # every run and machine (no subprocess timing, no interpreter path in the header).
    factory = in_process_demo_factory()
    for path in asyncio.run(generate(factory, out, only or None, in_process_demo_factory, InProcessLabFactory)):
        typer.echo(path)


def register(app: typer.Typer) -> None:
    """Add these commands to ``app``."""
    app.command()(demo)
    app.command()(connect)
    app.command()(screenshots)
