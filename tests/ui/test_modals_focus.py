"""When an answer modal opens, its first field has the focus: the first keys typed answer (no Tab needed)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from test_modals import BOOK_MEETING
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from inspector.answers.base import Answer
from inspector.answers.roots import ConfiguredRoots
from inspector.ui.modals.elicitation import ElicitationModal
from inspector.ui.modals.preview import SAMPLES, AnswersHost
from inspector.ui.modals.roots import RootRow, RootsModal
from inspector.ui.modals.sampling import SamplingModal
from inspector.ui.modals.url_consent import UrlConsentModal
from inspector.ui.widgets.form_fields import FieldWidget

SIZE = (120, 40)


async def wait_until(pilot: Pilot[Any], ready: Callable[[], bool], timeout: float = 5.0) -> None:
    async with asyncio.timeout(timeout):
        while not ready():
            await pilot.pause()


async def test_elicitation_first_keys_go_to_the_first_field() -> None:
    ask = {"method": "elicitation/create", "params": {"message": "Book", "requestedSchema": BOOK_MEETING}}
    app = AnswersHost([("meeting", ask)])
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        title = next(w for w in app.screen.query(FieldWidget) if w.spec.name == "title").query_one(Input)
        assert app.screen.focused is title
        await pilot.press("space", "2")
        organizer = next(w for w in app.screen.query(FieldWidget) if w.spec.name == "organizer").query_one(Input)
        await pilot.press("tab", *"ada@example.com")
        assert title.value == "Sprint review 2" and organizer.value == "ada@example.com"
        scroll = app.screen.query_one(".answer-body")
        assert scroll.scroll_offset.y == 0  # the first field's label is still in view


async def test_sampling_first_keys_write_the_reply() -> None:
    app = AnswersHost([("capital", SAMPLES["sampling"])])
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, SamplingModal))
        await pilot.press(*"Paris", "ctrl+enter")
        await wait_until(pilot, lambda: bool(app.outcomes))
    outcome = app.outcomes[0]
    assert isinstance(outcome, Answer) and outcome.response["content"] == {"type": "text", "text": "Paris"}


async def test_roots_first_keys_edit_the_first_root() -> None:
    app = AnswersHost([("roots", SAMPLES["roots"])], roots=ConfiguredRoots(["file:///srv"]))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, RootsModal))
        first = app.screen.query(RootRow).first().query_one(".root-uri", Input)
        assert app.screen.focused is first
        await pilot.press(*"/app")  # the value was selected on focus: typing replaces it
        assert first.value == "/app"


async def test_url_consent_focuses_no_button() -> None:
    app = AnswersHost([("login", SAMPLES["url"])])
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, UrlConsentModal))
        assert app.screen.focused is None  # Enter consents to nothing; o, r, d, c work at once
        assert not app.screen.query(TextArea)
