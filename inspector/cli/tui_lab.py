"""The composition root's side of the TUI's Lab screen (``ui.lab_port.LabFactory``): instances, sessions, answers.

``TuiLabFactory`` runs the lab as ``inspector lab`` does: instance A is a new connection to the target the TUI is on
(a new process of a stdio command), B a second process of the same command unless the screen names another
command or URL (one URL is one instance); the demo's two processes seal requestState under one key and are
answered from the demo's answers file, like ``inspector lab --demo``. Every session is recorded beside the TUI's
own recordings (unless ``--no-record``). ``InProcessLabFactory`` runs the same lab against demo servers in this
process over the memory transport with a step clock (``inspector screenshots``, the TUI tests).
"""

from __future__ import annotations

from pathlib import Path
from secrets import token_hex
from typing import TYPE_CHECKING

from inspector.cli.login_choices import LoginChoices
from inspector.cli.wiring import DEMO_COMMAND
from inspector.targets.target import Target, TargetError
from inspector.ui.lab_port import LabAsk, LabChoice, LabRefused

if TYPE_CHECKING:
    from inspector.answers.source import AnswerSource
    from inspector.lab.lab_calls import LabCall
    from inspector.lab.lab_run import Lab
    from inspector.lab.plan import LabTargets
    from inspector.protocol.oauth import Login
    from inspector.session.session import EraMode, InspectorSession
    from inspector.transport.base import Transport

# The lab's runner, the CLI's lab wiring and the in-process demo (the SDK's server: a second of imports on the
# 2-core machine) are imported when a run starts, not when the TUI does: the TUI imports this module before its
# first frame (issue 33), and most sessions never open the Lab screen.


def is_demo(target: Target) -> bool:
    """The bundled demo over stdio (``inspector demo``)."""
    return target.kind == "stdio" and tuple(target.command) == tuple(DEMO_COMMAND)


def demo_answers() -> AnswerSource:
    """What ``inspector lab --demo`` answers with: the demo's answers file, the stub model for sampling."""
    from inspector.answers.build import build_answer_source
    from inspector.cli.demo_flows import example_answers_path

    return build_answer_source(example_answers_path(), "fail", True, [])


def suggested_demo_calls() -> list[LabChoice]:
    """The demo's flows, as the screen offers them."""
    from inspector.cli.lab_commands import demo_calls

    return [LabChoice(call, "suggested") for call in demo_calls()]


def lab_calls(ask: LabAsk) -> list[LabCall]:
    """The calls of the run (a call of the session is answered its way)."""
    if not ask.calls:
        raise LabRefused("no call chosen: tick at least one call (space) for the lab to make")
    return [choice.call for choice in ask.calls]


def instances(ask: LabAsk) -> dict[str, Target]:
    """A and B for ``ask`` (see the module docstring)."""
    from inspector.cli.lab_commands import demo_instances

    a = ask.target
    if is_demo(a) and not ask.instance_b.strip():
        return demo_instances(name=a.display_name)
    spec = ask.instance_b.strip()
    if not spec:
        if a.kind == "http" and "stateless" in ask.checks:
            raise LabRefused(
                "one URL is one instance: give the URL of a second instance as B (two instances, no sticky "
                "sessions), or run tamper and eras alone (they use A only)"
            )
        return {"A": a, "B": a} if a.kind == "stdio" else {"A": a}
    try:
        b = Target.from_spec(spec, headers=a.headers, env=a.env, secret_names=set(a.secret_names), era=a.era)
    except TargetError as bad:
        raise LabRefused(f"instance B: {bad}") from None
    return {"A": a, "B": b}


