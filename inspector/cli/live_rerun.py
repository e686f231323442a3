"""The live side of a test module written by ``inspector export RECORDING --as pytest``: one connection to the
server for the module's tests, each recorded call made again on it and its ending asserted.

A composition root like the typer commands (a server spec -> Target -> transport -> session), for pytest instead
of a command line; the re-run itself is ``replay --against``'s: the call's recorded answers (``ReplayAnswers``), the
same request (``rerun.redrive``), the same structural compare (``rerun.ending_differences``), the same wording of a
difference (``report.differences_text``). Pytest is not imported here: a failed check is an ``AssertionError``,
which pytest reports with its message, and this package does not depend on pytest.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from types import TracebackType
from typing import Final

from inspector.cli.wiring import build_session
from inspector.protocol.hinted import HintedError
from inspector.protocol.methods import request_label
from inspector.protocol.sanitize import one_line
from inspector.replay.diff import Difference, JsonPath, parse_pattern
from inspector.replay.recorded_answers import ReplayAnswers
from inspector.replay.recorded_call import RecordedCall
from inspector.replay.rerun import ending_differences, redrive
from inspector.replay.rerun_report import differences_text
from inspector.session.session import ConnectError, EraMode, InspectorSession
from inspector.targets.target import Target
from inspector.timeline.outcome import Outcome
from inspector.transport.base import TransportStartError

STDERR_SHOWN: Final = 10
"""The server's last stderr lines said when it cannot be reached (what it printed before it died)."""


class ServerUnreachable(HintedError):
    """The module's server could not be started or connected to: every test of the module errors with this."""

    def __str__(self) -> str:
        return f"{self.message}\ntry: {self.hint}" if self.hint else self.message


class LiveRerun:
    """One session with ``server`` (a URL, or a command line run over stdio) for a module's tests: opened by
    ``with``, closed at its end; ``check`` makes one recorded call again and asserts it ends as recorded."""

    def __init__(self, server: str, *, era: EraMode = "auto", ignore: Sequence[str] = ()) -> None:
        self.server = server
        self.era: EraMode = era
        self.ignore: list[JsonPath] = [parse_pattern(pattern) for pattern in ignore]
        self._answers = ReplayAnswers()
        # A runner keeps one event loop between the tests, so the session (its process or connection, its reader)
        # lives from the first test to the last; the tests themselves stay plain functions, no pytest plugin needed.
        self._runner: asyncio.Runner | None = None
        self._session: InspectorSession | None = None

    def __enter__(self) -> LiveRerun:
        self._runner = asyncio.Runner()
        try:
            self._session = self._runner.run(self._open())
        except BaseException:
            self._runner.close()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        runner, session = self._runner, self._session
        self._runner = self._session = None
        if runner is None:
            return
        try:
            if session is not None:
                runner.run(session.close())
        finally:
            runner.close()

    async def _open(self) -> InspectorSession:
        session = build_session(Target.from_spec(self.server), self._answers, era=self.era)
        try:
            await session.connect()
        except (ConnectError, TransportStartError) as failure:
            stderr = [line.text for line in session.timeline.console if line.source == "stderr"][-STDERR_SHOWN:]
            await session.close()
            said = "".join(f"\n  server stderr: {one_line(line, 200)}" for line in stderr)
            raise ServerUnreachable(
                f"could not reach {one_line(self.server, 200)}: {session.redact(failure.message)}{said}",
                session.redact(failure.hint) or "set INSPECTOR_SERVER to the server to test (a URL or a command line)",
            ) from None
        # As `replay --against` does before its first call: a tools/list (over HTTP the calls need the tools'
        # schemas for their Mcp-Param headers). Not compared.
        await session.list_all("tools")
        return session

    def check(self, recorded: RecordedCall) -> None:
        """Make ``recorded`` again, answering with its recorded answers; ``AssertionError`` saying each difference
        when its status or final result is not the recorded one (requestState never compared, ``_meta`` left out,
        the ignored paths left out)."""
        __tracebackhide__ = True  # (pytest shows the test's line and the differences, not this method's code)
        if self._runner is None or self._session is None:
            raise RuntimeError("LiveRerun.check outside its `with` block: the connection is not open")
        self._answers.use_answers(recorded.fresh_answers())
        outcome = self._runner.run(redrive(self._session, recorded))
        differences = ending_differences(recorded, outcome, ignore=self.ignore)
        if differences:
            raise AssertionError(self._failure(recorded, outcome, differences))

    def _failure(self, recorded: RecordedCall, outcome: Outcome, differences: list[Difference]) -> str:
        label = one_line(request_label(recorded.method, recorded.params), 120)
        lines = [f"#{recorded.number} {label} ended differently from the recording (against {one_line(self.server)}):"]
        lines.extend(f"  {line}" for line in differences_text(differences))
        if outcome.detail and outcome.status != recorded.status:
            lines.append(f"  live: {one_line(outcome.detail, 300)}")
        unused = self._answers.unused_note()
        notes = [*self._answers.notes, *([unused] if unused is not None else [])]
        lines.extend(f"  note: {one_line(note, 300)}" for note in notes)
        return "\n".join(lines)
