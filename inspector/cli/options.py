"""Options shared by the headless commands, declared once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from inspector.answers.base import AnswerSource
from inspector.answers.build import build_answer_source
from inspector.answers.scripted import AnswersFileError
from inspector.cli.compose import TargetOptions, UsageError, demo_target

ServerOpt = Annotated[
    str | None, typer.Option("--server", "-s", help="An http(s) URL, or a command line run over stdio.")
]
DemoOpt = Annotated[bool, typer.Option("--demo", help="Run the bundled demo server over stdio.")]
HeaderOpt = Annotated[
    list[str] | None, typer.Option("--header", "-H", help="'Name: value' sent on every HTTP request (repeatable).")
]
BearerOpt = Annotated[str | None, typer.Option("--bearer", help="Send 'Authorization: Bearer TOKEN' (never recorded).")]
EnvOpt = Annotated[
    list[str] | None, typer.Option("--env", help="NAME=value for a stdio server's environment (repeatable).")
]
SecretOpt = Annotated[
    list[str] | None, typer.Option("--secret", help="A header or env name whose value is redacted from recordings.")
]
EraOpt = Annotated[str, typer.Option("--era", help="auto (probe with server/discover), modern or legacy.")]
AnswersOpt = Annotated[
    Path | None, typer.Option("--answers", help="JSON file: input-request key -> the exact response.")
]
OnMissingOpt = Annotated[
    str, typer.Option("--on-missing", help="fail, decline, cancel or defaults when no answer is scripted.")
]
StubOpt = Annotated[
    bool, typer.Option("--stub-model", help="Answer sampling requests with the deterministic stub model.")
]
RootOpt = Annotated[
    list[str] | None, typer.Option("--root", help="A directory or file:// URI answered to roots/list (repeatable).")
]
RecordOpt = Annotated[
    Path | None,
    typer.Option(
        "--record", help="Record to this JSONL file (default: a new file in the data folder, see `inspector sessions`)."
    ),
]
NoRecordOpt = Annotated[bool, typer.Option("--no-record", help="Do not record this session.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document instead of the timeline.")]
MaxRoundsOpt = Annotated[int, typer.Option("--max-rounds", min=1, help="Stop after this many input_required rounds.")]
TimeoutOpt = Annotated[float, typer.Option("--timeout", min=0.1, help="Seconds to wait for each response.")]

ERAS = ("auto", "modern", "legacy")
ON_MISSING = ("fail", "decline", "cancel", "defaults")


def target_from(
    server: str | None,
    demo: bool,
    headers: list[str] | None,
    bearer: str | None,
    env: list[str] | None,
    secret: list[str] | None,
) -> TargetOptions:
    """The target from --server/--demo and friends; exactly one of --server and --demo."""
    if demo == (server is not None):
        raise typer.BadParameter("give exactly one of --server SPEC and --demo")
    target = demo_target() if demo else TargetOptions(spec=server or "")
    target.headers = list(headers or [])
    target.bearer = bearer
    target.env = list(env or [])
    target.secret = list(secret or [])
    try:
        target.parsed_headers()
        target.parsed_env()
    except UsageError as bad:
        raise typer.BadParameter(str(bad)) from None
    return target


def era_from(era: str) -> Literal["auto", "modern", "legacy"]:
    """Validated --era."""
    if era not in ERAS:
        raise typer.BadParameter(f"--era must be one of {', '.join(ERAS)}")
    return era  # type: ignore[return-value]


def answers_from(answers: Path | None, on_missing: str, stub: bool, roots: list[str] | None) -> AnswerSource:
    """The headless answer chain; a bad answers file is a usage error with the file's own message."""
    if on_missing not in ON_MISSING:
        raise typer.BadParameter(f"--on-missing must be one of {', '.join(ON_MISSING)}")
    try:
        return build_answer_source(answers, on_missing, stub, list(roots or []))  # type: ignore[arg-type]
    except AnswersFileError as bad:
        raise typer.BadParameter(str(bad)) from None
    except (OSError, ValueError) as bad:
        raise typer.BadParameter(str(bad)) from None
