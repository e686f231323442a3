"""Commands beyond the single-call ones: demo, load. Registered on import of this module."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from inspector.cli import app
from inspector.cli import options as o
from inspector.cli.compose import build_session, demo_target
from inspector.cli.demo_flows import example_answers_path, run_demo_flows
from inspector.cli.run import run, run_and_exit, say_error
from inspector.headless.load import run_load
from inspector.session.client import ConnectError, InspectorSession
from inspector.session.outcome import Outcome
from inspector.transport.base import TransportStartError

ThemeOpt = Annotated[str | None, typer.Option("--theme", help="A theme name (shipped or from your themes folder).")]


@app.command()
def demo(
    headless: Annotated[
        bool, typer.Option("--headless", help="Run every demo flow without the TUI and print the timeline.")
    ] = False,
    era: o.EraOpt = "auto",
    record: o.RecordOpt = None,
    no_record: o.NoRecordOpt = False,
    as_json: o.JsonOpt = False,
    theme: ThemeOpt = None,
    stub_model: o.StubOpt = False,
) -> None:
    """Open the inspector on the bundled demo server (with --headless: run every flow and print the timeline)."""
    if not headless:
        from inspector.cli.tui import open_tui

        code = open_tui(
            demo_target(),
            era=o.era_from(era),
            record=record,
            no_record=no_record,
            demo=True,
            theme=theme,
            stub_sampling=stub_model,
        )
        raise typer.Exit(code)
    source = o.answers_from(example_answers_path(), "fail", True, None)
    results: list[Outcome] = []

    async def operation(session: InspectorSession) -> Outcome:
        results.extend(await run_demo_flows(session))
        failed = [r for r in results if not r.ok]
        return failed[0] if failed else results[-1]

    run_and_exit(demo_target(), source, operation, o.era_from(era), record, no_record, as_json, show_all_calls=True)


@app.command()
def load(
    tool: Annotated[str, typer.Argument(help="The tool to call.")],
    args: Annotated[str, typer.Option("--args", help="Tool arguments as a JSON object.")] = "{}",
    server: o.ServerOpt = None,
    demo: o.DemoOpt = False,
    header: o.HeaderOpt = None,
    bearer: o.BearerOpt = None,
    era: o.EraOpt = "auto",
    answers: o.AnswersOpt = None,
    on_missing: o.OnMissingOpt = "fail",
    stub_model: o.StubOpt = False,
    duration: Annotated[float, typer.Option("--duration", min=0.1, help="Seconds to keep calling.")] = 5.0,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, help="Concurrent callers.")] = 1,
    as_json: o.JsonOpt = False,
) -> None:
    """Call one tool repeatedly and report throughput and latency percentiles (like the official Inspector's --load)."""
    try:
        arguments = json.loads(args)
    except json.JSONDecodeError as exc:
        raise typer.BadParameter(f"--args is not JSON: {exc}") from None
    target = o.target_from(server, demo, header, bearer, None, None)
    source = o.answers_from(answers, on_missing, stub_model, None)

    async def main() -> int:
        session = build_session(target, source, era=o.era_from(era))
        try:
            await session.connect()
        except (ConnectError, TransportStartError) as failure:
            say_error(failure.message, failure.hint)
            return 3
        try:
            await session.list_all("tools")
            report = await run_load(
                lambda: session.call_tool(tool, arguments), duration=duration, concurrency=concurrency
            )
        finally:
            await session.close()
        if as_json:
            print(json.dumps(report.to_json(), indent=2))
        else:
            doc = report.to_json()
            Console(highlight=False).print(
                f"{doc['calls']} calls in {doc['durationSeconds']} s · {doc['callsPerSecond']} calls/s · "
                f"p50 {doc['latencyMs']['p50']} ms · p99 {doc['latencyMs']['p99']} ms · {doc['errors']} errors"
            )
        return 0 if report.errors == 0 else 1

    raise typer.Exit(run(main()))


__all__ = ["demo", "load"]


@app.command("conformance-client")
def conformance_client(
    url: Annotated[str, typer.Argument(help="The test server URL the conformance suite appends.")],
) -> None:
    """Adapter for the official MCP conformance suite's client scenarios (reads MCP_CONFORMANCE_* variables)."""
    from inspector.cli.conformance import run_conformance

    raise typer.Exit(run(run_conformance(url)))


@app.command()
def connect(
    spec: Annotated[
        str | None, typer.Argument(help="An http(s) URL or a stdio command line; none: the connect screen.")
    ] = None,
    header: o.HeaderOpt = None,
    bearer: o.BearerOpt = None,
    env: o.EnvOpt = None,
    secret: o.SecretOpt = None,
    era: o.EraOpt = "auto",
    record: o.RecordOpt = None,
    no_record: o.NoRecordOpt = False,
    theme: ThemeOpt = None,
    root: o.RootOpt = None,
    stub_model: o.StubOpt = False,
) -> None:
    """Open the TUI on a server (or on the connect screen, with recent targets and servers from client configs)."""
    from inspector.cli.tui import open_tui

    target = o.target_from(spec, False, header, bearer, env, secret) if spec is not None else None
    code = open_tui(
        target,
        era=o.era_from(era),
        record=record,
        no_record=no_record,
        theme=theme,
        roots=root,
        stub_sampling=stub_model,
    )
    raise typer.Exit(code)


@app.command()
def screenshots(
    out: Annotated[Path, typer.Option("--out", help="Folder for the SVGs.")] = Path("screenshots"),
    only: Annotated[list[str] | None, typer.Argument(help="Only these shots (default: all).")] = None,
) -> None:
    """Regenerate the SVG screenshots of the TUI from the demo flows (what the README shows)."""
    import asyncio

    from inspector.cli.tui import in_process_demo_factory
    from inspector.ui.screenshots import generate

    # The demo server runs in this process over the memory transport, with a step clock: the same pictures on
    # every run and machine (no subprocess timing, no interpreter path in the header).
    factory = in_process_demo_factory()
    for path in asyncio.run(generate(factory, out, only or None, in_process_demo_factory)):
        typer.echo(path)
