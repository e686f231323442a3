"""The connect screen and every dialog at 80x24, 100x30 and 160x45: everything a person needs is on screen and
reachable. Each dialog is the real one, opened by the demo's flows in an interactive app: book_meeting asks in a
form (Selects, lists of choices and more fields than 80x24 holds), open_dashboard asks to open a URL, ask_capital
for a model's reply (sampling), show_roots for the roots; then come the composer (update_work_item's, with a JSON
field), the export and the answers editor (``e`` and ``s`` on a round of book_meeting) and the help.

One pilot test per size opens each in turn in one app and proves, for each: every button and every box lies whole
inside the screen above the footer, cut by nothing; its title, its instructions, its labels and every other text
outside a box that scrolls show every word (none cut, none hidden under the buttons); and Tab, pressed once per
place the focus can stop, visits every button, field and focusable box, each drawn whole as it arrives (a form
longer than the screen scrolls to its field), and comes back where it started (no field keeps the Tab).

The snapshots (one app each) show each at 80x24 and 100x30, and at 160x45 the answer dialogs, which have no
snapshot of that size elsewhere (the connect screen, the composer, the export, the answers editor and the help
have theirs at 160x45 in their own test files). What each shows is in the docstring of the function opening it."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import pytest
from modal_support import SnapCompare
from rich.console import Console
from textual.containers import ScrollableContainer
from textual.content import Content
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button, OptionList, Static
from ui_support import (
    DEMO,
    LOGIN_ANSWER,
    SIZES,
    FixedAnswers,
    asked,
    catalog_item,
    connected,
    finished_call,
    make_app,
    offer_servers,
    opened,
    wait_for,
)

from inspector.ui.composer.compose_dialog import ComposeScreen
from inspector.ui.composer.resend import ComposePlan
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.modals.answers_editor import AnswersEditor
from inspector.ui.modals.dialog import Dialog
from inspector.ui.modals.elicitation import ElicitationModal
from inspector.ui.modals.export_dialog import ExportModal
from inspector.ui.modals.roots_editor import RootsModal
from inspector.ui.modals.sampling import SamplingModal
from inspector.ui.modals.url_consent import UrlConsentModal
from inspector.ui.screens.connect import ConnectScreen
from inspector.ui.screens.help import HelpScreen, key_table
from inspector.ui.widgets.key_footer import KeyFooter

ROOTS: Final = ("/home/ada/project",)
"""The roots offered (not the current folder, which differs from machine to machine)."""
CONTROLS: Final = f"{Dialog.FIELDS}, OptionList, Button, ScrollableContainer"
"""What a person types in, picks from or presses, and the boxes they scroll (those that take the focus)."""
SCROLLED_S: Final = 10.0
"""How long a focused widget may take to be scrolled into view (a turn of the app after the focus; a loaded
machine may take longer, but nothing near this)."""
Steps = Callable[[Pilot[Any]], Awaitable[None]]


# ------------------------------------------------------------------------------------------------- what is shown
def squeezed(text: str) -> str:
    """``text`` without its spaces and line breaks: the same words wrapped anywhere compare equal."""
    return "".join(text.split())


def drawn(screen: Screen[Any]) -> list[Strip]:
    """What the screen draws, line by line."""
    return screen._compositor.render_strips()


def shown_in(lines: list[Strip], region: Region) -> str:
    """What ``lines`` (as ``drawn``) show inside ``region``, line after line."""
    return "\n".join(line.crop(region.x, region.right).text for line in lines[region.y : region.bottom])


def above_footer(screen: Screen[Any]) -> Region:
    """The part of the screen a dialog may use: all of it but the footer's row."""
    return Region(0, 0, screen.size.width, screen.query_one(KeyFooter).region.y)


def whole_on_screen(screen: Screen[Any], widget: Widget) -> bool:
    """Whether ``widget`` is drawn whole: above the footer, and cut by no container (one that scrolls included)."""
    geometry = screen.find_widget(widget)
    return geometry.visible_region == geometry.region and above_footer(screen).contains_region(geometry.region)


def displayed(widget: Widget) -> bool:
    """Whether ``widget`` and every container holding it are displayed (none of them is ``display: none``)."""
    return all(node.display for node in widget.ancestors_with_self if isinstance(node, Widget))


def scrolls_with_a_box(widget: Widget) -> bool:
    """Whether ``widget`` sits in a box that scrolls (a server's message, a form, the help's keys): what is in it
    is reached by scrolling, not drawn whole at once."""
    return any(isinstance(node, ScrollableContainer) for node in widget.ancestors)


def plain(widget: Widget) -> str:
    """The text a Static, a Label or a Button shows ("" for a table or any other drawing)."""
    if isinstance(widget, Button):
        label = widget.label
        return label if isinstance(label, str) else label.plain
    visual = widget.visual if isinstance(widget, Static) else None
    return visual.plain if isinstance(visual, Content) else ""


