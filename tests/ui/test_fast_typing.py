"""Typing is never lost or misdirected, whatever the machine's load: keys sent in one burst (every one queued before
the app handles the first, as a loaded machine receives fast typing) land in the fields they were typed for, across
a dialog that is still opening, a Tab, an Enter that moves on, and from one question to the next. Pilot tests on
the real session over the memory transport; they wait on state, never on time."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import Input
from ui_support import SIZE, burst, connected, wait_for

from inspector.ui.app import InspectorApp
from inspector.ui.modals.elicitation import ElicitationModal
from inspector.ui.resend import ComposePlan
from inspector.ui.screens.call_composer import CallRequest
from inspector.ui.screens.compose import ComposeScreen
from inspector.ui.screens.main import MainScreen
from inspector.ui.widgets.catalog import Catalog, CatalogList

AppFactory = Callable[..., InspectorApp]


def asking(app: InspectorApp, key: str) -> Callable[[], bool]:
    """Whether the form dialog on top asks for the input ``key``."""
    return lambda: isinstance(app.screen, ElicitationModal) and app.screen.asked.key == key


async def test_keys_typed_while_the_composer_opens_fill_its_fields_in_order(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        listing = screen.query_one(CatalogList)
        listing.focus()
        listing.highlighted = listing.get_option_index("tools:9")  # add: integers a and b
        await wait_for(pilot, lambda: listing.has_focus)
        # Enter opens the composer; everything after it is typed before the composer exists.
        burst(app, "enter", "2", "tab", "35", "enter")
        await wait_for(pilot, lambda: screen.timeline.calls[-1].name == "add" and screen.timeline.calls[-1].ended)
        assert screen.timeline.calls[-1].params == {"name": "add", "arguments": {"a": 2, "b": 35}}
        assert isinstance(app.screen, MainScreen)


async def test_a_tab_typed_fast_is_never_overtaken_by_the_next_characters(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        add = next(tool for tool in screen.query_one(Catalog).items["tools"] if tool["name"] == "add")
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
