"""What the detail pane, the requestState panel and the call keys show: the highlighted call or round, kept up to
date as the call changes, drawn again at most once for however many changes are queued.

``DetailShow`` is held by the main screen, which hands it the panes it fills and the timeline it reads (a function:
the timeline changes when the session is built). It knows nothing of the session: the screen tells it what was
highlighted, unfolded or changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.ui.main.selection import selection

if TYPE_CHECKING:
    from collections.abc import Callable

    from inspector.timeline.model import Timeline
    from inspector.ui.detail.detail_view import DetailView
    from inspector.ui.detail.lines import Document
    from inspector.ui.widgets.call_keys import CallKeys
    from inspector.ui.widgets.request_state import RequestStatePanel


class DetailShow:
    """Shows one call or round on the detail pane, the requestState panel and the call keys."""

    def __init__(
        self, timeline: Callable[[], Timeline], detail: DetailView, state: RequestStatePanel, keys: CallKeys
    ) -> None:
        self.timeline = timeline
        self.detail, self.state, self.keys = detail, state, keys
        self.selected: tuple[int, int] | None = None
        """(call, round) shown (None: a catalog item, or nothing)."""
        self.unfold = False
        """The large sections of what is shown are unfolded (``x``)."""
        self._queued = False

    def highlighted(self, call: int, round_: int) -> None:
        """The timeline highlighted a row: show it (folded), unless it is what is shown already."""
        if (call, round_) != self.selected:  # else announced again (the timeline got the focus back)
            self.unfold = False
            self.show(call, round_)

    def unfolded(self) -> None:
        """``x``: show the large sections in full."""
        self.unfold = True
        if self.selected is not None:
            self.show(*self.selected, keep_scroll=True)

    def changed(self, call: int) -> None:
        """The call shown changed: drawn again once for however many changes are queued. A call that sends progress
        changes hundreds of times a second, and a key pressed meanwhile (``k`` to cancel it) must not wait behind as
        many redraws of its detail."""
        if self.selected is not None and self.selected[0] == call and not self._queued:
            self._queued = True
            self.detail.call_later(self._again)

    def _again(self) -> None:
        self._queued = False
        self.rebuilt()

    def rebuilt(self) -> None:
        """Build what is shown again (the call changed, or the pane's view did: ``j``, ``m``), where it was."""
        if self.selected is not None:
            self.show(*self.selected, keep_scroll=True)

    def preview(self, document: Document) -> None:
        """A catalog item is highlighted: its definition, and no call for the call keys."""
        self.detail.show(document)
        self.selected = None
        self.keys.point_at(None)

    def show(self, call_index: int, round_index: int, *, keep_scroll: bool = False) -> None:
        """Show ``(call, round)`` (round 0: the call)."""
        shown = selection(self.timeline(), call_index, round_index, unfold=self.unfold, view=self.detail.view)
        if shown is None:
            return
        self.selected = (call_index, round_index)
        self.detail.show(shown.document, keep_scroll=keep_scroll)
        self.state.where = shown.where
        self.state.state = shown.state
        self.keys.point_at(shown.call, round_index, shown.state)  # (which redraws the footer)