def assert_every_word_shown(screen: Screen[Any]) -> None:
    """Every text outside a scrolling box, every button's label and the dialog's title show every word; every
    button and every box of the dialog lies whole on screen, above the footer."""
    lines = drawn(screen)
    for widget in screen.query("Static, Button"):
        text = plain(widget)
        if not displayed(widget) or not text.strip() or scrolls_with_a_box(widget):
            continue
        assert whole_on_screen(screen, widget), (widget, text, widget.region)
        assert squeezed(text) in squeezed(shown_in(lines, widget.region)), (text, shown_in(lines, widget.region))
    for box in screen.query(".dialog"):
        assert whole_on_screen(screen, box), box.region
        title, top = str(box.border_title or ""), Region(box.region.x, box.region.y, box.region.width, 1)
        assert squeezed(title) in squeezed(shown_in(lines, top)), (title, shown_in(lines, top))


async def drawn_whole(pilot: Pilot[Any], screen: Screen[Any], focused: Widget) -> None:
    """Wait until the ``focused`` widget is drawn whole (a box that scrolls brings it into view a turn after the
    focus moved); fail, saying what is cut, if it is not within ``SCROLLED_S``."""
    try:
        await wait_for(pilot, lambda: whole_on_screen(screen, focused), timeout=SCROLLED_S)
    except TimeoutError:
        geometry = screen.find_widget(focused)
        cut = f"{focused!r} has the focus but is cut: {geometry.region} shows {geometry.visible_region}"
        raise AssertionError(cut) from None


async def assert_tab_reaches_every_control(pilot: Pilot[Any], screen: Screen[Any]) -> None:
    """Tab, pressed once per place the screen's focus can stop, visits every button, every field and every box
    scrolled with the keys, each drawn whole as it arrives (a box that scrolls brings it into view), and comes back
    to where it started."""
    app = pilot.app
    controls = [widget for widget in screen.query(CONTROLS) if displayed(widget) and widget.focusable]
    assert controls, f"nothing to press, type in or scroll on {screen!r}"
    start, visited = app.focused, list[Widget]()
    for _ in screen.focus_chain:
        await pilot.press("tab")
        arrived = app.focused
        assert arrived is not None and arrived.screen is screen
        await drawn_whole(pilot, screen, arrived)
        visited.append(arrived)
    missed = [widget for widget in controls if widget not in visited]
    assert not missed, f"Tab never reaches {missed} (it visits {visited})"
    if start is not None:
        assert app.focused is start, f"Tab is kept by {visited}"


async def assert_fits(pilot: Pilot[Any], kind: type[Screen[Any]]) -> Screen[Any]:
    """The screen on top is a ``kind``; every word of it is shown, every control reachable (see above)."""
    await opened(pilot, kind)
    screen = pilot.app.screen
    assert isinstance(screen, kind)
    assert_every_word_shown(screen)
    await assert_tab_reaches_every_control(pilot, screen)
    return screen


async def answer(pilot: Pilot[Any], screen: MainScreen, *keys: str) -> None:
    """Press ``keys`` (which answer the question on top) and wait until the call that asked has ended."""
    call = screen.timeline.calls[-1]
    await pilot.press(*keys)
    await wait_for(pilot, lambda: call.ended and pilot.app.screen is screen)


async def closed(pilot: Pilot[Any], screen: MainScreen) -> None:
    """Press escape (which closes the dialog on top) and wait until ``screen`` is back on top."""
    await pilot.press("escape")
    await wait_for(pilot, lambda: pilot.app.screen is screen)


