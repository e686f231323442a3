"""The options every command that connects shares, declared once, and handed to the command as one object.

Typer reads a command's options from its signature, and has no option groups; so ``@connects(...)`` adds the
shared parameters of the groups a command takes to its signature, and calls the command with one
``ConnectOptions`` made from them. The command keeps only what is its own (a tool name, ``--args``).
"""

from __future__ import annotations

import functools
import inspect
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from inspector.answers.base import AnswerSource
from inspector.answers.build import build_answer_source
from inspector.answers.scripted import AnswersFileError
from inspector.protocol.json_input import parse_object
from inspector.targets.target import ERAS, Era, Target, TargetError, parse_env, parse_headers

if TYPE_CHECKING:
    from inspector.cli.wiring import SessionSettings

ON_MISSING = ("fail", "decline", "cancel", "defaults")


def _flags_without_a_type() -> None:
    """Typer writes ``<bool>`` after every plain flag in ``--help`` (``--json <bool>``), as if it took a value.
    A flag's help line names no type: a process-wide patch to typer's help, so it is made here, in the composition
    root, once, by the module every command with flags imports."""
    from typer.core import TyperOption

    shown = TyperOption.display_type_rich

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag else shown(self, ctx)

    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


_flags_without_a_type()


class Group(Enum):
    """Which shared options a command takes."""

    SERVER = "--server SPEC or --demo"
    TARGET = "headers, bearer, env and secrets of the target"
    ERA = "--era, --no-tasks, --log-level: what the inspector speaks and asks for"
    ANSWERS = "--answers FILE and --on-missing POLICY"
    HELPERS = "--stub-model and --root: what answers sampling and roots/list"
    RECORD = "--record / --no-record"
    JSON = "--json"
    LIMITS = "--max-rounds, --timeout, --max-timeout"
    LOGIN = "--no-login, the client to log in as, and how the browser is reached"


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
LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
LogLevelOpt = Annotated[
    str | None,
    typer.Option(
        "--log-level",
        help="The server's logs to get, from this level up (each request's _meta; logging/setLevel on legacy servers).",
    ),
]
NoTasksOpt = Annotated[
    bool,
    typer.Option("--no-tasks", help="Do not declare the Tasks extension (see how the server behaves without it)."),
]
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
TimeoutOpt = Annotated[
    float,
    typer.Option(
        "--timeout", min=0.1, help="Seconds to wait for each response (each progress notification resets it)."
    ),
]
MaxTimeoutOpt = Annotated[
    float,
    typer.Option("--max-timeout", min=0.1, help="Seconds progress notifications can keep one request waiting, in all."),
]
NoLoginOpt = Annotated[
    bool,
    typer.Option("--no-login", help="Never start an OAuth login (CI): stored logins are used, else exit 3."),
]
ClientIdOpt = Annotated[
    str | None, typer.Option("--client-id", help="Log in as this pre-registered OAuth client (no registration).")
]
ClientSecretOpt = Annotated[
    str | None,
    typer.Option("--client-secret", help="Its secret (visible to other users in the process list: prefer -env)."),
]
ClientSecretEnvOpt = Annotated[
    str | None, typer.Option("--client-secret-env", help="The environment variable that holds the client secret.")
]
ClientMetadataUrlOpt = Annotated[
    str | None,
    typer.Option("--client-metadata-url", help="An https Client ID Metadata Document URL, used where servers take it."),
]
NoBrowserOpt = Annotated[
    bool, typer.Option("--no-browser", help="Print the login URL instead of opening a browser; paste the redirect.")
]
LoginTimeoutOpt = Annotated[
    float, typer.Option("--login-timeout", min=1.0, help="Seconds a login waits for the browser to come back.")
]
CallbackPortOpt = Annotated[
    int | None,
    typer.Option("--callback-port", min=1, max=65535, help="Loopback port for the login redirect (default: any)."),
]

