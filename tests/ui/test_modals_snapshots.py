"""SVG snapshots of the answer modals. Each docstring says what a person should see in the picture."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from test_modals import BOOK_MEETING
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from inspector.answers.roots import ConfiguredRoots
from inspector.ui.modals.preview import SAMPLES, AnswersHost, PreviewApp
from inspector.ui.modals.roots import RootRow, RootsModal
from inspector.ui.modals.sampling import SamplingModal
from inspector.ui.modals.url_consent import UrlConsentModal

SIZE = (120, 40)
SnapCompare = Callable[..., bool]


async def settle(pilot: Pilot[Any], screen: type) -> None:
    """Wait (bounded) for the modal, then stop cursors blinking so the picture is stable."""
    async with asyncio.timeout(5):
        while not isinstance(pilot.app.screen, screen):
            await pilot.pause()
    await pilot.pause()
    app = pilot.app
    assert isinstance(app, PreviewApp)
    app.steady()


def form_host(schema: dict[str, Any] | None = None, message: str | None = None) -> AnswersHost:
    params = {
        "message": message or "Book a meeting [bold red]boom[/] \x1b[2J",
        "requestedSchema": schema or BOOK_MEETING,
    }
    return AnswersHost([("meeting", {"method": "elicitation/create", "params": params})])


def test_elicitation_form_book_meeting(snap_compare: SnapCompare) -> None:
    """A dialog with a thick border titled "The server asks for information" over an empty screen. First line:
    "tools/call preview · input meeting · elicitation/create". The message reads literally "Book a meeting
    [bold red]boom[/] ␛[2J" (no red, no bold, the screen not cleared). Below, the form: "Meeting title *" with its
    description and "Sprint review" pre-filled with the cursor at its end (the first field has the focus, and the
    form is scrolled to its top), "Organizer email *" with a dim name@example.com hint, "Day *"
    pre-filled 2026-08-03, "Starts at" with a YYYY-MM-DDTHH:MM:SSZ hint, "Agenda link", "Attendees *" pre-filled 4,
    "Duration (hours)", a ticked "Remote" checkbox ... (the rest scrolls). Under the form "Required fields are
    marked *"; bottom right the Accept, Decline and Cancel buttons; the footer lists esc Cancel the call,
    ^⏎ Accept, ^r Decline, ^g Cancel."""

    async def steps(pilot: Pilot[Any]) -> None:
        from inspector.ui.modals.elicitation import ElicitationModal

        await settle(pilot, ElicitationModal)

    assert snap_compare(form_host(), terminal_size=SIZE, run_before=steps)


def test_elicitation_form_errors_before_sending(snap_compare: SnapCompare) -> None:
    """The same dialog after Accept with bad input: the form has scrolled so "Organizer email *" is visible, the
    field holds "not-an-email" and under it in the error colour "'not-an-email' is not a 'email'"; "Attendees *"
    holds 99 with "99 is greater than the maximum of 50" under it. Lower down (scrolled out) "Room *" says it is
    required. Nothing was sent: the screen behind still says "(no answer yet)"."""

    async def steps(pilot: Pilot[Any]) -> None:
        from inspector.ui.modals.elicitation import ElicitationModal

        await settle(pilot, ElicitationModal)
        inputs = list(pilot.app.screen.query(Input))
        inputs[1].value = "not-an-email"
        inputs[5].value = "99"
        await pilot.press("ctrl+enter")
        await pilot.pause()
        pilot.app.screen.query(Input)[1].focus()
        await pilot.pause()

    assert snap_compare(form_host(), terminal_size=SIZE, run_before=steps)


def test_elicitation_unsupported_schema_json_editor(snap_compare: SnapCompare) -> None:
    """A requestedSchema with a nested object: the dialog shows, in the warning colour, "⚠ This requestedSchema is
    not one the spec allows (property 'address': nested objects are not allowed); answer as JSON." and a JSON
    editor holding {"address": {"city": 3}} with the error "address/city: 3 is not of type 'string'" under it."""

    async def steps(pilot: Pilot[Any]) -> None:
        from inspector.ui.modals.elicitation import ElicitationModal

        await settle(pilot, ElicitationModal)
        pilot.app.screen.query_one(TextArea).text = '{"address": {"city": 3}}'
        await pilot.pause()

    params = SAMPLES["unsupported"]["params"]
    assert snap_compare(form_host(params["requestedSchema"], params["message"]), terminal_size=SIZE, run_before=steps)


def test_url_consent_with_punycode_warning(snap_compare: SnapCompare) -> None:
    """A dialog titled "The server asks you to open a web page". The message "Sign in to your account to continue";
    a box titled "URL (not fetched)" with the full URL https://accounts.xn--gogle-jye.com/signin?continue=%2Fmcp&
    session=7f3a where only the domain accounts.xn--gogle-jye.com is bold, underlined and in the warning colour (the
    rest dim); then two warnings: punycode ("reads as 'accounts.gоogle.com'") and "The domain xn--gogle-jye.com is
    not the server's (example.com)". Buttons: Open in browser, Done, retry (greyed out), Decline, Cancel; the
    footer lists esc, o, r, d, c."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot, UrlConsentModal)

    app = AnswersHost([("login", SAMPLES["url"])], server_host="example.com")
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_url_consent_after_open_without_browser(snap_compare: SnapCompare) -> None:
    """The URL dialog after pressing o on a machine with no browser: a green line says "No browser could be opened
    here: the URL was copied to your clipboard. Open it yourself, then choose Done, retry (r)."; "Open in browser"
    is greyed out and "Done, retry" is enabled and focused."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot, UrlConsentModal)
        await pilot.press("o")
        async with asyncio.timeout(5):
            while pilot.app.screen.query_one("#done").disabled:
                await pilot.pause()
        await pilot.pause()

    app = AnswersHost([("login", SAMPLES["url"])], server_host="accounts.xn--gogle-jye.com")
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_sampling_dialog(snap_compare: SnapCompare) -> None:
    """A dialog titled "The server asks for an LLM reply (sampling)". A box titled "Request" shows "System prompt"
    and "You are a geography tutor. Answer in one word.", the user message "What is the capital of France?", then
    maxTokens 100, model hints claude, priorities "cost 0.2 · intelligence 0.8". Below: "Your reply (the assistant
    message):" and an empty text box that has the focus (highlighted border, cursor in it: the first keys typed are
    the reply), "model inspector-user" and "stopReason endTurn", an unticked "Answer every sampling request with the
    stub model (no more dialogs)", the hint "ctrl+t (s outside the text boxes) for the stub model · maxTokens 100
    (counted as words)", the buttons Send reply, Stub model, Cancel the call; the footer lists ^t Stub model."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot, SamplingModal)

    assert snap_compare(AnswersHost([("capital", SAMPLES["sampling"])]), terminal_size=SIZE, run_before=steps)


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
