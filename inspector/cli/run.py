"""Runs one headless operation: connect, do it, print the timeline or the JSON document, close, exit code."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.console import Console, RenderableType
from rich.text import Text

from inspector.answers.source import AnswerSource
from inspector.cli.interrupt import EXIT_INTERRUPTED, Interrupt
from inspector.cli.options import ConnectOptions
from inspector.cli.wiring import SessionSettings, build_session, login_config, run_loop
from inspector.headless.json_document import findings_json, outcome_document
from inspector.headless.printed_timeline import print_timeline
from inspector.headless.progress import ProgressLines
from inspector.headless.terminal import err_console, out_console
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.redact import Redactor
from inspector.protocol.sanitize import clean, json_text
from inspector.session.session import ConnectError, EraMode, InspectorSession
from inspector.targets.target import Target
from inspector.timeline.model import CallStatus
from inspector.timeline.outcome import EXIT_CONNECT, EXIT_NOT_OFFERED, Outcome
from inspector.transport.base import TransportStartError

if TYPE_CHECKING:
    from inspector.transport.oauth.config import AuthConfig

Operation = Callable[[InspectorSession], Awaitable[Outcome]]


class NotOffered(Exception):
    """An operation's request was not sent: the server did not declare the capability it needs."""

    def __init__(self, method: str, capability: str, declared: JsonObject | None) -> None:
        names = ", ".join(sorted(declared or {})) or "nothing"
        super().__init__(f"the server did not declare {capability!r}, so {method} was not sent (it declared: {names})")
        self.method, self.capability, self.declared = method, capability, declared

    def document(self) -> dict[str, Any]:
        """What ``--json`` prints instead of a call's document."""
        return {
            "status": "not-offered",
            "method": self.method,
            "capability": self.capability,
            "declared": sorted(self.declared or {}),
            "detail": str(self),
            "hint": NOT_OFFERED_HINT,
        }


NOT_OFFERED_HINT = "--force sends it anyway, to see what the server answers"
ShowResult = Callable[[Outcome, int], RenderableType]
"""What a command prints of its completed call's result after the timeline, given the terminal's width."""


def error_console() -> Console:
    """Messages for humans go to stderr, so stdout stays a clean --json document."""
    return err_console()


def say_error(message: str, hint: str = "", *, redactor: Redactor | None = None) -> None:
    """Print 'error: what happened' and 'try: what to do' on stderr, server text sanitized, secrets redacted."""
    console = error_console()
    redact = redactor.redact if redactor is not None else str
    console.print(Text("error: ", style="bold red") + Text(clean(redact(message))))
    if hint:
        console.print(Text("try: ", style="bold") + Text(clean(redact(hint))))


def say_server_stderr(lines: list[str]) -> None:
    """The server's last stderr lines (what it said before it failed; from the timeline, so redacted)."""
    for line in lines[-20:]:
        error_console().print(Text("  server: ", style="dim") + Text(clean(line)))


async def connect_or_report(
    session: InspectorSession, *, as_json: bool = False, before_error: Callable[[str], None] | None = None
) -> bool:
    """Connect ``session``; when it cannot be, say why and what to try (with the server's stderr; with ``as_json``
    also as a short document on stdout) and return False. ``before_error``: told the message just before the error
    line is printed (``auth login`` leaves out the step that says the same)."""
    try:
        await session.connect()
    except (ConnectError, TransportStartError) as failure:
        if before_error is not None:
            before_error(failure.message)
        say_error(failure.message, failure.hint, redactor=session.redactor)
        stderr = getattr(failure, "stderr", None) or [
            line.text for line in session.timeline.console if line.source == "stderr"
        ]
        say_server_stderr([session.redact(line) for line in stderr])
        if as_json:
            doc = {
                "status": "failed",
                "exitCode": EXIT_CONNECT,
                "detail": session.redact(failure.message),
                "hint": session.redact(failure.hint),
                **findings_json(session.timeline.findings, session.timeline.findings.by_code),
            }
            print(json_text(doc))
        return False
    return True


def run_and_exit(
    operation: Operation,
    *,
    opts: ConnectOptions,
    target: Target | None = None,
    answers: AnswerSource | None = None,
    show_all_calls: bool = False,
    show_result: ShowResult | None = None,
    asked_for: CallStatus | None = None,
    extra: Callable[[Outcome], dict[str, Any]] | None = None,
) -> NoReturn:
    """Run one headless operation with the options its command was given (``target`` and ``answers`` when the
    command chose them itself); exit with its code. ``extra``: what the ``--json`` document adds (``list``'s
    weight)."""
    chosen = target if target is not None else opts.target()
    source = answers if answers is not None else opts.answer_source()
    auth = login_config(chosen, opts.login(), error_console())
    code = run_loop(
        run_operation(
            operation,
            target=chosen,
            answers=source,
            auth=auth,
            era=opts.era_mode(),
            record=opts.recording(),
            as_json=opts.as_json,
            settings=opts.session_settings(),
            show_all_calls=show_all_calls,
            show_result=show_result,
            asked_for=asked_for,
            extra=extra,
        )
    )
    raise typer.Exit(code)


