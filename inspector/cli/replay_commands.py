"""``inspector replay``, ``inspector export`` and ``inspector sessions``: recordings read back, re-run and exported.

``replay FILE`` opens the TUI on the recording (read-only) when stdin and stdout are terminals, and prints the
timeline otherwise or with ``--print`` (``--tui`` forces the TUI).

Exit codes: ``replay FILE`` 0 (shown, even with unreadable lines: they are listed on stderr or in the console),
2 when the file cannot be opened; ``replay FILE --against SPEC`` 0 all match, 1 any difference, 3 connection or
transport failure, 5 no answer, 6 round cap, 4 JSON-RPC error (a live failure the recorded call did not have),
2 usage; ``export`` 0, 2 when the call cannot be exported that way; ``sessions`` 0.

``replay FILE --against SPEC --junit OUT`` also writes the re-run as JUnit XML (a test case per recorded call), and
``export FILE --as pytest`` writes every call a re-run would make as a pytest module (``replay.pytest_export``), for
CI.
"""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Final

import typer

from inspector.cli.options import ConnectOptions, Group, JsonOpt, connects, ignore_patterns
from inspector.protocol.methods import request_label
from inspector.protocol.sanitize import clean, json_text, one_line
from inspector.targets.target import ERAS

if TYPE_CHECKING:
    from inspector.replay.loader import Loaded, Problem
    from inspector.session.session import EraMode
    from inspector.timeline.model import Timeline

# `inspector --help` imports this module: the recordings' loader, the session and the printers are imported by the
# command that uses them (tests/perf/bench_cold.py).

FileArg = Annotated[Path, typer.Argument(help="A recording (.jsonl), e.g. one listed by `inspector sessions`.")]


def _load(path: Path) -> Loaded:
    from inspector.cli.run import say_error
    from inspector.replay.loader import RecordingError, load_recording

    try:
        return load_recording(path)
    except RecordingError as bad:
        say_error(bad.message, bad.hint)
        raise typer.Exit(2) from None


PROBLEMS_SHOWN = 5
"""The problems of each severity said one by one; the rest are counted (a damaged file of thousands of lines must not
bury the timeline: ``--json`` lists every one)."""


def _say_problems(problems: list[Problem]) -> None:
    from rich.text import Text

    from inspector.cli.run import error_console

    console = error_console()
    for severity, style in (("error", "bold red"), ("warning", "bold yellow")):
        these = [problem for problem in problems if problem.severity == severity]
        for problem in these[:PROBLEMS_SHOWN]:
            console.print(Text(f"{severity}: ", style=style) + Text(clean(problem.describe())))
        if len(these) > PROBLEMS_SHOWN:
            more = len(these) - PROBLEMS_SHOWN
            console.print(
                Text(f"{severity}: ", style=style)
                + Text(f"{more} more line(s) like these ({len(these)} in all); --json lists every one")
            )


RERUN_SHOWN = 20
"""The calls a re-run names before it sends them; the rest are counted."""


def _confirm_rerun(recorded: Timeline, against: str, *, lists: bool, asked: bool) -> None:
    """Say which recorded calls a re-run will send, and where (a recording is a file someone may have handed you:
    its calls are theirs); on a terminal, ask first (``--yes`` does not). Not confirmed: exit 1, nothing sent."""
    from rich.text import Text

    from inspector.cli.run import error_console, say_error
    from inspector.replay.rerun import rerun_plan

    chosen, _ = rerun_plan(recorded, lists=lists)
    console = error_console()
    console.print(Text(f"re-running {len(chosen)} recorded call(s) against {one_line(against, 120)}:", style="bold"))
    for call in chosen[:RERUN_SHOWN]:
        console.print(Text(f"  #{call.index} {one_line(request_label(call.method, call.params), 100)}"))
    if len(chosen) > RERUN_SHOWN:
        console.print(Text(f"  and {len(chosen) - RERUN_SHOWN} more", style="dim"))
    if asked and chosen and not typer.confirm("send them?", default=False, err=True):
        say_error("not confirmed: nothing was sent", "--yes sends without asking")
        raise typer.Exit(1)


def _era_mode(era: str, recorded: Timeline) -> EraMode:
    if era == "recorded":
        return recorded.era.era if recorded.era is not None else "auto"
    if era not in ERAS:
        raise typer.BadParameter(f"--era must be recorded, {', '.join(ERAS)}")
    return era


