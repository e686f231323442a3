"""``inspector lab [stateless|tamper|eras]``: the statelessness lab against the user's server (or the demo).

The composition root's part: which instances (one stdio SPEC is two processes of it; two SPECs are A and B;
``--demo [--flaw F]`` is two demo processes sharing a sealing key and a task folder), which calls (``--call TOOL
[--args JSON]``, repeatable and paired in the order given; ``--from RECORDING``; the demo's flows), how each
session is built and recorded (one recording per session: the main one holds A and B, each round tagged with its
instance). The checks are ``inspector.lab``'s. Exit 0 every check passed, 1 one failed, 2 usage, 3 connection.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer
from typer.core import TyperCommand

from inspector.cli.options import ConnectOptions, Group, connects, ignore_patterns
from inspector.demo.flaw_names import FLAWS, STATE_KEY_ENV, TASK_DIR_ENV
from inspector.protocol.json_input import parse_object
from inspector.protocol.redact import REDACTED
from inspector.protocol.sanitize import clean, json_text
from inspector.targets.target import Target

if TYPE_CHECKING:
    from rich.console import Console

    from inspector.answers.source import AnswerSource
    from inspector.lab.lab_calls import LabCall
    from inspector.lab.lab_events import LabEvent
    from inspector.session.session import EraMode, InspectorSession
    from inspector.transport.base import Transport
    from inspector.transport.oauth.config import AuthConfig

# `inspector --help` imports this module: the lab, the session and the transports are imported where they are used
# (tests/perf/bench_cold.py).

CALLS_META: Final = "inspector.lab.lab_calls"
DEMO_EXTRA: Final = [("tool", "update_work_item", {"workItemId": 4343, "fields": {"state": "Resolved"}})]
"""A second call of one demo tool with other arguments: ``lab tamper`` sends each call the other's state."""


class CallsInOrder(TyperCommand):
    """Keeps ``--call`` and ``--args`` paired as typed: each ``--args`` belongs to the ``--call`` before it (click
    collects two repeated options into two lists and loses which went with which)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        ctx.meta[CALLS_META] = pair_calls(list(args))
        return super().parse_args(ctx, args)


def pair_calls(args: list[str]) -> list[tuple[str, str | None]] | str:
    """``[(tool, args JSON or None)]`` in command-line order, or what is wrong with them."""
    pairs: list[list[Any]] = []
    index = 0
    while index < len(args):
        name, equals, value = args[index].partition("=")
        if args[index] == "--":
            break
        if name not in ("--call", "--args"):
            index += 1
            continue
        if not equals:
            value = args[index + 1] if index + 1 < len(args) else ""
            index += 2
        else:
            index += 1
        if name == "--call":
            pairs.append([value, None])
        elif not pairs or pairs[-1][1] is not None:
            return "--args belongs to the --call TOOL before it (one --args per --call)"
        else:
            pairs[-1][1] = value
    return [(str(tool), arguments) for tool, arguments in pairs]


class CliTargets:
    """``LabTargets`` over the command line's instances: transports from the wiring, one recording per part."""

    def __init__(
        self,
        targets: dict[str, Target],
        opts: ConnectOptions,
        *,
        record: Path | None,
        auth: Mapping[str, AuthConfig | None] | None = None,
    ) -> None:
        self.targets = targets
        self.opts = opts
        self.record = record
        self.auth = dict(auth or {})
        """How each HTTP instance is logged in to when it asks (none: a 401 stands, as with --no-login)."""
        self._made: dict[str, str] = {}
        logins = [s for a in self.auth.values() if a is not None for s in a.credentials.secrets()]
        self._secrets = sorted({*(s for t in targets.values() for s in t.secrets()), *logins})

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.targets)

    def describe(self, name: str) -> str:
        target = self.targets[name]
        spec = target.name or target.spec
        for secret in self._secrets:
            spec = spec.replace(secret, REDACTED)
        return spec

    def transport(self, name: str) -> Transport:
        from inspector.cli.wiring import build_transport

        return build_transport(self.targets[name], self.auth.get(name))

    def _path(self, part: str) -> Path | None:
        if self.record is None:
            return None
        return self.record if part == "main" else self.record.with_name(f"{self.record.stem}-{part}.jsonl")

    def session(self, transport: Transport, answers: AnswerSource, *, era: EraMode, part: str) -> InspectorSession:
        from inspector.cli.wiring import session_over

        path = self._path(part)
        if path is not None:
            self._made[part] = str(path)
        return session_over(
            transport,
            self.targets["A"],
            answers,
            era=era,
            record=path,
            described=f"lab {part} · {transport.describe()}",
            secrets=self._secrets,
            **self.opts.session_settings(),
        )

    def recording(self, part: str) -> str | None:
        return self._made.get(part)


