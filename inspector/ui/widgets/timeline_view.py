"""The timeline: one row per call, unfolded into rounds, as a virtual list that renders only the visible lines.

A Line API ``ScrollView``: the rows are a flat list of small tuples rebuilt (at most once per refresh) when the
model changes; each visible line is rendered on demand and cached, so 10,000 calls cost what a screenful costs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from textual.binding import BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from inspector.timeline.model import (
    CallFinished,
    CallStarted,
    FindingRaised,
    RoundStarted,
    RoundUpdated,
    SessionRowChanged,
)
from inspector.ui.bridge import TimelineChanged
from inspector.ui.keys import Key, bindings
from inspector.ui.widgets.call_filter import CallFilter
from inspector.ui.widgets.timeline_rows import (
    STYLE_NAMES,
    Columns,
    Palette,
    Row,
    RowLook,
    build_rows,
    render_row,
)
from inspector.ui.widgets.work_rows import WorkView

if TYPE_CHECKING:
    from rich.style import Style
    from textual import events

    from inspector.timeline.model import Timeline


class TimelineView(ScrollView, can_focus=True):
    """Calls, newest first; ``space`` folds a call into or out of its rounds."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "timeline",
        Key(
            "space",
            "toggle_fold",
            "fold",
            "Unfold the call into its rounds, or fold it (on a polls row: the polls)",
        ),
        Key("up", "cursor(-1)", "up", "Previous row", show=False),
        Key("down", "cursor(1)", "down", "Next row", show=False),
        Key("pageup", "page(-1)", "page up", "One page up", show=False),
        Key("pagedown", "page(1)", "page down", "One page down", show=False),
        Key("home", "jump(0)", "newest", "Newest call", show=False),
        Key("end", "jump(-1)", "oldest", "Oldest call", show=False),
        Key("right", "fold(True)", "unfold", "Unfold the call", show=False),
        Key("left", "fold(False)", "fold", "Fold the call", show=False),
    )

    KEYS_WHERE: ClassVar[str] = "timeline"
    """What the help screen names as where these keys work."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"timeline--{name}" for name in STYLE_NAMES} | {"timeline--cursor"}

    DEFAULT_CSS = """
    TimelineView { background: $surface; scrollbar-gutter: stable; }
    TimelineView > .timeline--request { color: $timeline-request; }
    TimelineView > .timeline--response { color: $timeline-response; }
    TimelineView > .timeline--error { color: $timeline-error; }
    TimelineView > .timeline--input-required { color: $timeline-input-required; }
    TimelineView > .timeline--pending { color: $timeline-pending; }
    TimelineView > .timeline--finding { color: $timeline-finding; }
    TimelineView > .timeline--state { color: $request-state; }
    TimelineView > .timeline--dim { color: $foreground-muted; }
    TimelineView > .timeline--cursor { background: $panel; text-style: bold; }
    TimelineView:focus > .timeline--cursor { background: $primary-muted; }
    """

    cursor: reactive[int] = reactive(0, always_update=False)
    """Index of the highlighted row in the visible rows."""
    filter_text: reactive[str] = reactive("")
    """The filter (see ``CallFilter``); only matching calls are shown."""

    class Highlighted(Message):
        """The highlighted row changed: a call (``round`` 0) or one of its rounds."""

        def __init__(self, call: int, round_: int) -> None:
            super().__init__()
            self.call = call
            """1-based call index."""
            self.round = round_
            """1-based round index, 0 for the call itself."""

    def __init__(
        self, timeline: Timeline, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.timeline = timeline
        self.expanded: set[int] = set()
        """Calls shown unfolded."""
        self.folded_by_user: set[int] = set()
        self.work = WorkView()
        """Task calls whose polls are unfolded; calls the user cancelled that have not ended yet."""
        self.rows: list[Row] = []
        self.columns = Columns()
        """The widths of the right-hand columns, from the calls shown (see ``Columns``)."""
        self._index: dict[Row, int] = {}
        self._dirty = True
        self._rebuild_scheduled = False
        self._cache: LRUCache[tuple[Row, int, bool, int], Strip] = LRUCache(1024)
        self._generation = 0
        self._palette: Palette | None = None
        self._last_posted: tuple[int, int] | None = None

    # ------------------------------------------------------------------------------------------------ model
    def refresh_model(self, call: int | None = None) -> None:
        """The timeline changed (``call`` names the call that did); rows are rebuilt before the next paint."""
        self._generation += 1
        self._dirty = True
        if not self._rebuild_scheduled:
            self._rebuild_scheduled = True
            self.call_later(self._rebuild)

    # The timeline bridge posts here: the rows follow the model (the messages bubble on to the screen).
    def on_timeline_changed(self, message: TimelineChanged) -> None:
        match message.event:
            case CallStarted(call) | RoundUpdated(call):
                self.refresh_model(call.index)
            case RoundStarted(call, round_):
                if round_.index > 1:
                    self.auto_unfold(call.index)
                self.refresh_model(call.index)
            case CallFinished(call):
                self.work.cancelling.discard(call.index)
                self.refresh_model(call.index)
            case SessionRowChanged():
                self.refresh_model()
            case FindingRaised(finding):
                count = len(message.timeline.findings)
                self.border_subtitle = f"⚠ {count} finding{'s' if count != 1 else ''}"
                self.refresh_model(finding.call_index)

    def cancelling(self, call: int) -> None:
        """The user cancelled ``call``: its row says "cancelling" from now until it has ended."""
        self.work.cancelling.add(call)
        self.refresh_model(call)

    def auto_unfold(self, call: int) -> None:
        """Unfold a call that is running several rounds, unless the user folded it."""
        if call not in self.folded_by_user and call not in self.expanded:
            self.expanded.add(call)
            self.refresh_model(call)

    def _rebuild(self) -> None:
        self._rebuild_scheduled = False
        if not self._dirty:
            return
        current = self.rows[self.cursor] if 0 <= self.cursor < len(self.rows) else None
        self.rows = build_rows(self.timeline, self.expanded, CallFilter(self.filter_text), self.work)
        self._index = {row: i for i, row in enumerate(self.rows)}
        shown = (self.timeline.call(row.call) for row in self.rows if row.round == 0 and row.line == 0)
        self.columns = Columns.of((call for call in shown if call is not None), self.work)
        self._dirty = False
        self._generation += 1  # a fold or a filter changes rows without a model change: no cached line is kept
        self.virtual_size = Size(self.size.width, len(self.rows))
        at_top = self.cursor == 0
        if current is not None and current in self._index and not at_top:
            self.cursor = self._index[current]
        elif current is not None and current.round and Row(current.call, 0, 0) in self._index and not at_top:
            self.cursor = self._index[Row(current.call, 0, 0)]
        else:
            self.cursor = min(self.cursor, max(len(self.rows) - 1, 0))
        self._announce()
        self.refresh()

    def ensure_rows(self) -> None:
        """Rebuild now if the model changed (tests and the screen use it before reading ``rows``)."""
        if self._dirty:
            self._rebuild()

    @property
    def current(self) -> Row | None:
        """The highlighted row."""
        self.ensure_rows()
        return self.rows[self.cursor] if 0 <= self.cursor < len(self.rows) else None

    def show_resend(self, call: int) -> None:
        """``call`` resends another (``Call.resends``): it is shown right above it, marked ``↻ #N``; highlight it."""
        self._dirty = True  # the rows may already have been rebuilt with the new call at the top
        self.select_call(call)

    def select_call(self, call: int, round_: int = 0) -> None:
        """Highlight a call (unfolding it when a round is asked for)."""
        if round_:
            self.expanded.add(call)
            self._dirty = True
        self.ensure_rows()
        row = Row(call, round_, 0)
        if row in self._index:
            self.cursor = self._index[row]

    # ------------------------------------------------------------------------------------------------ reactives
    def watch_filter_text(self) -> None:
        self._dirty = True
        self.cursor = 0
        self._rebuild()

    def watch_cursor(self, old: int, new: int) -> None:
        self.scroll_to_region_visible(new)
        self._announce()
        self.refresh()

    def scroll_to_region_visible(self, index: int) -> None:
        """Scroll just enough for row ``index`` to be on screen."""
        height = max(self.scrollable_content_region.height, 1)
        top = int(self.scroll_offset.y)
        if index < top:
            self.scroll_to(y=index, animate=False, immediate=True)
        elif index >= top + height:
            self.scroll_to(y=index - height + 1, animate=False, immediate=True)

    def _announce(self) -> None:
        row = self.rows[self.cursor] if 0 <= self.cursor < len(self.rows) else None
        key = (row.call, row.round) if row is not None else None
        if key is not None and key != self._last_posted:
            self._last_posted = key
            self.post_message(self.Highlighted(*key))

    def on_focus(self) -> None:
        # Back on the timeline, its highlighted row is what the detail pane shows again (the catalog may have
        # previewed one of its items since): announced anew even though the cursor did not move.
        self._last_posted = None
        self._announce()

    # ------------------------------------------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("toggle_fold", "fold"):
            row = self.current
            return row is not None and row.part != "session"  # (a session row has nothing to fold)
        return True

    def action_cursor(self, delta: int) -> None:
        self.ensure_rows()
        self.cursor = max(0, min(len(self.rows) - 1, self.cursor + delta))

    def action_page(self, direction: int) -> None:
        self.ensure_rows()
        height = max(self.scrollable_content_region.height, 1)
        self.cursor = max(0, min(len(self.rows) - 1, self.cursor + direction * height))
        self.scroll_to(y=self.scroll_offset.y + direction * height, animate=False, immediate=True)

    def action_jump(self, where: int) -> None:
        self.ensure_rows()
        self.cursor = 0 if where == 0 else max(len(self.rows) - 1, 0)

    def action_toggle_fold(self) -> None:
        row = self.current
        if row is not None and row.part == "polls":
            self.work.polls_open ^= {row.call}
            self._dirty = True
            self._rebuild()
        elif row is not None and row.part != "session":
            self.action_fold(row.call not in self.expanded)

    def action_fold(self, unfold: bool) -> None:
        row = self.current
        if row is None or row.part == "session":
            return
        if unfold:
            self.expanded.add(row.call)
            self.folded_by_user.discard(row.call)
        else:
            self.expanded.discard(row.call)
            self.folded_by_user.add(row.call)
        self._dirty = True
        self._rebuild()
        if not unfold and Row(row.call, 0, 0) in self._index:
            self.cursor = self._index[Row(row.call, 0, 0)]

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        self.ensure_rows()
        index = int(self.scroll_offset.y) + offset.y
        if 0 <= index < len(self.rows):
            self.cursor = index
            if event.chain == 2:
                self.action_toggle_fold()

    # ------------------------------------------------------------------------------------------------ rendering
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._palette = None
        self._cache.clear()

    def palette(self) -> Palette:
        """Styles from the component classes (so from the theme), cached until the styles change."""
        if self._palette is None:
            self._palette = {
                name: self.get_component_rich_style(f"timeline--{name}", partial=True) for name in STYLE_NAMES
            }
        return self._palette

    def on_resize(self) -> None:
        self.virtual_size = Size(self.size.width, len(self.rows))
        self._cache.clear()

    def render_line(self, y: int) -> Strip:
        self.ensure_rows()
        index = int(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if not 0 <= index < len(self.rows):
            return Strip.blank(width, base)
        row = self.rows[index]
        selected = index == self.cursor
        key = (row, width, selected, self._generation)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        text = render_row(row, self.timeline, self.expanded, RowLook(width, self.palette(), self.columns), self.work)
        if selected:
            text.stylize(self.get_component_rich_style("timeline--cursor", partial=True))
        segments = list(text.render(self.app.console))
        strip = Strip(Segment.apply_style(segments, base), text.cell_len).crop_extend(0, width, base)
        self._cache[key] = strip
        return strip

    @property
    def base_style(self) -> Style:
        """The widget's own style (background of blank lines)."""
        return self.rich_style
