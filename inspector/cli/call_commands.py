"""The commands that make calls headless: ``call``, ``list``, ``prompt``, ``read``, ``load``."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from inspector.cli.options import ConnectOptions, Group, connects, json_object, writable_recording
from inspector.headless.load_runner import DRAIN_S
from inspector.protocol.methods import CATALOG

if TYPE_CHECKING:
    from rich.console import RenderableType

    from inspector.session.session import InspectorSession
    from inspector.timeline.outcome import Outcome

# `inspector --help` imports this module: what only runs a command (the session, the printed timeline) is imported
# in the command that runs it (tests/perf/bench_cold.py).

ArgsOpt = Annotated[str | None, typer.Option("--args", help="Arguments as a JSON object.")]
ONE_CALL = (
    Group.SERVER, Group.TARGET, Group.ERA, Group.ANSWERS, Group.HELPERS, Group.RECORD, Group.JSON, Group.LIMITS,
    Group.TASKS, Group.LOGIN,
)  # fmt: skip
"""The options of a command that makes one call."""


@connects(*ONE_CALL)
def call(
    tool: Annotated[str, typer.Argument(help="The tool to call.")], args: ArgsOpt = None, *, opts: ConnectOptions
) -> None:
    """Call a tool, answering every input request, and print its timeline (exit 0 complete, 1 isError,
    3 transport, 4 JSON-RPC error, 5 no answer, 6 round cap)."""
    from inspector.cli.run import run_and_exit

    arguments = json_object(args, "--args")

    async def operation(session: InspectorSession) -> Outcome:
        await session.list_all("tools")
        return await session.call_tool(tool, arguments)

    run_and_exit(operation, opts=opts)


@connects(Group.SERVER, Group.TARGET, Group.ERA, Group.RECORD, Group.JSON, Group.LIMITS, Group.LOGIN)
def list_(
    kind: Annotated[str, typer.Argument(help="tools, prompts, resources, templates or skills.")],
    force: Annotated[
        bool,
        typer.Option("--force", help="Send the list request even if the server did not declare the capability."),
    ] = False,
    by_weight: Annotated[
        bool,
        typer.Option(
            "--by-weight",
            help="The heaviest first: by what a host hands a model of each tool, prompt or template (bytes).",
        ),
    ] = False,
    *,
    opts: ConnectOptions,
) -> None:
    """List the server's tools, prompts, resources, resource templates or skills (every page): the timeline, then a
    table of what was listed (names whole, the description cut to the width; for tools, prompts and templates what a
    host hands a model of each, in bytes and estimated tokens, and the total; for skills their files and bytes, as
    listed: no file is read); --json gives the items in full, and their weight. A kind the server did not declare
    is not asked for (exit 7; --force asks anyway)."""
    from inspector.cli.run import NotOffered, run_and_exit
    from inspector.headless.list_table import listing_table, weight_json

    if kind == "skills":
        _list_skills(force, opts)
        return
    if kind not in CATALOG:
        raise typer.BadParameter(f"KIND must be {', '.join(CATALOG)} or skills")
    listing = CATALOG[kind]

    async def operation(session: InspectorSession) -> Outcome:
        if not force and not session.timeline.offers(listing.kind):
            raise NotOffered(listing.list_method, listing.capability, session.timeline.server_capabilities)
        return await session.list_all(listing.kind)

    def table(outcome: Outcome, width: int) -> RenderableType:
        return listing_table(listing.kind, outcome.result, width, by_weight=by_weight)

    def weight(outcome: Outcome) -> dict[str, object]:
        return weight_json(listing.kind, outcome.result) if outcome.ok else {}

    run_and_exit(operation, opts=opts, answers=ConnectOptions().answer_source(), show_result=table, extra=weight)


def _list_skills(force: bool, opts: ConnectOptions) -> None:
    """``list skills``: the Skills extension's entries (SEP-2640), every page; a server that did not declare the
    extension is not asked (exit 7, as for an undeclared kind)."""
    from inspector.cli.run import NotOffered, run_and_exit
    from inspector.headless.list_table import skills_table
    from inspector.protocol.skills import SKILLS_EXTENSION, SKILLS_LIST
    from inspector.session.skill_shelf import SkillShelf

    async def operation(session: InspectorSession) -> Outcome:
        skills = SkillShelf(session)
        if not force and not skills.offered():
            raise NotOffered(SKILLS_LIST, SKILLS_EXTENSION, session.timeline.server_capabilities)
        return await skills.listed()

    def table(outcome: Outcome, width: int) -> RenderableType:
        return skills_table(outcome.result, width)

    run_and_exit(operation, opts=opts, answers=ConnectOptions().answer_source(), show_result=table)


@connects(*ONE_CALL)
def prompt(
    name: Annotated[str, typer.Argument(help="The prompt to get.")], args: ArgsOpt = None, *, opts: ConnectOptions
) -> None:
    """Get a prompt, answering every input request (``--args``: a JSON object of strings)."""
    from inspector.cli.run import run_and_exit

    arguments = {k: str(v) for k, v in json_object(args, "--args").items()}

    async def operation(session: InspectorSession) -> Outcome:
        return await session.get_prompt(name, arguments)

    run_and_exit(operation, opts=opts)


@connects(*ONE_CALL)
def read(uri: Annotated[str, typer.Argument(help="The resource URI to read.")], *, opts: ConnectOptions) -> None:
    """Read a resource, answering every input request; its caching hints (ttlMs, cacheScope) under the timeline."""
    from inspector.cli.run import run_and_exit
    from inspector.headless.list_table import cache_line

    async def operation(session: InspectorSession) -> Outcome:
        return await session.read_resource(uri)

    def hints(outcome: Outcome, _width: int) -> RenderableType:
        return cache_line(outcome.result)

    run_and_exit(operation, opts=opts, show_result=hints)


UNANSWERED_SHOWN = 10
"""The unanswered requests the text report names (one per concurrent caller at most; --json has every one)."""


@connects(
    Group.SERVER, Group.TARGET, Group.ERA, Group.ANSWERS, Group.HELPERS, Group.JSON, Group.LIMITS, Group.TASKS,
    Group.LOGIN,
)  # fmt: skip
def load(
    tool: Annotated[str, typer.Argument(help="The tool to call.")],
    args: ArgsOpt = "{}",
    duration: Annotated[float, typer.Option("--duration", min=0.1, help="Seconds to keep calling.")] = 5.0,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, help="Concurrent callers.")] = 1,
    drain: Annotated[
        float,
        typer.Option(
            "--drain",
            min=0.0,
            help="Seconds the calls in flight at the end may take to finish before they are cancelled.",
        ),
    ] = DRAIN_S,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record",
            help="Record the run to this JSONL file, to replay its calls and findings (a load run is not recorded "
            "unless asked: it writes about 1 KB a call, and recording takes part of the rate).",
        ),
    ] = None,
    *,
    opts: ConnectOptions,
) -> None:
    """Call one tool repeatedly and report throughput, latency percentiles, errors and the findings the calls raised
    (like the official Inspector's --load); exit 1 when a call failed or was still unanswered after the drain."""
    from inspector.cli.run import connect_or_report, error_console, say_recorded
    from inspector.cli.wiring import build_session, login_config, run_loop
    from inspector.headless.load_runner import Unanswered, run_load
    from inspector.headless.printed_timeline import finding_line
    from inspector.headless.terminal import out_console
    from inspector.protocol.sanitize import json_text
    from inspector.session.heap import FreezingHeap
    from inspector.timeline.outcome import EXIT_CONNECT

    arguments = json_object(args, "--args")
    target = opts.target()
    source = opts.answer_source()
    record = writable_recording(record) if record is not None else None
    auth = login_config(target, opts.login(), error_console())

    async def main() -> int:
        session = build_session(
            target, source, era=opts.era_mode(), record=record, auth=auth, **opts.session_settings()
        )
        try:
            if not await connect_or_report(session):
                say_recorded(record)
                return EXIT_CONNECT
            await session.list_all("tools")
            session.log.forget_ended()  # (the handshake's findings are not the load's)
            # (the collector's policy for a load run is the heap's: see FreezingHeap.calling)
            calling = session.heap.calling() if isinstance(session.heap, FreezingHeap) else contextlib.nullcontext()
            with calling:
                report = await run_load(
                    lambda: session.call_tool(tool, arguments),
                    duration=duration,
                    concurrency=concurrency,
                    let_go=session.log.forget_ended,  # (nothing reads the calls: only their outcomes count)
                    drain=drain,
                    waiting=lambda: [Unanswered(rid, p.call, p.method) for rid, p in session.connection.waiting()],
                )
        finally:
            await session.close()
        doc = report.to_json()
        if opts.as_json:
            sys.stdout.write(json_text(doc) + "\n")
        else:
            console = out_console()
            console.print(
                f"{doc['calls']} calls in {doc['durationSeconds']} s · {doc['callsPerSecond']} calls/s · "
                f"p50 {doc['latencyMs']['p50']} ms · p99 {doc['latencyMs']['p99']} ms · {doc['errors']} errors · "
                f"{report.findings.total} findings"
                + (f" · {report.unfinished} unfinished" if report.unfinished else ""),
                soft_wrap=True,  # (one line each, whatever the width: a report to read or grep)
            )
            if report.unfinished:
                console.print(
                    f"  ✗ {report.unfinished} {'call was' if report.unfinished == 1 else 'calls were'} still waiting "
                    f"for the server {report.drain:g} s after the run's end, and cancelled: the server may have "
                    "dropped the request; raise --drain if its calls are that slow",
                    style="red",
                    soft_wrap=True,
                )
                shown = report.unanswered[:UNANSWERED_SHOWN]
                for request in shown:
                    console.print(f"    unanswered: {request}", style="red", markup=False, soft_wrap=True)
                if len(report.unanswered) > len(shown):
                    more = len(report.unanswered) - len(shown)
                    console.print(f"    and {more} more (--json lists them all)", style="red", soft_wrap=True)
            for count, first in report.findings.by_code.values():
                line = finding_line(first)
                where = f"; the first on call #{first.call_index}" if first.call_index is not None else ""
                line.append(f"  ({count} in all{where})", style="dim")
                console.print(line, soft_wrap=True)
        say_recorded(record)
        return 0 if report.errors == 0 and report.unfinished == 0 else 1

    raise typer.Exit(run_loop(main()))


def register(app: typer.Typer) -> None:
    """Add these commands to ``app``."""
    app.command()(call)
    app.command("list")(list_)
    app.command()(prompt)
    app.command()(read)
    app.command()(load)
