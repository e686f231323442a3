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
from dataclasses import MISSING, dataclass, field, fields
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final, TypeVar, get_type_hints

import typer

from inspector.cli.login_choices import LoginChoices
from inspector.paths import open_private
from inspector.protocol.json_input import parse_object
from inspector.protocol.task_polling import TASK_TIMEOUT_S
from inspector.targets.target import ERAS, Era, Target, TargetError, parse_env, parse_headers

if TYPE_CHECKING:
    from inspector.answers.source import AnswerSource
    from inspector.cli.wiring import SessionSettings
    from inspector.replay.diff import JsonPath

# Every command module imports this one, and `inspector --help` imports every command module: what only runs a
# command (the answers chain, replay's paths) is imported where it is used (tests/perf/bench_cold.py).

ON_MISSING = ("fail", "decline", "cancel", "defaults")


def _flags_without_a_type() -> None:
    """Typer writes ``<bool>`` after every plain flag in ``--help`` (``--json <bool>``), as if it took a value: a
    process-wide patch to typer's help, made once here, by the module every command with flags imports."""
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
    TASKS = "--task-timeout: how long a task is followed before it is cancelled"
    LOGIN = "--no-login, the client to log in as, and how the browser is reached"


OPTION: Final = "typer option"
"""The key of a shared option's typer declaration in the metadata of its ``ConnectOptions`` field."""


def option(*flags: str, help: str, **limits: Any) -> dict[str, Any]:
    """A ``ConnectOptions`` field's metadata: its option's flags, help and typer's ``limits`` (``min``, ``max``)."""
    return {OPTION: typer.Option(*flags, help=help, **limits)}


LOG_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


