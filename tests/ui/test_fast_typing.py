"""Typing is never lost or misdirected, whatever the machine's load: keys sent in one burst (every one queued before
the app handles the first, as a loaded machine receives fast typing) land in the fields they were typed for, across
a dialog that is still opening, a Tab, an Enter that moves on, from one question to the next, a key whose action
moves the focus (``/``), and the closing of every dialog: the keys typed at once after the key that closes it go to
the screen behind, where the person was about to type. Pilot tests on the real session over the memory transport;
they wait on state, never on time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input
from ui_support import (
    SIZE,
    WORK_ITEM,
    asked,
    burst,
    catalog_item,
    catalog_on,
    connected,
    finished_call,
    opened,
    wait_for,
)

from inspector.ui.app import InspectorApp
from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.composer.compose_dialog import ComposeScreen
from inspector.ui.composer.resend import ComposePlan
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.modals.answers_editor import AnswersEditor
from inspector.ui.modals.elicitation import ElicitationModal
from inspector.ui.modals.export_dialog import ExportModal
from inspector.ui.modals.roots_editor import RootsModal
from inspector.ui.modals.sampling import SamplingModal
from inspector.ui.modals.url_consent import UrlConsentModal
from inspector.ui.screens.help import HelpScreen
from inspector.ui.widgets.catalog import Catalog, CatalogList
from inspector.ui.widgets.query_box import SearchBox

AppFactory = Callable[..., InspectorApp]


def asking(app: InspectorApp, key: str) -> Callable[[], bool]:
    """Whether the form dialog on top asks for the input ``key``."""
    return lambda: isinstance(app.screen, ElicitationModal) and app.screen.asked.key == key


async def test_keys_typed_while_the_composer_opens_fill_its_fields_in_order(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await catalog_on(pilot, "add")  # integers a and b
        # Enter opens the composer; everything after it is typed before the composer exists.
        burst(app, "enter", "2", "tab", "35", "enter")
        await wait_for(pilot, lambda: screen.timeline.calls[-1].name == "add" and screen.timeline.calls[-1].ended)
        assert screen.timeline.calls[-1].params == {"name": "add", "arguments": {"a": 2, "b": 35}}
        assert isinstance(app.screen, MainScreen)


async def test_a_tab_typed_fast_is_never_overtaken_by_the_next_characters(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        add = catalog_item(screen, "add")
        # The composer is on its way; the keys come before it is built.
        screen.composer.compose(ComposePlan("tools", add))
        burst(app, "2", "tab", "35", "shift+tab", "0")
        await wait_for(pilot, lambda: isinstance(app.screen, ComposeScreen) and len(app.screen.query(Input)) == 2)
        fields = app.screen.query(Input)
        await wait_for(pilot, lambda: (fields[0].value, fields[1].value) == ("20", "35"))


async def test_keys_typed_between_two_questions_of_a_round_go_to_the_second(app_factory: AppFactory) -> None:
    app = app_factory(interactive=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.run_call(CallRequest("tools", "rolling_login", {}))
        await wait_for(
            pilot, lambda: isinstance(app.screen, ElicitationModal) and app.screen.asked.key == "github_login"
        )
        # GitHub, then (same round, a dialog not yet open) Google's email after clearing the field.
        burst(app, "octocat", "enter", "ctrl+u", "ada@example.com", "enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, ElicitationModal) and app.screen.asked.key == "microsoft_login"
        )
        burst(app, "ada@outlook.com", "enter")
        call = screen.timeline.calls[-1]
        await wait_for(pilot, lambda: call.ended)
        given = {answer.key: answer.response for round_ in call.rounds for answer in round_.answers}
        assert given == {
            "github_login": {"action": "accept", "content": {"name": "octocat"}},
            "google_login": {"action": "accept", "content": {"email": "ada@example.com"}},
            "microsoft_login": {"action": "accept", "content": {"email": "ada@outlook.com"}},
        }
        assert call.status == "complete" and isinstance(app.screen, MainScreen)


# ---------------------------------------------------------------------------------------------- after a dialog closes
def at_once(app: InspectorApp, *keys: str) -> None:
    """``burst``, with control keys too (``ctrl+t``): every key queued before the app handles the first."""
    for key in keys:
        if key.startswith("ctrl+") and key not in ("ctrl+u", "ctrl+j"):
            driver = app._driver
            assert driver is not None
            driver.send_message(events.Key(key, None).set_sender(app))
        else:
            burst(app, key)


async def searched_at_once_after(pilot: Pilot[Any], screen: MainScreen, *closing: str) -> None:
    """Press ``closing`` (the keys that close the dialog on top) and, in the same burst, ``/slow``: the search box
    has the focus and reads "slow", no letter went anywhere else, and the main screen is on top."""
    app = pilot.app
    assert isinstance(app, InspectorApp)
    at_once(app, *closing, "/slow")
    search = screen.query_one(SearchBox)
    await wait_for(pilot, lambda: app.focused is search and search.value == "slow")
    for _ in range(3):
        await pilot.pause()  # (a key gone astray would show by now: a dialog opened, a letter typed)
    assert isinstance(app.screen, MainScreen) and search.value == "slow"


async def test_keys_typed_right_after_a_slash_go_to_the_search_box(app_factory: AppFactory) -> None:
    """``/`` moves the focus a turn after its key is read: the letters typed with it wait for that turn."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        await wait_for(pilot, lambda: screen.query_one(CatalogList).has_focus)
        await searched_at_once_after(pilot, screen)


