"""The Lab screen: the statelessness lab (``inspector lab``) on the connected target, from the TUI.

The screen asks for instance B, the checks and the calls (``LabForm``), has the composition root's factory make
the run (``ui.lab_port``), runs it in a worker (the UI never freezes: every request is a coroutine on the app's
loop), and shows each check as it completes (``LabTable``), the highlighted one in full, and seed 004's four
questions at the end. ``o`` opens the run's recording on the timeline, read-only, at the highlighted row's call,
exactly as ``inspector replay`` would; escape from there comes back here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.binding import BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Input

from inspector.lab.lab_events import LabEvent, LabFinished, RowAdded, StageStarted
from inspector.replay.loader import RecordingError, load_recording
from inspector.ui.interactive_answers import calling
from inspector.ui.keys import Key, bindings, typing
from inspector.ui.lab.lab_form import LabForm
from inspector.ui.lab.lab_rows import LabTable, LabText, detail_text, questions_table, summary_text
from inspector.ui.lab_port import LabFactory, LabRefused
from inspector.ui.recorded import Recording
from inspector.ui.safe_text import clean
from inspector.ui.widgets.key_footer import KeyFooter
from inspector.ui.widgets.title_bar import TitleBar

if TYPE_CHECKING:
    from textual.app import ComposeResult

    from inspector.answers.source import AnswerSource
    from inspector.lab.lab_report import LabReport, Row
    from inspector.targets.target import Target
    from inspector.ui.key_hold import Hold
    from inspector.ui.lab_port import LabAsk, LabChoice, LabRun

TITLE = "Lab · is this server stateless? Two instances A and B, no sticky sessions (seed 004)"
DETAIL_NOTE = (
    "Each check appears above as it completes; the highlighted one is shown here in full: where each round went, "
    "the verdict, why, and what to try. Tamper rows are experiments: the only calls whose requestState the "
    "inspector ever changes."
)
QUESTIONS_NOTE = (
    "After the run, for each piece of cross-request state seen (a requestState, a task id, a business handle): "
    "who keeps it, by which handle it is found, when it expires, and how it is recovered after a disconnect."
)


@dataclass
class LabProgress:
    """The lab screen's last run, as far as it has gone."""

    running: bool = False
    """A run is going on."""
    report: LabReport | None = None
    """The run's report (growing while it runs; final once ``finished``)."""
    finished: bool = False
    """The run ended (tests wait on it)."""
    stages: list[str] = field(default_factory=list)
    """The stages of the run, in order."""


