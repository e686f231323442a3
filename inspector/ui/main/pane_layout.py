"""Which panes of the main screen show at a terminal size, and the person's toggles over that.

Why: the timeline is what people read, and its rows need the width (a call's whole name, its status and its time
with the unit). Side by side, catalog (30 columns), timeline and detail (a third) leave the timeline 21 columns at
80x24; so the detail goes below the timeline under ``SIDE_BY_SIDE`` columns, the catalog hides under
``CATALOG_FROM`` columns (and, asked for, opens as a drawer over the timeline) and the console under
``CONSOLE_FROM`` rows, each one key away (``C``, ``D``, the backtick; ``z`` the timeline alone). Pure: the screen
applies what ``shown`` says (classes its CSS reads).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Pane = Literal["catalog", "detail", "console"]
PANES: Final[tuple[Pane, ...]] = ("catalog", "detail", "console")
SIDE_BY_SIDE: Final = 140
"""From this width the detail pane sits right of the timeline; narrower, below it."""
CATALOG_FROM: Final = 100
"""From this width the catalog shows unless hidden; narrower, it shows when asked for (``C``, ``/``)."""
CONSOLE_FROM: Final = 40
"""From this height the console shows unless hidden; lower, it shows when asked for."""


@dataclass(frozen=True, slots=True)
class Panes:
    """What the main screen shows: each pane on or off, and where the detail goes."""

    catalog: bool
    detail: bool
    console: bool
    stacked: bool
    """The detail pane (and the requestState panel) below the timeline, not right of it."""
    drawer: bool
    """The catalog, when shown, is a drawer over the timeline's left side (no room beside it: the timeline keeps
    the width, and the rows under the drawer come back when it closes)."""

    def classes(self) -> set[str]:
        """The screen's CSS classes for this layout (``-stacked``, ``-drawer``, ``-no-catalog``...)."""
        hidden = {f"-no-{pane}" for pane in PANES if not getattr(self, pane)}
        return hidden | {name for name, on in (("-stacked", self.stacked), ("-drawer", self.drawer)) if on}


class PaneLayout:
    """The panes shown at the terminal's size, unless the person said otherwise: a toggle holds until the size
    crosses one of the thresholds (the layout adapts again then)."""

    def __init__(self, width: int = 160, height: int = 45) -> None:
        self.width = width
        self.height = height
        self.chosen: dict[Pane, bool] = {}
        """The person's toggles, over what the size gives."""

    def _band(self, width: int, height: int) -> tuple[bool, bool, bool]:
        return width >= SIDE_BY_SIDE, width >= CATALOG_FROM, height >= CONSOLE_FROM

    def auto(self, pane: Pane) -> bool:
        """Whether ``pane`` shows at this size when nobody toggled it."""
        if pane == "catalog":
            return self.width >= CATALOG_FROM
        if pane == "console":
            return self.height >= CONSOLE_FROM
        return True

    def resized(self, width: int, height: int) -> Panes:
        """The terminal is now ``width`` x ``height``; a threshold crossed forgets the toggles."""
        if self._band(width, height) != self._band(self.width, self.height):
            self.chosen.clear()
        self.width, self.height = width, height
        return self.shown

    def toggle(self, pane: Pane) -> Panes:
        """Show ``pane`` if hidden, hide it if shown."""
        self.chosen[pane] = not self.is_shown(pane)
        return self.shown

    def show(self, pane: Pane) -> Panes:
        """Show ``pane`` (the catalog when the search is asked for)."""
        self.chosen[pane] = True
        return self.shown

    def zoom(self) -> Panes:
        """The timeline alone, full width; when it already is, every pane as the size gives again."""
        if any(self.is_shown(pane) for pane in PANES):
            self.chosen = dict.fromkeys(PANES, False)
        else:
            self.chosen.clear()
        return self.shown

    def is_shown(self, pane: Pane) -> bool:
        """Whether ``pane`` shows now."""
        return self.chosen.get(pane, self.auto(pane))

    @property
    def shown(self) -> Panes:
        """What shows now."""
        catalog, detail, console = (self.is_shown(pane) for pane in PANES)
        return Panes(catalog, detail, console, stacked=self.width < SIDE_BY_SIDE, drawer=self.width < CATALOG_FROM)