@connects(Group.TARGET, Group.RECORD, Group.LIMITS)
def replay(
    file: FileArg,
    step: Annotated[
        bool,
        typer.Option(
            "--step", help="Walk the session message by message, with the time gaps (in the TUI: n for the next)."
        ),
    ] = False,
    tui: Annotated[
        bool | None,
        typer.Option(
            "--tui/--print",
            help="Open the TUI on the recording (default when stdin and stdout are terminals), or print the timeline "
            "(default otherwise: pipes, files, CI).",
        ),
    ] = None,
    theme: Annotated[str | None, typer.Option("--theme", help="With the TUI: a theme name.")] = None,
    no_wait: Annotated[
        bool, typer.Option("--no-wait", help="With --step: print every message without waiting.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the calls (or the re-run report) as JSON.")] = False,
    against: Annotated[
        str | None, typer.Option("--against", help="Re-run every recorded call against this server and diff results.")
    ] = None,
    ignore: Annotated[
        list[str] | None, typer.Option("--ignore", help="A result path not to compare, e.g. 'content[*].text'.")
    ] = None,
    compare_meta: Annotated[
        bool, typer.Option("--compare-meta", help="Also compare _meta (ignored by default).")
    ] = False,
    lists: Annotated[
        bool, typer.Option("--lists", help="Also re-run and compare tools/prompts/resources lists.")
    ] = False,
    era: Annotated[str, typer.Option("--era", help="recorded (default), auto, modern or legacy.")] = "recorded",
    yes: Annotated[
        bool, typer.Option("--yes", help="With --against: send the recorded calls without asking first.")
    ] = False,
    junit: Annotated[
        Path | None,
        typer.Option("--junit", help="With --against: also write the re-run as JUnit XML, a test case per call (CI)."),
    ] = None,
    *,
    opts: ConnectOptions,
) -> None:
    """Show a recorded session offline, read-only (no server is started): in the TUI when the terminal is
    interactive, else printed (--tui / --print choose); walk it with --step; or re-run it --against a server and
    diff every call's result (exit 0 all match, 1 any difference, 3/4/5 as `inspector call`)."""
    from inspector.cli.run import connect_or_report, say_recorded, write_junit
    from inspector.cli.wiring import build_session, run_loop
    from inspector.headless.json_document import call_json, findings_json, session_json
    from inspector.headless.printed_timeline import print_timeline
    from inspector.headless.terminal import out_console
    from inspector.replay.loader import build_loaded
    from inspector.replay.recorded_answers import ReplayAnswers
    from inspector.replay.rerun import RerunReport, rerun
    from inspector.replay.rerun_report import print_report, report_json, report_junit
    from inspector.replay.steps import print_steps
    from inspector.timeline.outcome import EXIT_CONNECT

    if junit is not None and against is None:
        raise typer.BadParameter("--junit goes with --against (the re-run is what it reports)")
    loaded = _load(file)
    if against is None and not as_json and (tui if tui is not None else sys.stdin.isatty() and sys.stdout.isatty()):
        from inspector.cli.tui import open_replay_tui

        raise typer.Exit(open_replay_tui(loaded, step=step, theme=theme))
    timeline = build_loaded(loaded)
    _say_problems(loaded.problems)
    if against is not None:
        patterns = ignore_patterns(ignore)
        target = opts.target(against)
        _confirm_rerun(timeline, against, lists=lists, asked=sys.stdin.isatty() and not yes)
        recording = opts.recording()
        answers = ReplayAnswers()

        async def main() -> int:
            session = build_session(
                target,
                answers,
                era=_era_mode(era, timeline),
                record=recording,
                max_rounds=opts.max_rounds,
                timeout=opts.timeout,
            )
            failure: list[str] = []
            try:
                if not await connect_or_report(session, before_error=failure.append):
                    if junit is not None:
                        unreached = RerunReport(str(file), session.timeline.target, None, None)
                        unreached.connect_error = session.redact(failure[0] if failure else "could not connect")
                        write_junit(junit, report_junit(unreached))
                    return EXIT_CONNECT
                report = await rerun(
                    timeline,
                    session,
                    answers,
                    recording=str(file),
                    ignore=patterns,
                    compare_meta=compare_meta,
                    lists=lists,
                )
            finally:
                await session.close()
            report.ignore = list(ignore or [])
            unreadable = [p for p in loaded.problems if p.severity == "error"]
            if unreadable:
                report.notes.append(f"{len(unreadable)} line(s) of the recording could not be read (listed on stderr)")
            if as_json:
                sys.stdout.write(json_text(report_json(report)) + "\n")
            else:
                print_report(out_console(), report)
            say_recorded(recording, "re-run recorded")
            if junit is not None:
                write_junit(junit, report_junit(report))
            return report.exit_code

        raise typer.Exit(run_loop(main()))
    if as_json:
        doc = {
            "recording": str(file),
            "header": loaded.header,
            "problems": [p.to_json() for p in loaded.problems],
            "era": timeline.era.era if timeline.era else None,
            "protocolVersion": timeline.era.version if timeline.era else None,
            "server": timeline.server_info,
            "calls": [call_json(c, timeline) for c in timeline.calls],
            **session_json(timeline),
            **findings_json(timeline.findings, timeline.findings.by_code),
        }
        sys.stdout.write(json_text(doc) + "\n")
        raise typer.Exit(0)
    console = out_console()
    if step:
        wait = None if no_wait or not sys.stdin.isatty() else (lambda: input())
        print_steps(console, loaded.records, wait)
    else:
        print_timeline(console, timeline)
    raise typer.Exit(0)


