"""A recording on the main screen (``inspector replay FILE``): the recorded timeline read-only, and the walk of
``--step`` (``n`` reveals the next message with the time since the previous one, ``N`` the rest).

``ReplayWalk`` is held by the main screen, which builds no session for a recording; the screen hands it the panes
it fills (``show_on``) and calls it for ``n`` and ``N``. It says what the header should add (``note``); the screen
redraws the header and the footer after each step. The walk writes the console itself, so that a line recorded
before a message (a server's stderr) is shown before that message's line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.protocol.methods import LIST_METHODS
from inspector.timeline.model import ConsoleLine
from inspector.ui.recorded import recorded_catalog

if TYPE_CHECKING:
    from inspector.timeline.model import Timeline
    from inspector.ui.recorded import Recording
    from inspector.ui.widgets.catalog import Catalog
    from inspector.ui.widgets.console import Console
    from inspector.ui.widgets.timeline_view import TimelineView


class ReplayWalk:
    """Shows a recording on the timeline, console and catalog panes, and walks it step by step."""

    def __init__(self, recording: Recording) -> None:
        self.recording = recording
        self.note = ""
        """What the header says about the walk ("message 3 of 40 · +41.2 ms")."""
        self._panes: tuple[TimelineView, Console, Catalog] | None = None
        self._stepped: int | None = None
        """The call the last step landed on (the only one kept unfolded)."""
        self._console_shown = 0
        """How many of the timeline's console lines are in the console (the walk shows them, in record order)."""

    @property
    def timeline(self) -> Timeline:
        """The recorded timeline (in step mode, the part revealed so far)."""
        return self.recording.timeline

    def _on(self) -> tuple[TimelineView, Console, Catalog]:
        if self._panes is None:
            raise RuntimeError("ReplayWalk.show_on was not called")
        return self._panes

    def show_on(self, view: TimelineView, console: Console, catalog: Catalog) -> None:
        """Show the recording on these panes (and say so when some of its lines could not be read)."""
        self._panes = (view, console, catalog)
        recording = self.recording
        view.refresh_model()
        console.extend(recording.problem_lines())
        self._show_console()
        if recording.stepper is not None:
            self.note = f"{recording.stepper.total} messages · press n for the next"
        # The recording is what to look at (the catalog cannot call anything); focused before the catalog fills, so
        # its first item is not previewed over the newest call.
        view.screen.set_focus(view)
        self.fill_catalog()
        unreadable = sum(1 for problem in recording.problems if problem.severity == "error")
        if unreadable:
            view.notify(f"{unreadable} line(s) of the recording could not be read: see the console", timeout=8)

    def _show_console(self) -> None:
        """The console lines the records applied so far brought (stderr, the closing), after those shown."""
        console = self._on()[1]
        lines = self.timeline.console
        console.extend(lines.since(self._console_shown))
        self._console_shown = lines.count

    def fill_catalog(self) -> None:
        """The catalog as the recording listed it (so far, in step mode)."""
        catalog = self._on()[2]
        for kind, items in recorded_catalog(self.timeline).items():
            catalog.set_items(kind, items)

    @property
    def steps_left(self) -> bool:
        """Whether ``n`` and ``N`` have anything left to reveal."""
        stepper = self.recording.stepper
        return stepper is not None and not stepper.done

    def next_step(self) -> None:
        """Reveal the next recorded message, with the time since the previous one."""
        stepper = self.recording.stepper
        if stepper is None:
            return
        view, console, _ = self._on()
        shown = stepper.advance()
        view.refresh_model()
        self._show_console()  # what was recorded before the message (a server's stderr) comes before its line
        if shown is None:
            self.note = f"all {stepper.total} messages shown"
            return
        self.note = f"message {shown.number} of {shown.total} · {shown.gap_text()}"
        line = f"{shown.number}/{shown.total} {shown.gap_text():>11}  {shown.text}"
        console.append(ConsoleLine(shown.at, "session", line))
        if shown.call is None:
            return
        if self._stepped not in (None, shown.call):
            view.expanded.discard(self._stepped)  # only the call being walked stays unfolded
        self._stepped = shown.call
        view.select_call(shown.call, shown.round)
        found = self.timeline.call(shown.call)
        if found is not None and found.method in LIST_METHODS:
            self.fill_catalog()

    def all_steps(self) -> None:
        """Reveal every remaining message at once, and say how many that was."""
        stepper = self.recording.stepper
        if stepper is None:
            return
        revealed = stepper.reveal_all()
        view = self._on()[0]
        view.refresh_model()
        self._show_console()
        self.note = f"all {stepper.total} messages shown"
        self.fill_catalog()
        view.notify(f"revealed the {revealed} remaining message{'s' if revealed != 1 else ''}", timeout=3)