def shared_task_folder() -> Path:
    """A new folder for two demo processes to keep their tasks in (``demo/task_share.py``), gone when this process
    ends (a lab run is over by then)."""
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="inspector-lab-tasks-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return Path(folder)


def demo_instances(flaw: str | None = None, name: str = "inspector demo-server") -> dict[str, Target]:
    """A and B as two processes of the demo (with ``flaw``), sealing requestState under one key and keeping their
    tasks in one folder, as a well-run deployment would (the flaws own-key and own-tasks aside)."""
    import secrets

    from inspector.cli.wiring import DEMO_COMMAND

    command = [*DEMO_COMMAND, *(["--flaw", flaw] if flaw else [])]
    env = {STATE_KEY_ENV: secrets.token_hex(32), TASK_DIR_ENV: str(shared_task_folder())}
    named = name + (f" --flaw {flaw}" if flaw else "")
    target = Target.from_spec(shlex.join(command), env=env, secret_names={STATE_KEY_ENV}, name=named)
    return {"A": target, "B": target}


def demo_calls() -> list[LabCall]:
    """The demo's flows as lab calls (and a second ``update_work_item``, whose state ``tamper`` swaps in)."""
    from inspector.cli.demo_flows import DEMO_FLOWS
    from inspector.lab.lab_calls import LabCall, tool_call

    calls: list[LabCall] = []
    for kind, name, args in [*DEMO_FLOWS, *DEMO_EXTRA]:
        if kind == "tool":
            calls.append(tool_call(name, args))
        elif kind == "prompt":
            calls.append(LabCall("prompts/get", {"name": name, "arguments": {k: str(v) for k, v in args.items()}}))
        else:
            calls.append(LabCall("resources/read", {"uri": name}))
    return calls


def _instances(opts: ConnectOptions, servers: list[str], flaw: str | None, demo: bool) -> dict[str, Target]:
    if demo:
        if servers:
            raise typer.BadParameter("give --demo or --server, not both")
        return demo_instances(flaw)
    if flaw is not None:
        raise typer.BadParameter("--flaw goes with --demo")
    if not servers or len(servers) > 2:
        raise typer.BadParameter("give --server A (and --server B), or --demo")
    made = [opts.target(spec) for spec in servers]
    if len(made) == 1 and made[0].kind == "http":
        raise typer.BadParameter(
            "one URL is one instance: give --server twice (two instances, no sticky sessions), or a stdio command "
            "(the lab starts it twice)"
        )
    return {"A": made[0], "B": made[-1]}


def _calls(pairs: list[tuple[str, str | None]], recording: Path | None, demo: bool) -> list[LabCall]:
    from inspector.lab.lab_calls import tool_call
    from inspector.lab.plan import calls_from_recording
    from inspector.replay.loader import RecordingError, build_loaded, load_recording

    calls: list[LabCall] = []
    if recording is not None:
        try:
            loaded = load_recording(recording)
        except RecordingError as bad:
            raise typer.BadParameter(f"{bad.message} ({bad.hint})") from None
        calls.extend(calls_from_recording(build_loaded(loaded)))
        if not calls:
            raise typer.BadParameter(f"{recording} has no call to make again (only a handshake or lists)")
    for tool, arguments in pairs:
        value, problem = parse_object(arguments, f"--args of --call {tool}") if arguments is not None else ({}, "")
        if value is None:
            raise typer.BadParameter(problem)
        calls.append(tool_call(tool, value if arguments is not None else None))
    if demo and not calls:
        calls.extend(demo_calls())
    if not calls:
        raise typer.BadParameter("nothing to call: give --call TOOL [--args JSON] (repeatable) or --from RECORDING")
    return calls


def _progress(console: Console) -> Any:
    from rich.text import Text

    from inspector.lab.lab_events import RowAdded, StageStarted

    def listen(event: LabEvent) -> None:
        if isinstance(event, StageStarted):
            console.print(Text(f"lab: {event.stage}", style="bold") + Text(f" · {clean(event.detail)}", style="dim"))
        elif isinstance(event, RowAdded) and event.row.verdict == "fail":
            console.print(Text(f"  ✗ {clean(event.row.check)}", style="red"))

    return listen


