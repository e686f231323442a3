"""A form's single choice whose option list opens inside the form's visible area, never over its buttons.

Textual's ``Select`` draws its list on the screen's overlay layer, below the choice, as tall as its options (up to
12 rows): a choice near the bottom of a dialog's form opened its list over the note and the Accept / Decline /
Cancel buttons, which could then be neither seen nor clicked. So, as the list opens, the form scrolls up as far as
it can to make room for it, and the list is held to the rows left between the choice and the bottom of the form's
visible area; a list longer than that scrolls inside itself.
"""

from __future__ import annotations

from typing import Final, TypeVar

from textual.containers import ScrollableContainer
from textual.widgets import OptionList, Select

ValueT = TypeVar("ValueT")

LIST_ROWS: Final = 12
"""The most rows Textual's option list takes (its ``max-height``), borders included."""
FEWEST_ROWS: Final = 3
"""A list always shows one option between its two border rows, however little room the form has."""


class FormSelect(Select[ValueT]):
    """A ``Select`` whose open list stays inside the scrolling area that holds it."""

    def watch_expanded(self, expanded: bool) -> None:
        # Called after Select's own watcher has shown the list (and given it the focus).
        if expanded:
            self.fit_list()

    def fit_list(self) -> None:
        """Scroll the form so the open list fits below the choice, and cap the list to the rows that are left."""
        area = next((node for node in self.ancestors if isinstance(node, ScrollableContainer)), None)
        if area is None:
            return
        # Textual's names for the list and the line that shows the choice (their classes are not public).
        overlay = self.query_one("SelectOverlay", OptionList)
        wanted = min(LIST_ROWS, overlay.option_count + overlay.styles.gutter.height)
        shown = area.scrollable_content_region
        choice = self.query_one("SelectCurrent").region
        lacking = choice.bottom + wanted - shown.bottom
        # Up as far as the form scrolls, and never so far that the choice itself leaves the view.
        lift = max(0, min(lacking, int(area.max_scroll_y - area.scroll_y), choice.y - shown.y))
        if lift:
            area.scroll_to(y=area.scroll_y + lift, animate=False, immediate=True)
        room = shown.bottom - (choice.bottom - lift)
        overlay.styles.max_height = max(FEWEST_ROWS, min(wanted, room))