@dataclass(slots=True)
class ConnectOptions:
    """The shared options as one object: what the command was told about the server and how to run against it.
    Each field declares its option too (its metadata: ``option``): ``connects`` makes a command's parameters from
    these fields."""

    server: str | None = field(
        default=None, metadata=option("--server", "-s", help="An http(s) URL, or a command line run over stdio.")
    )
    demo: bool = field(default=False, metadata=option("--demo", help="Run the bundled demo server over stdio."))
    header: list[str] = field(
        default_factory=list,
        metadata=option("--header", "-H", help="'Name: value' sent on every HTTP request (repeatable)."),
    )
    bearer: str | None = field(
        default=None, metadata=option("--bearer", help="Send 'Authorization: Bearer TOKEN' (never recorded).")
    )
    env: list[str] = field(
        default_factory=list, metadata=option("--env", help="NAME=value for a stdio server's environment (repeatable).")
    )
    secret: list[str] = field(
        default_factory=list,
        metadata=option("--secret", help="A header or env name whose value is redacted from recordings."),
    )
    era: str = field(
        default="auto", metadata=option("--era", help="auto (probe with server/discover), modern or legacy.")
    )
    no_tasks: bool = field(
        default=False,
        metadata=option(
            "--no-tasks", help="Do not declare the Tasks extension (see how the server behaves without it)."
        ),
    )
    log_level: str | None = field(
        default=None,
        metadata=option(
            "--log-level",
            help="The server's logs to get, from this level up "
            "(each request's _meta; logging/setLevel on legacy servers).",
        ),
    )
    answers: Path | None = field(
        default=None, metadata=option("--answers", help="JSON file: input-request key -> the exact response.")
    )
    on_missing: str = field(
        default="fail",
        metadata=option("--on-missing", help="fail, decline, cancel or defaults when no answer is scripted."),
    )
    stub_model: bool = field(
        default=False,
        metadata=option("--stub-model", help="Answer sampling requests with the deterministic stub model."),
    )
    root: list[str] = field(
        default_factory=list,
        metadata=option("--root", help="A directory or file:// URI answered to roots/list (repeatable)."),
    )
    record: Path | None = field(
        default=None,
        metadata=option(
            "--record",
            help="Record to this JSONL file (default: a new file in the data folder, see `inspector sessions`).",
        ),
    )
    no_record: bool = field(default=False, metadata=option("--no-record", help="Do not record this session."))
    as_json: bool = field(
        default=False, metadata=option("--json", help="Print one JSON document instead of the timeline.")
    )
    max_rounds: int = field(
        default=10, metadata=option("--max-rounds", min=1, help="Stop after this many input_required rounds.")
    )
    timeout: float = field(
        default=60.0,
        metadata=option(
            "--timeout", min=0.1, help="Seconds to wait for each response (each progress notification resets it)."
        ),
    )
    max_timeout: float = field(
        default=600.0,
        metadata=option(
            "--max-timeout", min=0.1, help="Seconds progress notifications can keep one request waiting, in all."
        ),
    )
    task_timeout: float = field(
        default=TASK_TIMEOUT_S,
        metadata=option(
            "--task-timeout",
            min=0.0,
            help="Seconds a task is followed before it is cancelled (tasks/cancel, a task-timeout finding, exit 3); "
            "0: no limit.",
        ),
    )
    no_login: bool = field(
        default=False,
        metadata=option("--no-login", help="Never start an OAuth login (CI): stored logins are used, else exit 3."),
    )
    client_id: str | None = field(
        default=None,
        metadata=option("--client-id", help="Log in as this pre-registered OAuth client (no registration)."),
    )
    client_secret: str | None = field(
        default=None,
        metadata=option(
            "--client-secret", help="Its secret (visible to other users in the process list: prefer -env)."
        ),
    )
    client_secret_env: str | None = field(
        default=None,
        metadata=option("--client-secret-env", help="The environment variable that holds the client secret."),
    )
    client_metadata_url: str | None = field(
        default=None,
        metadata=option(
            "--client-metadata-url", help="An https Client ID Metadata Document URL, used where servers take it."
        ),
    )
    no_browser: bool = field(
        default=False,
        metadata=option("--no-browser", help="Print the login URL instead of opening a browser; paste the redirect."),
    )
    login_timeout: float = field(
        default=300.0,
        metadata=option("--login-timeout", min=1.0, help="Seconds a login waits for the browser to come back."),
    )
    callback_port: int | None = field(
        default=None,
        metadata=option(
            "--callback-port", min=1, max=65535, help="Loopback port for the login redirect (default: any)."
        ),
    )
    accept_login_risks: bool = field(
        default=False,
        metadata=option(
            "--accept-login-risks",
            help="Go on with a login whose addresses were warned about (a user name before '@', an endpoint on "
            "another origin, plain http off this machine); without it such a login stops before opening anything.",
        ),
    )
    dpop: bool | None = field(
        default=None,
        metadata=option(
            "--dpop/--no-dpop",
            help="Bind the login's token to a key made for it (DPoP, RFC 9449) where the authorization server takes "
            "ES256 proofs; --no-dpop: never (neither: only when the server requires it). A bound token is not stored.",
        ),
    )
    jwt_bearer_assertion_file: Path | None = field(
        default=None,
        metadata=option(
            "--jwt-bearer-assertion-file",
            help="Log in as a workload: present the JWT in this file (read at each token request: platforms rotate "
            "it) with the jwt-bearer grant (RFC 7523, SEP-1933); no browser, no registration, nothing stored.",
        ),
    )
    jwt_bearer_assertion_env: str | None = field(
        default=None,
        metadata=option("--jwt-bearer-assertion-env", help="The same, with the JWT in this environment variable."),
    )

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
        assertion = self._workload_assertion()
        if assertion is not None and (secret or url):
            raise typer.BadParameter("a workload logs in with its assertion alone: drop the client secret and CIMD URL")
        if assertion is not None and self.no_login:
            raise typer.BadParameter("--no-login forbids a workload's login too (its token is never stored): drop one")
        return LoginChoices(
            allowed=not self.no_login,
            client_id=self.client_id,
            client_secret=secret,
            client_metadata_url=url,
            browser=not self.no_browser,
            timeout=self.login_timeout,
            callback_port=self.callback_port,
            accept_risks=self.accept_login_risks,
            dpop="auto" if self.dpop is None else "on" if self.dpop else "off",
            assertion_file=str(self.jwt_bearer_assertion_file) if self.jwt_bearer_assertion_file else None,
            assertion=assertion if self.jwt_bearer_assertion_env else None,
        )

    def _workload_assertion(self) -> str | None:
        """The workload's JWT as it reads now (checked here, so a typo is a usage error, not a failed login), from
        --jwt-bearer-assertion-file or --jwt-bearer-assertion-env; None when neither is given."""
        path, name = self.jwt_bearer_assertion_file, self.jwt_bearer_assertion_env
        if path is not None and name:
            raise typer.BadParameter("give one of --jwt-bearer-assertion-file and --jwt-bearer-assertion-env")
        if name:
            value = os.environ.get(name, "").strip()
            if not value:
                raise typer.BadParameter(f"--jwt-bearer-assertion-env {name}: that variable is not set")
            return value
        if path is None:
            return None
        try:
            text = path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as bad:
            raise typer.BadParameter(f"cannot read {path}: {bad}", param_hint="--jwt-bearer-assertion-file") from None
        if not text:
            raise typer.BadParameter(f"{path} is empty", param_hint="--jwt-bearer-assertion-file")
        return text

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
            "task_timeout": self.task_timeout or None,
        }

    def answer_source(self) -> AnswerSource:
        """The headless answer chain; a bad answers file is a usage error with the file's own message."""
        if self.on_missing not in ON_MISSING:
            raise typer.BadParameter(f"--on-missing must be one of {', '.join(ON_MISSING)}")
        from inspector.answers.build import build_answer_source
        from inspector.answers.scripted import AnswersFileError

        try:
            return build_answer_source(self.answers, self.on_missing, self.stub_model, self.root)  # type: ignore[arg-type]
        except (AnswersFileError, OSError, ValueError) as bad:
            raise typer.BadParameter(str(bad)) from None

    def recording(self) -> Path | None:
        """Where to record: --record, else a new default recording, unless --no-record."""
        if self.no_record:
            return None
        if self.record is not None:
            return writable_recording(self.record)
        from inspector.cli.wiring import default_recording_path

        return default_recording_path()