async def run_operation(
    operation: Operation,
    *,
    target: Target,
    answers: AnswerSource,
    era: EraMode,
    record: Path | None,
    as_json: bool,
    settings: SessionSettings | None = None,
    show_all_calls: bool = False,
    extra: Callable[[Outcome], dict[str, Any]] | None = None,
    auth: AuthConfig | None = None,
    show_result: ShowResult | None = None,
    asked_for: CallStatus | None = None,
) -> int:
    """Connect, run ``operation``, report, close; returns the exit code. The recording's path is printed on exit.
    ``show_result``: what the printed timeline is followed by when the call completed (``list``'s table).
    ``asked_for``: a status other than complete that is what the command asked for (``task cancel``: cancelled),
    so exit 0 and no error line."""
    session = build_session(target, answers, era=era, record=record, auth=auth, **(settings or {}))
    ProgressLines(error_console()).attach(session.timeline)
    interrupt = Interrupt(session, error_console())
    refused: NotOffered | None = None
    try:
        if not await connect_or_report(session, as_json=as_json):
            say_recorded(record)
            return EXIT_CONNECT
        running = asyncio.ensure_future(operation(session))
        try:
            with interrupt.watching(running):
                outcome = await running
        except NotOffered as why:
            refused = why
        except asyncio.CancelledError:
            if not (interrupt.pressed > 1 and running.cancelled()):
                raise
            outcome = interrupted_outcome(session)  # (the second Ctrl-C: not waiting for the server)
    finally:
        await session.close()
    if refused is not None:
        if as_json:
            sys.stdout.write(json_text(refused.document()) + "\n")
        else:
            say_error(str(refused), NOT_OFFERED_HINT, redactor=session.redactor)
        say_recorded(record)
        return EXIT_NOT_OFFERED
    if as_json:
        doc = outcome_document(outcome, session.timeline, **(extra(outcome) if extra else {}))
        sys.stdout.write(json_text(doc) + "\n")
    else:
        console = out_console()
        call = session.call(outcome.call_index)
        logins = [c for c in session.timeline.calls if c.auth and c is not call]  # a login while connecting
        # The error line below says why the call did not complete, with what to try: the block leaves it out.
        said = outcome.detail if outcome.status != "complete" else ""
        shown = None if show_all_calls else [*logins, call]
        print_timeline(console, session.timeline, calls=shown, leave_out=said)
        if show_result is not None and outcome.ok:
            console.print(show_result(outcome, console.width))
        if outcome.status not in ("complete", asked_for) and outcome.detail:
            say_error(
                f"{call.method} ended {outcome.status}: {outcome.detail}", outcome.hint, redactor=session.redactor
            )
        if outcome.status == "failed":
            # The detail says "the server's stderr says why": headless, it is printed here, under it.
            say_server_stderr([c.text for c in session.timeline.console if c.source == "stderr"])
    say_recorded(record)
    if interrupt.pressed:
        return EXIT_INTERRUPTED
    return 0 if outcome.status == asked_for else outcome.exit_code


def interrupted_outcome(session: InspectorSession) -> Outcome:
    """What the command reports when the user stopped waiting: its last call as it stands on the timeline."""
    call = session.timeline.calls[-1]
    return Outcome(call.index, call.status, detail="interrupted: the command stopped waiting for the server")


def say_recorded(record: Path | None, what: str = "recorded") -> None:
    """Where the recording is (on stderr, after everything else)."""
    if record is not None:
        # (one line whatever the width: a path cut in two cannot be copied from a log)
        error_console().print(Text(f"{what} to {record}", style="dim"), soft_wrap=True)


def write_junit(path: Path, document: str) -> None:
    """Write the JUnit file a command was asked for (``--junit``, for CI), its folder made first; one that cannot be
    written is an error (exit 2), said after the report was printed."""
    from inspector.junit import save_junit

    try:
        save_junit(path, document)
    except OSError as failed:
        say_error(f"could not write the JUnit file {path}: {failed.strerror or failed}", "give --junit a writable path")
        raise typer.Exit(2) from None
