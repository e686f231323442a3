"""SVG snapshots of the call composer. Each docstring says what a person should see in the picture."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from test_composer import TOOL, ComposerHost
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from inspector.ui.widgets.composer import Composer

SIZE = (120, 40)
SnapCompare = Callable[..., bool]


def steady(pilot: Pilot[Any]) -> None:
    for widget in pilot.app.screen.query("Input, TextArea"):
        if isinstance(widget, Input | TextArea):
            widget.cursor_blink = False


def test_composer_nested_form(snap_compare: SnapCompare) -> None:
    """Header "tools/call search  Search" (name bold, title italic), the description shown literally as
    "Search [b]things[/b]". The form: "Query *" (with its name "query" dim beside it) and the literal description
    "[bold red]boom[/] ␛[2J"; "limit" pre-filled 10; a "exact" checkbox; "fuzzy" and "sort" showing "(not set)";
    "Address * home" with an indented block holding "city *" and "zip" with a "null" toggle; "tags" and "stops" each
    with a "+ add" button; "who" with a "(not set)" choice... (the rest scrolls). Docked at the bottom, a blue
    "Call" button. Text boxes and choices stand out on a slightly lighter band."""

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        steady(pilot)

    assert snap_compare(ComposerHost(Composer(TOOL)), terminal_size=SIZE, run_before=steps)


def test_composer_errors_under_fields(snap_compare: SnapCompare) -> None:
    """After pressing Call with "limit" set to 500 and nothing else filled: under "Query *" the red line
    "required", under "limit" "500 is greater than the maximum of 100", and under "city *" inside the Address block
    "required"; beside the Call button, in red, "3 fields to fix before sending". Nothing was posted."""

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        pilot.app.screen.query(Input)[1].value = "500"
        await pilot.press("ctrl+enter")
        await pilot.pause()
        pilot.app.screen.query(Input)[0].focus()
        await pilot.pause()
        steady(pilot)

    assert snap_compare(ComposerHost(Composer(TOOL)), terminal_size=SIZE, run_before=steps)


def test_composer_json_fallback(snap_compare: SnapCompare) -> None:
    """A tool whose input schema is a free-form map of integers: header "tools/call tally", then the line
    "JSON: an object with free-form keys" and a JSON editor (8 rows tall) holding {"a": "x"}, with the red line
    "a: 'x' is not of type 'integer'" under it (checked as it was typed)."""

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        pilot.app.screen.query_one(TextArea).text = '{"a": "x"}'
        await pilot.pause()
        steady(pilot)

    tool = {"name": "tally", "inputSchema": {"type": "object", "additionalProperties": {"type": "integer"}}}
    assert snap_compare(ComposerHost(Composer(tool)), terminal_size=SIZE, run_before=steps)