_SHARED: dict[Group, list[tuple[str, Any, Any]]] = {
    Group.SERVER: [("server", ServerOpt, None), ("demo", DemoOpt, False)],
    Group.TARGET: [
        ("header", HeaderOpt, None),
        ("bearer", BearerOpt, None),
        ("env", EnvOpt, None),
        ("secret", SecretOpt, None),
    ],
    Group.ERA: [("era", EraOpt, "auto"), ("no_tasks", NoTasksOpt, False), ("log_level", LogLevelOpt, None)],
    Group.ANSWERS: [("answers", AnswersOpt, None), ("on_missing", OnMissingOpt, "fail")],
    Group.HELPERS: [("stub_model", StubOpt, False), ("root", RootOpt, None)],
    Group.RECORD: [("record", RecordOpt, None), ("no_record", NoRecordOpt, False)],
    Group.JSON: [("as_json", JsonOpt, False)],
    Group.LIMITS: [
        ("max_rounds", MaxRoundsOpt, 10),
        ("timeout", TimeoutOpt, 60.0),
        ("max_timeout", MaxTimeoutOpt, 600.0),
    ],
    Group.LOGIN: [
        ("no_login", NoLoginOpt, False),
        ("client_id", ClientIdOpt, None),
        ("client_secret", ClientSecretOpt, None),
        ("client_secret_env", ClientSecretEnvOpt, None),
        ("client_metadata_url", ClientMetadataUrlOpt, None),
        ("no_browser", NoBrowserOpt, False),
        ("login_timeout", LoginTimeoutOpt, 300.0),
        ("callback_port", CallbackPortOpt, None),
    ],
}
"""Group -> (parameter name, typer annotation, default) of each shared option, in the order --help lists them."""


@dataclass(slots=True)
class ConnectOptions:
    """The shared options as one object: what the command was told about the server and how to run against it."""

    server: str | None = None
    demo: bool = False
    header: list[str] = field(default_factory=list)
    bearer: str | None = None
    env: list[str] = field(default_factory=list)
    secret: list[str] = field(default_factory=list)
    era: str = "auto"
    no_tasks: bool = False
    log_level: str | None = None
    answers: Path | None = None
    on_missing: str = "fail"
    stub_model: bool = False
    root: list[str] = field(default_factory=list)
    record: Path | None = None
    no_record: bool = False
    as_json: bool = False
    max_rounds: int = 10
    timeout: float = 60.0
    max_timeout: float = 600.0
    no_login: bool = False
    client_id: str | None = None
    client_secret: str | None = None
    client_secret_env: str | None = None
    client_metadata_url: str | None = None
    no_browser: bool = False
    login_timeout: float = 300.0
    callback_port: int | None = None

    def login(self) -> LoginChoices:
        """The login options, checked (a usage error says which is wrong)."""
        secret = self.client_secret
        if self.client_secret_env:
            secret = os.environ.get(self.client_secret_env)
            if not secret:
                raise typer.BadParameter(f"--client-secret-env {self.client_secret_env}: that variable is not set")
        if secret and not self.client_id:
            raise typer.BadParameter("a client secret needs --client-id")
        url = self.client_metadata_url
        if url is not None and not (url.startswith("https://") and url.split("://", 1)[1].strip("/").count("/")):
            raise typer.BadParameter("--client-metadata-url must be an https URL with a path")
        return LoginChoices(
            allowed=not self.no_login,
            client_id=self.client_id,
            client_secret=secret,
            client_metadata_url=url,
            browser=not self.no_browser,
            timeout=self.login_timeout,
            callback_port=self.callback_port,
        )

    def target(self, spec: str | None = None) -> Target:
        """The target: ``spec`` (a command's own argument), else exactly one of --server and --demo."""
        if spec is None:
            if self.demo == (self.server is not None):
                raise typer.BadParameter("give exactly one of --server SPEC and --demo")
            if self.demo:
                from inspector.cli.wiring import demo_target

                return demo_target()
            spec = self.server or ""
        try:
            return Target.from_spec(
                spec,
                headers=parse_headers(self.header, self.bearer),
                env=parse_env(self.env),
                secret_names=set(self.secret),
                era=self.era_mode(),
            )
        except TargetError as bad:
            raise typer.BadParameter(str(bad)) from None

    def era_mode(self) -> Era:
        """Validated --era."""
        if self.era not in ERAS:
            raise typer.BadParameter(f"--era must be one of {', '.join(ERAS)}")
        return self.era

    def log_level_asked(self) -> str | None:
        """Validated --log-level."""
        if self.log_level is not None and self.log_level not in LOG_LEVELS:
            raise typer.BadParameter(f"--log-level must be one of {', '.join(LOG_LEVELS)}")
        return self.log_level

    def session_settings(self) -> SessionSettings:
        """How the session runs, as these options say (each key an ``InspectorSession`` option)."""
        return {
            "tasks": not self.no_tasks,
            "max_rounds": self.max_rounds,
            "timeout": self.timeout,
            "max_timeout": self.max_timeout,
            "log_level": self.log_level_asked(),
        }

    def answer_source(self) -> AnswerSource:
        """The headless answer chain; a bad answers file is a usage error with the file's own message."""
        if self.on_missing not in ON_MISSING:
            raise typer.BadParameter(f"--on-missing must be one of {', '.join(ON_MISSING)}")
        try:
            return build_answer_source(self.answers, self.on_missing, self.stub_model, self.root)  # type: ignore[arg-type]
        except (AnswersFileError, OSError, ValueError) as bad:
            raise typer.BadParameter(str(bad)) from None

    def recording(self) -> Path | None:
        """Where to record: --record, else a new default recording, unless --no-record."""
        if self.no_record:
            return None
        if self.record is not None:
            return self.record
        from inspector.cli.wiring import default_recording_path

        return default_recording_path()


