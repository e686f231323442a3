"""A lab run on screen: one table row per check as it completes, the highlighted row in full, seed 004's questions.

Every text of a row came from a server or was derived from what it sent, so it goes through the sanitizer into
``Text`` objects (never markup). The colours are the theme's: the widgets' component classes, read as a palette.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, ClassVar, Final

from rich import box
from rich.console import Console
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey

from inspector.lab.lab_report import GROUP_TITLES, QUESTIONS
from inspector.ui.safe_text import clean, one_line

if TYPE_CHECKING:
    from inspector.lab.lab_report import HeldState, LabReport, Row

MARK: Final = {"pass": "✓ pass", "fail": "✗ fail", "warn": "⚠ warn", "skip": "– skip"}
STYLE_NAMES: Final = ("pass", "fail", "warn", "skip", "experiment", "dim", "label")
Palette = dict[str, Style]
COLUMNS: Final = (("group", 11), ("check", 64), ("A/B", 12), ("verdict", 15), ("why", 40))
"""The table's columns and widths; ``why`` takes what is left of the table's width (a row is shown whole below)."""
WHY_MIN: Final = 20
EXPERIMENT: Final = "[experiment]"


def palette_of(widget: Static | DataTable[Text]) -> Palette:
    """The styles of ``STYLE_NAMES`` from the widget's component classes (``lab--pass`` ...)."""
    return {name: widget.get_component_rich_style(f"lab--{name}", partial=True) for name in STYLE_NAMES}


def verdict_text(row: Row, palette: Palette) -> Text:
    """``✓ pass``, ``✗ fail security`` ..."""
    text = Text(MARK[row.verdict], style=palette[row.verdict])
    if row.security:
        text.append(" security", style=palette["fail"])
    return text


def check_text(row: Row, palette: Palette, *, short: bool = False) -> Text:
    """The check, and for a tamper row the label that says it was an experiment (first in the table, where the end
    of a long check is cut; ``short`` leaves out ``tools/call``, which most checks begin with)."""
    check = clean(row.check, keep_newlines=False)
    if short and check.startswith("tools/call "):
        check = check.removeprefix("tools/call ")
    if row.experiment is None:
        return Text(check)
    if short:
        return Text.assemble((EXPERIMENT, palette["experiment"]), " ", check)
    return Text.assemble(check, " ", (EXPERIMENT, palette["experiment"]))


def cells(row: Row, palette: Palette) -> tuple[Text, ...]:
    """The table cells of one row."""
    return (
        Text(row.group, style=palette["label"]),
        check_text(row, palette, short=True),
        Text(one_line(row.route, 40), style=palette["dim"]),
        verdict_text(row, palette),
        Text(one_line(row.why, 400)),
    )


def rounds_text(route: str) -> str:
    """``A B A`` as ``round 1 on A → round 2 on B → round 3 on A``."""
    places = route.split()
    if len(places) < 2 or any(place not in ("A", "B", "?") for place in places):
        return route or "nothing was sent"
    return " → ".join(f"round {n} on {place}" for n, place in enumerate(places, 1))


def detail_text(row: Row, palette: Palette, recordings: dict[str, str] | None = None) -> Text:
    """The row in full: group and what it means, the check, where each round went, the verdict, why, what to try,
    what the experiment changed, and where its call is recorded."""
    text = Text()
    text.append(f"{row.group}", style=palette["label"])
    text.append(f" · {GROUP_TITLES.get(row.group, '')}\n", style=palette["dim"])
    text.append_text(check_text(row, palette))
    text.append("\n")
    text.append("where: ", style=palette["label"])
    text.append(clean(rounds_text(row.route), keep_newlines=False) + "\n")
    text.append_text(verdict_text(row, palette))
    text.append("\n")
    text.append("why: ", style=palette["label"])
    text.append(clean(row.why) + "\n")
    if row.hint:
        text.append("try: ", style=palette["label"])
        text.append(clean(row.hint) + "\n")
    if row.experiment is not None:
        text.append("experiment: ", style=palette["experiment"])
        text.append(
            clean(row.experiment)
            + " (the only calls whose requestState the inspector ever changes; each carries a lab-experiment "
            "finding)\n",
        )
    if row.call is not None:
        recorded = (recordings or {}).get(row.part)
        where = "o opens it on the timeline" if recorded else "not recorded"
        text.append(f"call #{row.call} of the {row.part} session ({where})", style=palette["dim"])
    text.rstrip()
    return text