def writable_recording(path: Path) -> Path:
    """``path`` once a recording can be written there (its folder made), else a usage error that says why."""
    try:
        os.close(open_private(path, append=True))  # (its folders made 0700 and it 0600 now, as the recorder keeps it)
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise typer.BadParameter(f"cannot record to {path}: {why}; give another path", param_hint="--record") from None
    return path


_SHARED: Final[dict[Group, tuple[str, ...]]] = {
    Group.SERVER: ("server", "demo"),
    Group.TARGET: ("header", "bearer", "env", "secret"),
    Group.ERA: ("era", "no_tasks", "log_level"),
    Group.ANSWERS: ("answers", "on_missing"),
    Group.HELPERS: ("stub_model", "root"),
    Group.RECORD: ("record", "no_record"),
    Group.JSON: ("as_json",),
    Group.LIMITS: ("max_rounds", "timeout", "max_timeout"),
    Group.TASKS: ("task_timeout",),
    Group.LOGIN: (
        "no_login",
        "client_id",
        "client_secret",
        "client_secret_env",
        "client_metadata_url",
        "no_browser",
        "login_timeout",
        "callback_port",
        "accept_login_risks",
        "dpop",
        "jwt_bearer_assertion_file",
        "jwt_bearer_assertion_env",
    ),
}
"""Group -> the ``ConnectOptions`` fields of its options, in the order --help lists them."""


def _parameters() -> dict[str, inspect.Parameter]:
    """Each shared option as a keyword parameter of a command: the field's type (or None, for a repeatable one not
    given) annotated with its typer declaration, and the field's default."""
    types = get_type_hints(ConnectOptions)
    out: dict[str, inspect.Parameter] = {}
    for declared in fields(ConnectOptions):
        repeated = declared.default is MISSING
        kind = types[declared.name] | None if repeated else types[declared.name]
        out[declared.name] = inspect.Parameter(
            declared.name,
            inspect.Parameter.KEYWORD_ONLY,
            default=None if repeated else declared.default,
            annotation=Annotated[kind, declared.metadata[OPTION]],
        )
    return out


_PARAMETERS: Final = _parameters()
"""Field name -> the command-line parameter ``connects`` adds for it."""
_REPEATABLE: Final = frozenset(declared.name for declared in fields(ConnectOptions) if declared.default is MISSING)
"""The repeatable options (typer gives None for one not given, ``ConnectOptions`` an empty list)."""
# The task and sessions commands take these two as options of their own (not through ``connects``).
ServerOpt = Annotated[str | None, _PARAMETERS["server"].annotation.__metadata__[0]]
JsonOpt = Annotated[bool, _PARAMETERS["as_json"].annotation.__metadata__[0]]


Command = TypeVar("Command", bound=Callable[..., Any])


def connects(*groups: Group) -> Callable[[Command], Command]:
    """Give a command the shared options of ``groups``; it is called with them as ``opts: ConnectOptions``."""
    names = [name for group in groups for name in _SHARED[group]]
    added = [_PARAMETERS[name] for name in names]

    def decorate(command: Command) -> Command:
        own = inspect.signature(command, eval_str=True)
        params = [p for p in own.parameters.values() if p.name != "opts"]

        @functools.wraps(command)
        def with_options(*args: Any, **kwargs: Any) -> Any:
            given = {name: kwargs.pop(name) for name in names}
            for name in _REPEATABLE.intersection(given):
                if given[name] is None:
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


def ignore_patterns(ignore: list[str] | None) -> list[JsonPath]:
    """The ``--ignore`` paths a comparison leaves out (``lab``, ``replay --against``), or a usage error naming the
    bad one."""
    from inspector.replay.diff import PatternError, parse_pattern

    try:
        return [parse_pattern(pattern) for pattern in ignore or []]
    except PatternError as bad:
        raise typer.BadParameter(str(bad)) from None


__all__ = ["ConnectOptions", "Group", "connects", "ignore_patterns", "json_object"]