CheckArg = Annotated[str | None, typer.Argument(help="stateless, tamper or eras (default: all three).")]
ServersOpt = Annotated[
    list[str] | None, typer.Option("--server", "-s", help="Instance A, then B: a URL or a stdio command (repeatable).")
]
DemoOpt = Annotated[bool, typer.Option("--demo", help="Two processes of the bundled demo server.")]
FlawOpt = Annotated[str | None, typer.Option("--flaw", help=f"With --demo: a demo that fails ({', '.join(FLAWS)}).")]
FromOpt = Annotated[Path | None, typer.Option("--from", help="Make every call of this recording, with its answers.")]
CallOpt = Annotated[list[str] | None, typer.Option("--call", help="A tool to call (repeatable; --args after it).")]
ArgsOpt = Annotated[list[str] | None, typer.Option("--args", help="The JSON arguments of the --call before it.")]
IgnoreOpt = Annotated[list[str] | None, typer.Option("--ignore", help="A result path not compared (repeatable).")]
JunitOpt = Annotated[Path | None, typer.Option("--junit", help="Also write the verdicts as JUnit XML (for CI).")]


@connects(Group.TARGET, Group.ERA, Group.ANSWERS, Group.HELPERS, Group.RECORD, Group.JSON, Group.LIMITS, Group.LOGIN)
def lab(
    ctx: typer.Context,
    check: CheckArg = None,
    server: ServersOpt = None,
    demo: DemoOpt = False,
    flaw: FlawOpt = None,
    from_: FromOpt = None,
    call: CallOpt = None,
    args: ArgsOpt = None,
    ignore: IgnoreOpt = None,
    junit: JunitOpt = None,
    *,
    opts: ConnectOptions,
) -> None:
    """The statelessness lab (seed 004): two instances A and B, no sticky sessions. `stateless`: discover on A and
    every call on B; each multi-round call crossing instances at every retry; a task made on A, looked up on B.
    `tamper`: every requestState sent back altered (experiments), the server must refuse. `eras`: the same calls
    in both eras, and the era probe's verdict. Exit 0 all passed, 1 a check failed, 2 usage, 3 connection."""
    from inspector.cli.demo_flows import example_answers_path
    from inspector.cli.run import error_console, say_error, write_junit
    from inspector.cli.wiring import login_config, run_loop
    from inspector.headless.terminal import out_console
    from inspector.lab.plan import CHECKS, LabOptions
    from inspector.lab.report_formats import junit_xml, print_report, report_json

    if check is not None and check not in CHECKS:
        raise typer.BadParameter(f"CHECK must be one of {', '.join(CHECKS)} (or none: all three)")
    if flaw is not None and flaw not in FLAWS:
        raise typer.BadParameter(f"--flaw must be one of {', '.join(FLAWS)}")
    pairs = ctx.meta.get(CALLS_META, [])
    if isinstance(pairs, str):
        raise typer.BadParameter(pairs)
    targets = _instances(opts, list(server or []), flaw, demo)
    calls = _calls(pairs, from_, demo)
    patterns = ignore_patterns(ignore)
    if demo and opts.answers is None:
        opts.answers = example_answers_path()
        opts.stub_model = True
    source = opts.answer_source()
    options = LabOptions(calls, (check,) if check else CHECKS, patterns, era=opts.era_mode())
    logins = {name: login_config(target, opts.login(), error_console()) for name, target in targets.items()}
    cli_targets = CliTargets(targets, opts, record=opts.recording(), auth=logins)
    from inspector.lab.lab_run import Lab

    runner = Lab(cli_targets, source, options)
    runner.subscribe(_progress(error_console()))
    report = run_loop(runner.run())
    if junit is not None:
        write_junit(junit, junit_xml(report))
    if opts.as_json:
        sys.stdout.write(json_text(report_json(report)) + "\n")
    else:
        print_report(out_console(), report)
    if report.connect_error is not None:
        say_error(report.connect_error, report.connect_hint)
    raise typer.Exit(report.exit_code)


def register(app: typer.Typer) -> None:
    """Add ``lab`` to ``app``."""
    app.command("lab", cls=CallsInOrder)(lab)