def questions_table(held: list[HeldState]) -> Table:
    """Seed 004's four questions, one line of answers per piece of cross-request state."""
    table = Table(
        expand=True, show_edge=False, pad_edge=False, box=box.SIMPLE_HEAD, show_lines=True, header_style="bold"
    )
    for column in ("state", *QUESTIONS):
        table.add_column(column, ratio=1)
    for state in held:
        table.add_row(*(Text(clean(value)) for value in (state.what, *state.answers)))
    return table


def summary_text(report: LabReport, palette: Palette) -> Text:
    """``lab: 31 pass · 0 fail · 2 warn · 3 skip``, coloured by how it ended."""
    if report.connect_error is not None:
        text = Text("the lab could not start: ", style=palette["fail"])
        text.append(clean(report.connect_error))
        if report.connect_hint:
            text.append("\ntry: ", style=palette["label"])
            text.append(clean(report.connect_hint))
        return text
    return Text(f"lab: {report.summary()}", style=palette["fail" if report.failed else "pass"])


_CSS_COLOURS: Final = """
    & > .lab--pass { color: $success; }
    & > .lab--fail { color: $error; text-style: bold; }
    & > .lab--warn { color: $warning; }
    & > .lab--skip { color: $foreground-muted; }
    & > .lab--experiment { color: $secondary; text-style: bold; }
    & > .lab--dim { color: $foreground-muted; }
    & > .lab--label { color: $primary; text-style: bold; }
"""


class LabTable(DataTable[Text]):
    """One row per check, in the order the checks completed."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"lab--{name}" for name in STYLE_NAMES}
    DEFAULT_CSS = "LabTable {" + _CSS_COLOURS + "}"

    def __init__(self, **options: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, **options)  # type: ignore[arg-type]
        self.rows_shown: list[Row] = []
        """The rows, in table order."""

    def on_mount(self) -> None:
        for label, width in COLUMNS:
            self.add_column(label, width=width, key=label)

    def on_resize(self) -> None:
        self.fit_why()

    def fit_why(self) -> None:
        """Give ``why`` the width the other columns leave (the table never scrolls sideways when it fits)."""
        column = self.columns.get(ColumnKey("why"))
        if column is None:
            return
        fixed = sum(width for _, width in COLUMNS[:-1]) + 2 * self.cell_padding * len(COLUMNS)
        width = max(self.scrollable_content_region.width - fixed - 1, WHY_MIN)
        if column.width != width:
            column.width = width
            # The pinned Textual's own steps after a change of widths (as add_column and clear take them).
            self._require_update_dimensions = True
            self._clear_caches()
            self.refresh()

    def add(self, row: Row) -> None:
        """One more row (the cursor follows the newest while it was on the last one)."""
        following = self.cursor_row >= len(self.rows_shown) - 1
        self.rows_shown.append(row)
        self.add_row(*cells(row, palette_of(self)))
        if following:
            self.move_cursor(row=len(self.rows_shown) - 1)

    def reset(self) -> None:
        """No rows (a new run)."""
        self.rows_shown = []
        self.clear()

    @property
    def current(self) -> Row | None:
        """The highlighted row."""
        if 0 <= self.cursor_row < len(self.rows_shown):
            return self.rows_shown[self.cursor_row]
        return None


class LabText(Static):
    """A pane of lab text in the theme's colours (the row detail, the questions, the status)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"lab--{name}" for name in STYLE_NAMES}
    DEFAULT_CSS = "LabText {" + _CSS_COLOURS + "}"

    def __init__(self, content: Text | str = "", *, id: str) -> None:
        super().__init__(content, id=id)
        self.shown: Text | Table | str = content
        """What the pane shows now."""

    def show(self, content: Text | Table | str) -> None:
        """Show ``content`` (server text already sanitized into it)."""
        self.shown = content
        self.update(content)

    @property
    def plain(self) -> str:
        """What the pane shows, as plain text (a table drawn wide enough that no cell wraps)."""
        content = self.shown
        if isinstance(content, Table):
            console = Console(width=1000, file=io.StringIO(), color_system=None)
            with console.capture() as captured:
                console.print(content)
            return captured.get()
        return content.plain if isinstance(content, Text) else content

    @property
    def palette(self) -> Palette:
        """This pane's styles."""
        return palette_of(self)
