"""Runs one headless operation: connect, do it, print the timeline or the JSON document, close, exit code."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from inspector.answers.base import AnswerSource
from inspector.cli.compose import TargetOptions, UsageError, build_session, default_recording_path
from inspector.headless.document import finding_json, outcome_document
from inspector.headless.render import print_timeline
from inspector.protocol.display import printable
from inspector.session.client import ConnectError, EraMode, InspectorSession
from inspector.session.outcome import Outcome
from inspector.transport.base import TransportStartError

EXIT_CONNECT = 3
Operation = Callable[[InspectorSession], Awaitable[Outcome]]


def error_console() -> Console:
    """Messages for humans go to stderr, so stdout stays a clean --json document."""
    return Console(stderr=True, highlight=False)


def say_error(message: str, hint: str = "") -> None:
    """Print 'error: what happened' and 'try: what to do' on stderr."""
    console = error_console()
    console.print(Text("error: ", style="bold red") + Text(printable(message)))
    if hint:
        console.print(Text("try: ", style="bold") + Text(printable(hint)))


def run_and_exit(
    target: TargetOptions,
    source: AnswerSource,
    operation: Operation,
    era: EraMode,
    record: Path | None,
    no_record: bool,
    as_json: bool,
    timeout: float = 60.0,
    max_rounds: int = 10,
    *,
    show_all_calls: bool = False,
) -> NoReturn:
    """Run one headless operation (``run_operation``) with the options its command was given; exit with its code."""
    code = run(
        run_operation(
            target,
            source,
            operation,
            era=era,
            record=record,
            no_record=no_record,
            as_json=as_json,
            max_rounds=max_rounds,
            timeout=timeout,
            show_all_calls=show_all_calls,
        )
    )
    raise typer.Exit(code)


async def run_operation(
    target: TargetOptions,
    answers: AnswerSource,
    operation: Operation,
    *,
    era: EraMode,
    record: Path | None,
    as_json: bool,
    no_record: bool = False,
    max_rounds: int = 10,
    timeout: float = 60.0,
    show_all_calls: bool = False,
    extra: Callable[[Outcome], dict[str, Any]] | None = None,
) -> int:
    """Connect, run ``operation``, report, close; returns the exit code.

    Records to ``record``, else to a new default recording unless ``no_record``; the path is printed on exit."""
    if record is None and not no_record:
        record = default_recording_path()
    try:
        session = build_session(target, answers, era=era, record=record, max_rounds=max_rounds, timeout=timeout)
    except UsageError as bad:
        say_error(str(bad), "see inspector --help")
        return 2
    try:
        try:
            await session.connect()
        except (ConnectError, TransportStartError) as failure:
            say_error(failure.message, failure.hint)
            stderr = getattr(failure, "stderr", None) or [
                line.text for line in session.timeline.console if line.source == "stderr"
            ]
            for line in stderr[-20:]:
                error_console().print(Text("  server: ", style="dim") + Text(printable(line)))
            if as_json:
                doc = {
                    "status": "failed",
                    "exitCode": EXIT_CONNECT,
                    "detail": failure.message,
                    "hint": failure.hint,
                    "findings": [finding_json(f) for f in session.timeline.findings],
                }
                print(json.dumps(doc, ensure_ascii=False, indent=2))
            _say_recorded(record)
            return EXIT_CONNECT
        outcome = await operation(session)
    finally:
        await session.close()
        if session.log.recorder is not None:
            session.log.recorder.close()
    if as_json:
        doc = outcome_document(outcome, session.timeline, **(extra(outcome) if extra else {}))
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    else:
        console = Console(highlight=False)
        print_timeline(console, session.timeline, calls=None if show_all_calls else [outcome.call])
        if outcome.status != "complete" and outcome.detail:
            say_error(f"{outcome.call.method} ended {outcome.status}: {outcome.detail}")
        if outcome.status == "failed":
            # The detail says "see the server's stderr": headless, there is no console pane to see it in.
            for line in [c.text for c in session.timeline.console if c.source == "stderr"][-20:]:
                error_console().print(Text("  server: ", style="dim") + Text(printable(line)))
    _say_recorded(record)
    return outcome.exit_code


def _say_recorded(record: Path | None) -> None:
    if record is not None:
        error_console().print(Text(f"recorded to {record}", style="dim"))


def run(coro: Awaitable[int]) -> int:
    """Run the coroutine on a fresh event loop: uvloop where it exists (about twice the round-trip rate)."""

    async def main() -> int:
        return await coro

    try:
        import uvloop
    except ImportError:  # pragma: no cover - Windows
        return asyncio.run(main())
    return uvloop.run(main())
