"""The one-line boxes where a person types a query: the catalog's search and the timeline's filter.

Escape leaves the box (what was typed stays, and keeps filtering), as Enter does (``Input.Submitted``). The footer
says so in the box's own words, rather than the screen's escape ("back to the servers") showing through.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.binding import BindingType
from textual.message import Message
from textual.widgets import Input

from inspector.ui.keys import Key, bindings

if TYPE_CHECKING:
    from inspector.ui.widgets.timeline_view import TimelineView

LEAVE = Key("escape", "leave", "leave box", "Leave the box; what you typed keeps filtering")


class QueryBox(Input):
    """A query box; posts ``Left`` when escape leaves it."""

    class Left(Message):
        """The person left the box with escape; ``box`` says which."""

        def __init__(self, box: QueryBox) -> None:
            super().__init__()
            self.box = box

        @property
        def control(self) -> QueryBox:
            """The box left."""
            return self.box

    def action_leave(self) -> None:
        self.post_message(self.Left(self))


class SearchBox(QueryBox):
    """The catalog's search: the list shows the matching items, best match first."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("search", LEAVE)
    KEYS_WHERE: ClassVar[str] = "catalog search"
    """What the help screen names as where these keys work."""


class FilterBox(QueryBox):
    """The timeline's filter: only the matching calls of ``timeline`` are shown, as the person types."""

    BINDINGS: ClassVar[list[BindingType]] = bindings("filter", LEAVE)
    KEYS_WHERE: ClassVar[str] = "timeline filter"
    """What the help screen names as where these keys work."""

    def __init__(self, timeline: TimelineView, **options: Any) -> None:
        super().__init__(**options)
        self.timeline = timeline

    @on(Input.Changed)
    def _filter(self, event: Input.Changed) -> None:
        self.timeline.filter_text = event.value

    @on(Input.Submitted)
    @on(QueryBox.Left)
    def _done(self) -> None:
        self.display = bool(self.value)  # an empty filter goes away; one that filters stays in sight
        self.timeline.focus()