async def test_an_editing_key_is_never_overtaken_by_the_characters_typed_after_it(app_factory: AppFactory) -> None:
    """ctrl+u, backspace and the arrows are the box's bindings, run once the key has come back up to the app; the
    letters typed after them went straight in before that: ``/``, ctrl+u, ``slow`` over a search box holding
    ``add`` left it empty (found in tmux at 80x24; the enter that followed called the first tool listed), and a
    backspace deleted the letter typed after it."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        box, listing = screen.query_one(SearchBox), screen.query_one(CatalogList)
        burst(app, "/", "add", "enter")
        await wait_for(pilot, lambda: app.focused is listing and box.value == "add")
        # ("/" takes the focus from the list before any key edits the box: back on the list, the burst is done)
        burst(app, "/", "ctrl+u", "slow", "enter")
        await wait_for(pilot, lambda: app.focused is listing and box.value != "add")
        assert box.value == "slow" and screen.query_one(Catalog).visible_names == ["slow_count"]
        burst(app, "/", "ctrl+u", "abc", "backspace", "left", "d", "enter")
        await wait_for(pilot, lambda: app.focused is listing and box.value != "slow")
        assert box.value == "adb"


async def test_enter_on_the_composer_then_slash_at_once(app_factory: AppFactory) -> None:
    """The issue's case: the call sent with enter in its last field, then ``/slow`` at once (the box was empty, and
    the ``s`` resent the call just made)."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await catalog_on(pilot, "add")  # integers a and b
        burst(app, "enter")
        await opened(pilot, ComposeScreen)
        await searched_at_once_after(pilot, screen, "2", "tab", "3", "enter")
        await wait_for(pilot, lambda: screen.timeline.calls[-1].name == "add" and screen.timeline.calls[-1].ended)
        assert screen.timeline.calls[-1].params == {"name": "add", "arguments": {"a": 2, "b": 3}}
        assert [call.name for call in screen.timeline.calls].count("add") == 1  # nothing resent


async def test_at_80x24_the_catalog_drawer_closes_with_the_composer_not_under_the_next_keys(
    app_factory: AppFactory,
) -> None:
    """At 80x24 the catalog is a drawer that ``/`` opens and a call closes: it closes as the composer does, so the
    ``/slow`` typed at once opens it again and searches (it closed when the call's worker first ran, under the
    keys, and took the focus from the search box: ``s`` resent the call)."""
    app = app_factory()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await connected(pilot)
        burst(app, "/add", "enter")  # the search, then enter: the list, on add
        listing = screen.query_one(CatalogList)
        await wait_for(pilot, lambda: listing.has_focus)
        burst(app, "enter")
        await opened(pilot, ComposeScreen)
        await searched_at_once_after(pilot, screen, "2", "tab", "3", "enter")
        await wait_for(pilot, lambda: screen.timeline.calls[-1].name == "add" and screen.timeline.calls[-1].ended)
        assert [call.name for call in screen.timeline.calls].count("add") == 1  # nothing resent


async def test_escape_on_the_composer_then_slash_at_once(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        add = catalog_item(screen, "add")
        screen.composer.compose(ComposePlan("tools", add))
        await opened(pilot, ComposeScreen)
        await searched_at_once_after(pilot, screen, "7", "escape")
        assert not [call for call in screen.timeline.calls if call.name == "add"]


QUESTIONS: list[tuple[str, type[Screen[Any]], tuple[str, ...]]] = [
    ("get_weather", ElicitationModal, ("octocat", "enter")),  # the form: enter in its last field accepts
    ("get_weather", ElicitationModal, ("octo", "escape")),  # escape stops the call
    ("book_meeting", ElicitationModal, ("ctrl+g",)),  # a priority key of the form: answer "cancel"
    ("ask_capital", SamplingModal, ("Paris", "ctrl+j")),  # the reply written and sent
    ("ask_capital", SamplingModal, ("ctrl+t",)),  # the stub model answers
    ("show_roots", RootsModal, ("ctrl+j",)),
    ("open_dashboard", UrlConsentModal, ("d",)),  # declined
    ("open_dashboard", UrlConsentModal, ("escape",)),
]


@pytest.mark.parametrize(
    ("tool", "dialog", "closing"), QUESTIONS, ids=lambda value: str(getattr(value, "__name__", value))
)
async def test_keys_typed_as_a_question_closes_go_to_the_screen_behind(
    app_factory: AppFactory, tool: str, dialog: type[Screen[Any]], closing: tuple[str, ...]
) -> None:
    app = app_factory(interactive=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        await wait_for(pilot, lambda: screen.query_one(CatalogList).has_focus)
        await asked(pilot, screen, tool, dialog)
        await searched_at_once_after(pilot, screen, *closing)
        call = screen.timeline.calls[-1]
        await wait_for(pilot, lambda: call.ended)
        assert call.name == tool


async def test_keys_typed_as_the_export_dialog_closes(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "add", {"a": 2, "b": 40})
        screen.timeline_view.focus()
        screen.timeline_view.select_call(len(screen.timeline.calls))
        await wait_for(pilot, lambda: screen.selected == (len(screen.timeline.calls), 0))
        await pilot.press("e")
        await opened(pilot, ExportModal)
        await searched_at_once_after(pilot, screen, "escape")


async def test_keys_typed_as_the_answers_editor_closes(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "update_work_item", WORK_ITEM)
        old = len(screen.timeline.calls)
        screen.timeline_view.focus()
        screen.timeline_view.select_call(old, 2)
        await wait_for(pilot, lambda: screen.selected == (old, 2))
        await pilot.press("s")
        await opened(pilot, AnswersEditor)
        await searched_at_once_after(pilot, screen, "ctrl+s")  # resent with the answers shown
        await wait_for(pilot, lambda: len(screen.timeline.calls) == old + 1 and screen.timeline.calls[-1].ended)


async def test_keys_typed_as_the_help_closes(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        burst(app, "?")
        await opened(pilot, HelpScreen)
        await searched_at_once_after(pilot, screen, "escape")