class LabScreen(Screen[None]):
    """The lab on one target (see the module docstring)."""

    class OpenRecording(Message):
        """Open a run's recording read-only, at a call (navigation is the app's: it opens the main screen)."""

        def __init__(self, recording: Recording, call: int | None) -> None:
            super().__init__()
            self.recording = recording
            self.call = call

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "lab",
        Key("ctrl+r", "run", "run", "Run the lab: the checks ticked, on the calls ticked", priority=True),
        Key("o", "open_recording", "open recording", "Open the run's recording on the timeline at this row's call"),
        Key("e", "edit", "edit the run", "Show the run's questions again (instance B, checks, calls), or hide them"),
        Key("escape", "back", "back", "Back to the session (a running lab is stopped first)"),
    )

    DEFAULT_CSS = """
    LabScreen { background: $background; }
    LabScreen #lab-status { height: auto; max-height: 3; padding: 0 1; }
    LabScreen #lab-top { height: 1fr; }
    LabScreen LabTable { width: 1fr; height: 1fr; border: round $panel; }
    LabScreen LabTable:focus { border: round $primary; }
    LabScreen #lab-bottom { height: 15; }
    LabScreen #lab-detail-box { width: 2fr; border: round $panel; padding: 0 1; }
    LabScreen #lab-questions-box { width: 3fr; border: round $panel; padding: 0 1; }
    """

    class Progressed(Message):
        """The running lab told us something (a stage began, a row was added, it finished)."""

        def __init__(self, event: LabEvent) -> None:
            super().__init__()
            self.event = event

    def __init__(
        self,
        factory: LabFactory,
        target: Target,
        choices: list[tuple[LabChoice, bool]],
        answers: AnswerSource,
        *,
        hold: Hold | None = None,
    ) -> None:
        super().__init__()
        self.factory = factory
        self.target = target
        self.choices = choices
        self.answers = answers
        self._hold = hold
        self.progress = LabProgress()
        """The last run, as far as it has gone."""

    # ------------------------------------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield TitleBar(TITLE, id="lab-title")
        yield LabText("choose instance B, the checks and the calls, then run (ctrl+r)", id="lab-status")
        with Horizontal(id="lab-top"):
            yield LabForm(self.target, self.factory.second_instance(self.target), self.choices, id="lab-form")
            yield LabTable(id="lab-table")
        with Horizontal(id="lab-bottom"):
            with VerticalScroll(id="lab-detail-box", can_focus=False):
                yield LabText(DETAIL_NOTE, id="lab-detail")
            with VerticalScroll(id="lab-questions-box", can_focus=False):
                yield LabText(QUESTIONS_NOTE, id="lab-questions")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(LabTable).border_title = "Checks, as each completes"
        self.query_one("#lab-detail-box").border_title = "The highlighted check"
        self.query_one("#lab-questions-box").border_title = "Seed 004's four questions"
        self.query_one(LabForm).border_title = "Run the lab on"
        self.set_focus(self.query_one("#lab-b", Input), scroll_visible=False)
        self._release()

    def on_unmount(self) -> None:
        self._release()

    def _release(self) -> None:
        if self._hold is not None:
            self._hold.release()
            self._hold = None

    @property
    def table(self) -> LabTable:
        """The rows of the run."""
        return self.query_one(LabTable)

    # ------------------------------------------------------------------------------------------------ running
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        last = self.progress
        if action == "run":
            return not last.running
        if action == "edit":
            return not typing(self.app) and not last.running and last.report is not None
        if action == "open_recording":
            return not typing(self.app) and last.finished and bool(last.report and last.report.recordings)
        return True

    @on(LabForm.RunRequested)
    def action_run(self) -> None:
        """Start a run with what the form says (one at a time)."""
        if not self.progress.running:
            self.run_lab(self.query_one(LabForm).ask())

    @work(exclusive=True, group="lab")
    async def run_lab(self, ask: LabAsk) -> None:
        """Make the run, listen to it, run it; what went wrong is said in the status line, never raised."""
        status = self.query_one("#lab-status", LabText)
        try:
            run: LabRun = self.factory.start(ask, self.answers)
        except LabRefused as refused:
            status.show(Text(clean(str(refused)), style=status.palette["fail"]))
            return
        self._started(run)
        run.subscribe(self._told)
        try:
            with calling("inspector lab"):  # (a question the lab asks you is titled with it)
                await run.run()
        except Exception as error:  # the lab never raises for the server; anything else is still shown, not a crash
            status.show(Text(clean(f"the lab stopped: {error}"), style=status.palette["fail"]))
        finally:
            self.progress.running = False
            if self.is_attached:
                self.query_one(LabForm).running(False)
                self.refresh_bindings()

    def _told(self, event: LabEvent) -> None:
        self.post_message(self.Progressed(event))

    def _started(self, run: LabRun) -> None:
        self.progress = LabProgress(running=True, report=run.report)
        self.table.reset()
        self.query_one("#lab-detail", LabText).show("")
        self.query_one("#lab-questions", LabText).show("")
        form = self.query_one(LabForm)
        form.running(True)
        form.display = False  # the rows take the whole width; ``e`` brings the form back
        self.table.focus()
        self.refresh_bindings()

    def on_lab_screen_progressed(self, message: Progressed) -> None:
        event = message.event
        status = self.query_one("#lab-status", LabText)
        if isinstance(event, StageStarted):
            self.progress.stages.append(event.stage)
            line = Text(f"running · {event.stage}", style=status.palette["label"])
            line.append(f" · {clean(event.detail, keep_newlines=False)}", style=status.palette["dim"])
            status.show(line)
        elif isinstance(event, RowAdded):
            self.table.add(event.row)
            self._show_current()
        elif isinstance(event, LabFinished):
            self.progress.report = event.report
            self.progress.finished = True
            status.show(self._ended(event.report, status))
            self.query_one("#lab-questions", LabText).show(self._questions(event.report))
            self._first_to_look_at(event.report)
            self._show_current()
            self.refresh_bindings()

    def _ended(self, report: LabReport, status: LabText) -> Text:
        text = summary_text(report, status.palette)
        if report.era is not None and report.connect_error is None:
            text.append(f" · era {report.era.era} {report.era.version}", style=status.palette["dim"])
        if report.recordings:
            text.append(" · o: open the recording on the timeline", style=status.palette["dim"])
        return text

    def _questions(self, report: LabReport) -> Text | Table:
        if report.held:
            return questions_table(report.held)
        if report.rows:
            return Text("no cross-request state seen: every call stood alone")
        return Text("")

    def _first_to_look_at(self, report: LabReport) -> None:
        """At the end, the first failure is highlighted (else the first warning, else the first row)."""
        rows = self.table.rows_shown
        if rows:
            self.table.move_cursor(row=0)  # (from the top: the rows above the one highlighted stay in view)
        for verdict in ("fail", "warn"):
            found = next((i for i, row in enumerate(rows) if row.verdict == verdict), None)
            if found is not None:
                self.table.move_cursor(row=found)
                return

    # ------------------------------------------------------------------------------------------------ the rows
    @on(DataTable.RowHighlighted)
    def _highlighted(self) -> None:
        self._show_current()

    def _show_current(self) -> None:
        row = self.table.current
        pane = self.query_one("#lab-detail", LabText)
        last = self.progress
        recordings = last.report.recordings if last.report is not None and last.finished else {}
        pane.show(detail_text(row, pane.palette, recordings) if row is not None else "")

    @property
    def current(self) -> Row | None:
        """The highlighted row."""
        return self.table.current

    def action_open_recording(self) -> None:
        """The recording of the highlighted row's session (else the main one), read-only, at the row's call."""
        report = self.progress.report
        if report is None or not report.recordings:
            return
        row = self.table.current
        part = row.part if row is not None and row.part in report.recordings else "main"
        path = report.recordings.get(part) or next(iter(report.recordings.values()))
        try:
            recording = Recording.from_loaded(load_recording(Path(path)))
        except RecordingError as bad:
            self.notify(f"{bad.message} ({bad.hint})", severity="error")
            return
        at = row.call if row is not None and row.part == part else None
        self.post_message(self.OpenRecording(recording, at))

    def action_edit(self) -> None:
        """Show the form again (to change the run), or hide it (the results take the whole width)."""
        form = self.query_one(LabForm)
        form.display = not form.display
        if form.display:
            self.set_focus(self.query_one("#lab-b", Input))
        else:
            self.table.focus()

    def action_back(self) -> None:
        """Back to the session; a run still going is stopped (its sessions close, bounded)."""
        self.workers.cancel_group(self, "lab")
        self.dismiss(None)