@dataclass(frozen=True, slots=True)
class LoginChoices:
    """How the user allows a login to run (``cli.wiring.login_config`` turns it into the transport's config)."""

    allowed: bool = True
    client_id: str | None = None
    client_secret: str | None = field(default=None, repr=False)
    client_metadata_url: str | None = None
    browser: bool = True
    timeout: float = 300.0
    callback_port: int | None = None


Command = TypeVar("Command", bound=Callable[..., Any])


def connects(*groups: Group) -> Callable[[Command], Command]:
    """Give a command the shared options of ``groups``; it is called with them as ``opts: ConnectOptions``."""
    shared = [entry for group in groups for entry in _SHARED[group]]

    def decorate(command: Command) -> Command:
        own = inspect.signature(command, eval_str=True)
        params = [p for p in own.parameters.values() if p.name != "opts"]
        added = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=d, annotation=a) for name, a, d in shared
        ]
        names = [name for name, _, _ in shared]

        @functools.wraps(command)
        def with_options(*args: Any, **kwargs: Any) -> Any:
            given = {name: kwargs.pop(name) for name in names}
            for name in ("header", "env", "secret", "root"):
                if name in given and given[name] is None:
                    given[name] = []
            return command(*args, opts=ConnectOptions(**given), **kwargs)

        signature = own.replace(parameters=[*params, *added], return_annotation=own.return_annotation)
        with_options.__signature__ = signature  # type: ignore[attr-defined]
        with_options.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
        return with_options  # type: ignore[return-value]

    return decorate


def json_object(text: str | None, option: str) -> dict[str, Any]:
    """A JSON object given on the command line (``--args``), or a usage error that says what is wrong."""
    value, problem = parse_object(text, option)
    if value is None:
        raise typer.BadParameter(problem)
    return value


__all__ = ["ConnectOptions", "Group", "LoginChoices", "connects", "json_object"]