class TuiLabFactory:
    """``LabFactory`` over real instances (processes, URLs); ``record``: record each lab session; an instance behind
    OAuth is logged in to as the TUI's own sessions are (``login``, through the login screen ``face``)."""

    def __init__(
        self,
        *,
        record: bool = True,
        data_dir: Path | None = None,
        login: LoginChoices | None = None,
        face: Login | None = None,
    ) -> None:
        self.record = record
        self.data_dir = data_dir
        self.login = login or LoginChoices()
        self.face = face

    def suggested(self, target: Target) -> list[LabChoice]:
        return suggested_demo_calls() if is_demo(target) else []

    def second_instance(self, target: Target) -> str:
        return f"a second process of {target.display_name}" if target.kind == "stdio" else ""

    def start(self, ask: LabAsk, answers: AnswerSource) -> Lab:
        from inspector.cli.lab_commands import CliTargets
        from inspector.cli.options import ConnectOptions
        from inspector.cli.wiring import default_recording_path, login_config
        from inspector.lab.lab_run import Lab
        from inspector.lab.plan import LabOptions

        targets = instances(ask)
        calls = lab_calls(ask)
        source = demo_answers() if is_demo(ask.target) else answers
        path = default_recording_path(self.data_dir) if self.record else None
        auth = {name: login_config(t, self.login, quiet=True, face=self.face) for name, t in targets.items()}
        cli_targets = CliTargets(targets, ConnectOptions(), record=path, auth=auth)
        return Lab(cli_targets, source, LabOptions(calls, ask.checks, era=ask.target.era))


class InProcessTargets:
    """``LabTargets`` over demo servers in this process (each instance its own ``build_server()``, both sealing under
    one key and keeping their tasks in one folder), one step clock for every transport and session so each run reads
    the same; sessions recorded under ``folder`` if given."""

    def __init__(self, folder: Path | None = None) -> None:
        from inspector.cli.lab_commands import shared_task_folder
        from inspector.transport.memory import StepClock

        self.folder = folder
        self.clock = StepClock()
        self.made: dict[str, str] = {}
        self.key = token_hex(32)
        """The sealing key both instances share, as a well-run deployment's would."""
        self.tasks = shared_task_folder()
        """The folder both instances keep their tasks in."""

    @property
    def names(self) -> tuple[str, ...]:
        return ("A", "B")

    def describe(self, name: str) -> str:
        from inspector.demo.in_process import NAME

        return f"{NAME} (in process)"

    def transport(self, name: str) -> Transport:
        from inspector.demo.in_process import NAME, serve
        from inspector.demo.server import build_server
        from inspector.transport.memory import MemoryTransport

        server = serve(lambda: build_server(state_key=self.key, task_dir=self.tasks))
        return MemoryTransport(server, name=f"{NAME} {name}", clock=self.clock)

    def session(self, transport: Transport, answers: AnswerSource, *, era: EraMode, part: str) -> InspectorSession:
        from inspector.session.recorder import Recorder
        from inspector.session.session import InspectorSession
        from inspector.timeline import records

        recorder = None
        if self.folder is not None:
            path = self.folder / f"lab-{part}.jsonl"
            header = records.header(f"lab {part} · {transport.describe()}", transport.kind, era, started="",
                                    inspector_version="")  # fmt: skip
            recorder = Recorder(path, header)
            self.made[part] = str(path)
        return InspectorSession(transport, answers, era=era, recorder=recorder, clock=self.clock, timeout=30.0)

    def recording(self, part: str) -> str | None:
        return self.made.get(part)


class InProcessLabFactory:
    """``LabFactory`` over in-process demo servers, whatever the target (see ``InProcessTargets``)."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder
        self.runs: list[Lab] = []
        """Every run started (the tests read their reports)."""

    def suggested(self, target: Target) -> list[LabChoice]:
        return suggested_demo_calls()

    def second_instance(self, target: Target) -> str:
        return "a second demo, in process"

    def start(self, ask: LabAsk, answers: AnswerSource) -> Lab:
        from inspector.lab.lab_run import Lab
        from inspector.lab.plan import LabOptions
        from inspector.paths import private_folder

        folder = self.folder / f"lab-{len(self.runs) + 1}" if self.folder is not None else None
        if folder is not None:
            private_folder(folder)  # (its recordings are the user's alone)
        targets: LabTargets = InProcessTargets(folder)
        run = Lab(targets, demo_answers(), LabOptions(lab_calls(ask), ask.checks, era=ask.target.era))
        self.runs.append(run)
        return run