# ---------------------------------------------------------------------------------------------------- pilot test
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
async def test_each_dialog_fits_and_tab_reaches_every_control(tmp_path: Path, size: tuple[int, int]) -> None:
    offer_servers(tmp_path)
    app = make_app(tmp_path, target=None, interactive=True, roots=ROOTS)
    async with app.run_test(size=size) as pilot:
        connect = await assert_fits(pilot, ConnectScreen)
        listed = shown_in(drawn(connect), connect.query_one(OptionList).region).splitlines()
        for name, command in (("demo server", "python -m inspector.demo"), ("weather (.mcp.json)", "uvx weather-mcp")):
            assert any(name in row and f"stdio  {command} " in row for row in listed), listed  # one row each, whole
        await pilot.press("enter")  # (the box is empty: the server highlighted, the demo)
        screen = await connected(pilot)

        await asked(pilot, screen, "book_meeting", ElicitationModal)
        await assert_fits(pilot, ElicitationModal)
        await answer(pilot, screen, "ctrl+g")  # {"action": "cancel"}: an answer, which the answers editor shows
        meeting = screen.timeline.calls[-1].index
        questions: list[tuple[str, type[Screen[Any]], tuple[str, ...]]] = [
            ("open_dashboard", UrlConsentModal, ("d",)),
            ("ask_capital", SamplingModal, ("ctrl+t",)),
            ("show_roots", RootsModal, ("ctrl+j",)),
        ]
        for tool, dialog, answering in questions:
            await asked(pilot, screen, tool, dialog)
            await assert_fits(pilot, dialog)
            await answer(pilot, screen, *answering)

        screen.composer.compose(ComposePlan("tools", catalog_item(screen, "update_work_item")))  # a JSON field too
        await assert_fits(pilot, ComposeScreen)
        await closed(pilot, screen)
        screen.timeline_view.focus()
        screen.timeline_view.select_call(meeting, 2)
        await wait_for(pilot, lambda: screen.selected == (meeting, 2))
        await pilot.press("e")
        await assert_fits(pilot, ExportModal)
        await closed(pilot, screen)
        await pilot.press("s")
        await assert_fits(pilot, AnswersEditor)
        await closed(pilot, screen)
        await pilot.press("question_mark")
        help_screen = await assert_fits(pilot, HelpScreen)
        # The tables of keys scroll: every cell wraps between words at the help's width, none is cut ("subscriptio…").
        assert isinstance(help_screen, HelpScreen)
        tables = io.StringIO()
        console = Console(width=help_screen.query_one("#help-now").content_region.width, file=tables)
        console.print(key_table([key for key in help_screen.keys if key.available]))
        console.print(key_table([key for key in help_screen.keys if not key.available]))
        assert "…" not in tables.getvalue(), tables.getvalue()
        await closed(pilot, screen)


# ---------------------------------------------------------------------------------------------------- snapshots
async def the_connect_screen(pilot: Pilot[Any]) -> None:
    """The title "inspector — connect to an MCP server", the explanation wrapped whole (at 80 columns on three
    lines), the empty box for a command or URL with the focus, and the list: "Recent (1)" with "demo server  stdio
    python -m inspector.demo" highlighted and "From client config files (1)" with "weather (.mcp.json)  stdio  uvx
    weather-mcp", one row each. The footer says "↓ servers  ⏎ connect"."""
    await opened(pilot, ConnectScreen)


async def the_meeting_form(pilot: Pilot[Any]) -> None:
    """Over the dimmed main screen, "The server asks for information": "tools/call book_meeting · input meeting ·
    elicitation/create", the message, then the form from "Meeting title *" ("Sprint review") down as far as the
    room goes, with its scrollbar; under it the note "Required fields are marked *. ..." whole, and the buttons
    Accept, Decline and Cancel at the bottom right, above the footer (esc stop the call, ^⏎ accept ...)."""
    await asked(pilot, await connected(pilot), "book_meeting", ElicitationModal)
    # The form's first field takes the cursor after the dialog mounts (its module is imported when it first opens):
    # on a loaded machine the picture would otherwise catch it before.
    await wait_for(pilot, lambda: pilot.app.screen.focused is not None)
    await pilot.pause()


async def the_url_consent(pilot: Pilot[Any]) -> None:
    """ "The server asks you to open a web page": the call and "input dashboard", the message "Connect the demo
    dashboard in your browser ...", the URL https://dashboard.example.com/connect?session=demo in a box titled
    "URL (not fetched)", the note "Open sends nothing to the server ..." whole, and the buttons Open in browser,
    Done, retry (dimmed: nothing opened yet), Decline and Cancel."""
    await asked(pilot, await connected(pilot), "open_dashboard", UrlConsentModal)


async def the_sampling_reply(pilot: Pilot[Any]) -> None:
    """ "The server asks for an LLM reply (sampling)": the call and "input capital_of_france", the request in a box
    titled "Request" (at 80x24 its first lines, the user's "What is the capital of France?" first, the rest a
    scroll away; at 160x45 all of it: the question, the system prompt, maxTokens 100, the model hints and
    priorities), then "Your reply (the
    assistant message):" over the reply box with the cursor in it, the row "model inspector-user  stopReason
    endTurn", the checkbox "Answer every sampling request with the stub model", the note "ctrl+t (s outside the
    text boxes) for the stub model · maxTokens 100 (counted as words)" whole, and the buttons Send reply, Stub model
    and Stop the call: nothing under the buttons."""
    await asked(pilot, await connected(pilot), "ask_capital", SamplingModal)


async def the_roots(pilot: Pilot[Any]) -> None:
    """ "The server asks for your roots (roots/list)": the explanation, the header "URI (file://) or local path" and
    "name", the row "file:///home/ada/project  project  ✕" with the cursor in the URI, "+ add root", the checkbox
    "Don't ask again: ...", and the buttons Send roots and Stop the call."""
    await asked(pilot, await connected(pilot), "show_roots", RootsModal)