PYTEST: Final = "pytest"
"""The export of a whole recording (every other ``--as`` exports one call)."""


def export(
    file: FileArg,
    call: Annotated[
        int | None, typer.Option("--call", min=1, help="The call number (#N on the timeline); not with pytest.")
    ] = None,
    fmt: Annotated[
        str,
        typer.Option(
            "--as",
            help="curl (one HTTP round), json (the call's messages), python (an SDK script), or pytest (every call "
            "of the recording as a regression test module).",
        ),
    ] = "json",
    round_: Annotated[int | None, typer.Option("--round", min=1, help="With --as curl: the round (default 1).")] = None,
    ignore: Annotated[
        list[str] | None,
        typer.Option(
            "--ignore", help="With --as pytest: a result path its tests do not compare, e.g. 'content[*].text'."
        ),
    ] = None,
) -> None:
    """Export one recorded call (a curl command reproducing one HTTP round, its JSON-RPC messages, or an SDK script),
    or with --as pytest the whole recording: a pytest module with a test per call that makes it again against the
    recorded server ($INSPECTOR_SERVER overrides it) and asserts it ends as recorded."""
    from inspector.cli.run import say_error
    from inspector.replay.call_messages import CallMessages
    from inspector.replay.export import FORMATS, ExportError, export_call
    from inspector.replay.loader import build_loaded
    from inspector.replay.pytest_export import export_pytest

    if fmt == PYTEST:
        if call is not None:
            raise typer.BadParameter("--as pytest exports every call of the recording: leave --call out")
        ignore_patterns(ignore)  # (a path that does not parse is a usage error now, not a module that fails later)
    elif fmt not in FORMATS:
        raise typer.BadParameter(f"--as must be one of {', '.join((*FORMATS, PYTEST))}")
    elif call is None:
        raise typer.BadParameter(f"--as {fmt} exports one call: give --call N (#N on the timeline)")
    elif ignore:
        raise typer.BadParameter("--ignore goes with --as pytest (what its tests leave out of the compare)")
    loaded = _load(file)
    every = CallMessages(call or 0)  # (--as json: the recording has every notification, the timeline a round's newest)
    timeline = build_loaded(loaded, every.heard)
    _say_problems([p for p in loaded.problems if p.severity == "error"])
    try:
        if fmt in FORMATS and call is not None:
            text = export_call(timeline, call, fmt, round_, header=loaded.header, messages=every.messages(timeline))
        else:
            text = export_pytest(timeline, recording=str(file), ignore=list(ignore or []))
    except ExportError as bad:
        say_error(str(bad))
        raise typer.Exit(2) from None
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _local_time(started: str | None) -> str:
    if started is None:
        return "?"
    try:
        return dt.datetime.fromisoformat(started).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return started


def _size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / 1024 / 1024:.1f} MB"


def sessions(as_json: JsonOpt = False) -> None:
    """List the recorded sessions kept in the data folder, newest first (date, target, era, calls, size)."""
    from rich.text import Text

    from inspector.cli.run import error_console
    from inspector.headless.terminal import out_console
    from inspector.replay.store import limits, list_sessions, recordings_dir

    folder = recordings_dir()
    warnings: list[str] = []
    keep = limits(warnings)
    for warning in warnings:
        error_console().print(Text("warning: ", style="bold yellow") + Text(clean(warning)))
    found = list_sessions(folder)
    if as_json:
        doc = {
            "folder": str(folder),
            "keep": {"files": keep.files, "bytes": keep.bytes},
            "sessions": [s.to_json() for s in found],
        }
        sys.stdout.write(json_text(doc) + "\n")
        raise typer.Exit(0)
    console = out_console()
    if not found:
        console.print(Text(f"no recordings in {folder}", style="dim"))
        raise typer.Exit(0)
    console.print(
        Text(f"{len(found)} recording(s) in {folder} (keeping {keep.files} / {keep.bytes // 2**20} MB)", style="bold")
    )
    for summary in found:
        line = Text(f"{_local_time(summary.started)}  ")
        line.append(f"{summary.era or '?':<18} ", style="cyan")
        line.append(f"{summary.calls:>5} calls  {_size(summary.size):>9}  ", style="dim")
        line.append(summary.path.name if summary.readable else f"{summary.path.name} (unreadable)")
        console.print(line)
        console.print(
            Text("    " + one_line(summary.target or "?", 200), style="dim"), no_wrap=True, overflow="ellipsis"
        )


def register(app: typer.Typer) -> None:
    """Add these commands to ``app``."""
    app.command()(replay)
    app.command("export")(export)
    app.command()(sessions)
