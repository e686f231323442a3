"""The roots modal: pilot tests of the ListRootsResult it returns (edited, validated, "don't ask again"), and its
SVG snapshot (the docstring says what a person should see)."""

from __future__ import annotations

from typing import Any

from modal_support import SIZE, SnapCompare, settle, wait_until
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Static

from inspector.answers.roots import ConfiguredRoots, Root
from inspector.answers.source import Answer
from inspector.ui.devtools.preview import SAMPLES, AnswersHost
from inspector.ui.modals.roots_editor import RootRow, RootsModal

ROOTS = {"method": "roots/list"}


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_roots_edit_validate_and_dont_ask_again() -> None:
    store = ConfiguredRoots(["file:///srv/project"])
    app = AnswersHost([("roots", ROOTS), ("roots", ROOTS)], roots=store)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, RootsModal))
        modal = app.screen
        assert [row.query_one(".root-uri", Input).value for row in modal.query(RootRow)] == ["file:///srv/project"]
        await pilot.press("ctrl+n")
        await pilot.pause()
        rows = list(modal.query(RootRow))
        rows[1].query_one(".root-uri", Input).value = "https://example.com/src"
        await pilot.press("ctrl+enter")
        await pilot.pause()
        assert "not a file:// URI" in str(rows[1].query_one(".root-error", Static).render())
        assert app.outcomes == []
        rows[1].query_one(".root-uri", Input).value = "/home/me/notes"
        rows[1].query_one(".root-name", Input).value = "notes"
        rows[0].query_one(".root-name", Input).value = "project"
        modal.query_one("#dont-ask", Checkbox).value = True
        await pilot.click("#send")
        await wait_until(pilot, lambda: len(app.outcomes) == 2)
    sent: list[Root] = [
        {"uri": "file:///srv/project", "name": "project"},
        {"uri": "file:///home/me/notes", "name": "notes"},
    ]
    assert app.outcomes == [Answer({"roots": sent}, "you", "person"), Answer({"roots": sent}, "roots list")]
    assert store.roots == sent
    assert not app.answers.ask_roots


async def test_roots_remove_a_row_and_list_source() -> None:
    live: list[Root] = [{"uri": "file:///a"}, {"uri": "file:///b"}]
    app = AnswersHost([("roots", ROOTS)], roots=lambda: live)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, RootsModal))
        await pilot.click("RootRow .root-remove")
        await wait_until(pilot, lambda: len(app.screen.query(RootRow)) == 1)
        await pilot.press("ctrl+enter")
        await wait_until(pilot, lambda: bool(app.outcomes))
    assert app.outcomes == [Answer({"roots": [{"uri": "file:///b"}]}, "you", "person")]
    assert live == [{"uri": "file:///b"}]


async def test_roots_first_keys_edit_the_first_root() -> None:
    app = AnswersHost([("roots", SAMPLES["roots"])], roots=ConfiguredRoots(["file:///srv"]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, RootsModal))
        first = app.screen.query(RootRow).first().query_one(".root-uri", Input)
        assert app.screen.focused is first
        await pilot.press(*"/app")  # the value was selected on focus: typing replaces it
        assert first.value == "/app"


# ---------------------------------------------------------------------------------------------------- snapshots
def test_roots_dialog_with_a_refused_row(snap_compare: SnapCompare) -> None:
    """A dialog titled "The server asks for your roots (roots/list)". Column heads "URI (file://) or local path" and
    "name"; row 1 "file:///srv/project" named "project"; row 2 "https://example.com/src" with, under it in the error
    colour, "root 'https://example.com/src' is not a file:// URI: ..."; each row has a ✕ button. Then "+ add root",
    an unticked "Don't ask again: answer roots/list with this list from now on", and Send roots / Cancel the call."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot, RootsModal)
        await pilot.press("ctrl+n")
        await pilot.pause()
        rows = list(pilot.app.screen.query(RootRow))
        rows[1].query_one(".root-uri", Input).value = "https://example.com/src"
        await pilot.press("ctrl+enter")
        await pilot.pause()
        pilot.app.screen.query_one("#send").focus()
        await pilot.pause()

    app = AnswersHost(
        [("roots", SAMPLES["roots"])], roots=ConfiguredRoots([{"uri": "file:///srv/project", "name": "project"}])
    )
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)