async def the_composer(pilot: Pilot[Any]) -> None:
    """The composer titled "call update_work_item": "tools/call update_work_item", its description wrapped whole,
    "Workitemid * workItemId" with "whole number" in its empty field (the cursor there), "Fields * fields" with its
    reason "JSON: an object with free-form keys" over an empty JSON box, and at the bottom the Call button with
    "ctrl+enter sends · tab next field"."""
    screen = await connected(pilot)
    screen.composer.compose(ComposePlan("tools", catalog_item(screen, "update_work_item")))
    await opened(pilot, ComposeScreen)


async def weather_round_2(pilot: Pilot[Any]) -> MainScreen:
    """get_weather called for Paris (#6, its login answered "octocat"), its round 2 highlighted."""
    screen = await finished_call(pilot, "get_weather", {"location": "Paris"})
    screen.timeline_view.focus()
    screen.timeline_view.select_call(6, 2)
    await wait_for(pilot, lambda: screen.selected == (6, 2))
    return screen


async def the_export(pilot: Pilot[Any]) -> None:
    """ "Export": "#6 tools/call get_weather · round 2", the buttons "1 curl", "2 JSON-RPC messages" (the one
    shown) and "3 Python (official SDK)", the call's messages as JSON in a read-only box ("[", "{", '"jsonrpc":
    "2.0"', '"id": 6' ...), and under it the hint "c copies everything · select with the mouse or shift+arrows,
    ctrl+c copies a selection" whole (two lines at 80 columns)."""
    await weather_round_2(pilot)
    await pilot.press("e")
    await opened(pilot, ExportModal)


async def the_answers_editor(pilot: Pilot[Any]) -> None:
    """ "Resend #6 with edited answers": "#6 tools/call get_weather · from round 2", the note on what is resent,
    the JSON {"github_login": {"action": "accept", "content": {"name": "octocat"}}} with the cursor in it, and the
    buttons Resend and Close."""
    await weather_round_2(pilot)
    await pilot.press("s")
    await opened(pilot, AnswersEditor)


async def the_help(pilot: Pilot[Any]) -> None:
    """Over the timeline, its last call (#5 resources/templates/list) highlighted: the "help" box, "Keys of this
    screen. ..." whole, then the table key, action, what it does, where, from "C catalog Show or hide the catalog
    ..." down, each cell wrapped between words ("subscriptions" whole in the action column at 80 columns), the rest
    a scroll away; the box reaches down to the footer's row, "esc close"."""
    screen = await connected(pilot)
    last = screen.timeline.calls[-1].index
    screen.timeline_view.focus()
    screen.timeline_view.select_call(last)
    await wait_for(pilot, lambda: screen.selected == (last, 0) and screen.timeline_view.has_focus)
    await pilot.press("question_mark")
    await opened(pilot, HelpScreen)


@dataclass(frozen=True, slots=True)
class Shown:
    """How one dialog is opened for its snapshot (``steps``, whose docstring says what the snapshot shows)."""

    steps: Steps
    sizes: tuple[tuple[int, int], ...] = ((80, 24), (100, 30), (160, 45))
    """The sizes it is taken at (at 160x45 the dialog's own test file may have it already)."""
    asks: bool = True
    """The questions are asked in the app's dialogs (else get_weather's login is answered "octocat")."""


SMALL: Final = ((80, 24), (100, 30))
DIALOGS: Final[dict[str, Shown]] = {
    "connect": Shown(the_connect_screen, SMALL),
    "form": Shown(the_meeting_form),
    "url": Shown(the_url_consent),
    "sampling": Shown(the_sampling_reply),
    "roots": Shown(the_roots),
    "composer": Shown(the_composer, SMALL),
    "export": Shown(the_export, SMALL, asks=False),
    "answers": Shown(the_answers_editor, SMALL, asks=False),
    "help": Shown(the_help, SMALL),
}
SNAPSHOTS: Final = [(name, size) for name, shown in DIALOGS.items() for size in shown.sizes]


@pytest.mark.parametrize(("dialog", "size"), SNAPSHOTS, ids=[f"{name}-{w}x{h}" for name, (w, h) in SNAPSHOTS])
def test_dialog_at_size(snap_compare: SnapCompare, tmp_path: Path, dialog: str, size: tuple[int, int]) -> None:
    shown = DIALOGS[dialog]
    offer_servers(tmp_path)
    app = make_app(
        tmp_path,
        target=None if dialog == "connect" else DEMO,
        answers=FixedAnswers(LOGIN_ANSWER),
        interactive=shown.asks,
        roots=ROOTS,
    )
    assert snap_compare(app, terminal_size=size, run_before=shown.steps)
