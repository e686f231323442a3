"""The main screen on a recording (``inspector replay FILE``): the recorded timeline shown read-only, and the step
walk of ``--step`` (``n`` reveals the next message with the time since the previous one, ``N`` the rest).

No session is built and no server started; ``MainScreen`` derives from this screen (through ``CallActions``) and
calls ``open_replay`` instead of connecting.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.screen import Screen

from inspector.protocol.methods import LIST_METHODS
from inspector.session.timeline import ConsoleLine
from inspector.ui.bridge import TimelineBridge
from inspector.ui.recorded import recorded_catalog
from inspector.ui.widgets.catalog import Catalog
from inspector.ui.widgets.console import Console

if TYPE_CHECKING:
    from inspector.session.timeline import Timeline
    from inspector.ui.recorded import Recording
    from inspector.ui.widgets.timeline_view import TimelineView


class ReplayKeys(Screen[None]):
    """Opens a recording on the screen's widgets and walks it step by step."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next_step", "next message", id="replay.next", tooltip="Replay: reveal the next message"),
        Binding("N", "all_steps", "all", id="replay.all", tooltip="Replay: reveal every remaining message"),
    ]

    # Provided by MainScreen.
    replay: Recording | None
    """The recording shown read-only (None: a live session)."""
    catalog_loaded: bool
    step_note: str = ""
    """What the header says about the step walk ("message 3 of 40 · +41.2 ms")."""
    _bridge: TimelineBridge | None
    _stepped: int | None = None
    """The call the last step landed on (the only one kept unfolded)."""

    def _timeline(self) -> Timeline:
        raise NotImplementedError

    @property
    def timeline_view(self) -> TimelineView:
        """The timeline widget."""
        raise NotImplementedError

    def _header(self) -> None:
        raise NotImplementedError

    def open_replay(self, replay: Recording) -> None:
        """Show the recorded timeline (grown message by message in step mode); nothing connects."""
        self.timeline_view.refresh_model()
        self._bridge = TimelineBridge(replay.timeline, self)  # step mode grows the timeline like a live session
        console = self.query_one(Console)
        for line in [*replay.problem_lines(), *replay.timeline.console]:
            console.append(line)
        unreadable = [p for p in replay.problems if p.severity == "error"]
        if unreadable:
            self.notify(f"{len(unreadable)} line(s) of the recording could not be read: see the console", timeout=8)
        if replay.stepper is not None:
            self.step_note = f"{replay.stepper.total} messages · press n for the next"
        # The recording is what to look at (the catalog cannot call anything); focused before the catalog fills, so
        # its first item is not previewed over the newest call.
        self.set_focus(self.timeline_view)
        self.fill_catalog()
        self.catalog_loaded = True
        self._header()

    def fill_catalog(self) -> None:
        """The catalog as the recording listed it (so far, in step mode)."""
        catalog = self.query_one(Catalog)
        for kind, items in recorded_catalog(self._timeline()).items():
            catalog.set_items(kind, items)

    def steps_available(self) -> bool:
        """Whether ``n`` and ``N`` have anything left to reveal."""
        return self.replay is not None and self.replay.stepper is not None and not self.replay.stepper.done

    def action_next_step(self) -> None:
        """Reveal the next recorded message, with the time since the previous one."""
        stepper = self.replay.stepper if self.replay is not None else None
        if stepper is None:
            return
        shown = stepper.advance()
        view = self.timeline_view
        view.refresh_model()
        if shown is None:
            self.step_note = f"all {stepper.total} messages shown"
        else:
            self.step_note = f"message {shown.number} of {shown.total} · {shown.gap_text()}"
            line = f"{shown.number}/{shown.total} {shown.gap_text():>11}  {shown.text}"
            self.query_one(Console).append(ConsoleLine(shown.at, "session", line))
            if shown.call is not None:
                if self._stepped not in (None, shown.call):
                    view.expanded.discard(self._stepped)  # only the call being walked stays unfolded
                self._stepped = shown.call
                view.select_call(shown.call, shown.round)
                found = self._timeline().call(shown.call)
                if found is not None and found.method in LIST_METHODS:
                    self.fill_catalog()
        self._header()
        self.refresh_bindings()

    def action_all_steps(self) -> None:
        """Reveal every remaining message at once."""
        stepper = self.replay.stepper if self.replay is not None else None
        if stepper is None:
            return
        revealed = stepper.reveal_all()
        self.timeline_view.refresh_model()
        self.step_note = f"all {stepper.total} messages shown"
        self.fill_catalog()
        self.notify(f"revealed the {revealed} remaining message{'s' if revealed != 1 else ''}", timeout=3)
        self._header()
        self.refresh_bindings()
