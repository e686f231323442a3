"""Pilot tests of the sampling and roots modals, and of InteractiveAnswers driving every modal from a worker."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select, Static, TextArea

from inspector.answers.base import Answer, CallCancelled, NoAnswer
from inspector.answers.roots import ConfiguredRoots, Root
from inspector.ui.modals.elicitation import ElicitationModal
from inspector.ui.modals.preview import AnswersHost
from inspector.ui.modals.roots import RootRow, RootsModal
from inspector.ui.modals.sampling import SamplingModal
from inspector.ui.modals.url_consent import UrlConsentModal

SIZE = (120, 40)

SAMPLING: dict[str, Any] = {
    "method": "sampling/createMessage",
    "params": {
        "systemPrompt": "Be brief [bold red]boom[/]",
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "What is the capital of France? \x1b[2J"}},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "atlas", "input": {"q": "FR"}}]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "toolUseId": "t1", "content": [{"type": "text", "text": "Paris"}]}],
            },
            {"role": "user", "content": [{"type": "image", "mimeType": "image/png", "data": "AAAA"},
                                         {"type": "audio", "mimeType": "audio/wav", "data": "AAAA"},
                                         {"type": "text", "text": "capital of France, again?"}]},
        ],
        "modelPreferences": {"hints": [{"name": "claude"}], "costPriority": 0.2},
        "maxTokens": 5,
        "temperature": 0.1,
        "tools": [{"name": "atlas", "description": "Looks places up", "inputSchema": {"type": "object"}}],
    },
}  # fmt: skip
ROOTS = {"method": "roots/list"}
FORM = {"method": "elicitation/create", "params": {"message": "Name?", "requestedSchema": {
    "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}}  # fmt: skip


async def wait_until(pilot: Pilot[Any], ready: Callable[[], bool], timeout: float = 5.0) -> None:
    """Let the app run until ``ready()``; fails after ``timeout`` seconds (no blind sleeps)."""
    async with asyncio.timeout(timeout):
        while not ready():
            await pilot.pause()


def answers_of(app: AnswersHost) -> list[Answer]:
    return [outcome for outcome in app.outcomes if isinstance(outcome, Answer)]


async def test_sampling_reply_written_by_the_user() -> None:
    app = AnswersHost([("capital", SAMPLING)])
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, SamplingModal))
        modal = app.screen
        assert isinstance(modal, SamplingModal)
        shown = str(modal.query_one(".sampling-request Static", Static).render())
        for expected in ("Be brief [bold red]boom[/]", "capital of France? ␛[2J", "[tool_use] atlas", '{"q": "FR"}',
                         "[tool_result] for t1", "[image] image/png", "[audio] audio/wav", "maxTokens    5",
                         "model hints  claude", "cost 0.2", "temperature  0.1", "atlas: Looks places up"):  # fmt: skip
            assert expected in shown, expected
        await pilot.press("ctrl+enter")  # nothing written yet: refused, and said why
        await pilot.pause()
        assert "Write a reply" in str(modal.query_one("#sampling-error", Static).render())
        modal.query_one("#reply-text", TextArea).text = "one two three four five six"
        await pilot.press("ctrl+enter")
        await pilot.pause()
        assert "maxTokens 5" in str(modal.query_one("#sampling-error", Static).render())
        modal.query_one("#reply-text", TextArea).text = "Paris."
        modal.query_one("#reply-model", Input).value = "my-brain-1"
        modal.query_one("#reply-stop", Select).value = "stopSequence"
        await pilot.click("#send")
        await wait_until(pilot, lambda: bool(app.outcomes))
    assert app.outcomes == [
        Answer(
            {
                "role": "assistant",
                "content": {"type": "text", "text": "Paris."},
                "model": "my-brain-1",
                "stopReason": "stopSequence",
            },
            "you",
        )
    ]
    assert not app.answers.always_stub


async def test_sampling_stub_key_and_always_stub() -> None:
    app = AnswersHost([("first", SAMPLING), ("second", SAMPLING)])
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, SamplingModal))
        assert app.screen.focused is app.screen.query_one("#reply-text", TextArea)  # the first field
        app.screen.query_one("#always-stub", Checkbox).value = True
        await pilot.press("ctrl+t")  # the stub key that works while the reply box has the focus
        await wait_until(pilot, lambda: len(app.outcomes) == 2)
        assert not isinstance(app.screen, SamplingModal)  # the second request never opened a dialog
    stub = {
        "role": "assistant",
        "content": {"type": "text", "text": "Paris"},
        "model": "inspector-stub",
        "stopReason": "endTurn",
    }
    assert app.outcomes == [Answer(stub, "stub model"), Answer(stub, "stub model")]
    assert app.answers.always_stub


async def test_sampling_stub_auto_from_the_app_and_escape_cancels() -> None:
    app = AnswersHost([("auto", SAMPLING)], stub_auto=lambda: True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: bool(app.outcomes))
    assert answers_of(app)[0].source == "stub model"
    app = AnswersHost([("cancelled", SAMPLING)])
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, SamplingModal))
        await pilot.press("escape")
        await wait_until(pilot, lambda: bool(app.outcomes))
    assert isinstance(app.outcomes[0], CallCancelled)


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
    assert app.outcomes == [Answer({"roots": sent}, "you"), Answer({"roots": sent}, "roots list")]
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
    assert app.outcomes == [Answer({"roots": [{"uri": "file:///b"}]}, "you")]
    assert live == [{"uri": "file:///b"}]


async def test_form_and_url_through_interactive_answers_titled_with_the_call() -> None:
    url = {"method": "elicitation/create", "params": {"mode": "url", "message": "Go", "url": "https://example.com/a"}}
    app = AnswersHost([("name", FORM), (None, url)], server_host="example.com")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        title = str(app.screen.query_one(".answer-title", Static).render())
        assert title == "tools/call preview  ·  input name  ·  elicitation/create"
        app.screen.query_one(Input).value = "octocat"
        await pilot.press("ctrl+enter")
        await wait_until(pilot, lambda: isinstance(app.screen, UrlConsentModal))
        assert "legacy server request" in str(app.screen.query_one(".answer-title", Static).render())
        await pilot.press("o")
        await wait_until(pilot, lambda: bool(app.opened))
        await pilot.press("r")
        await wait_until(pilot, lambda: len(app.outcomes) == 2)
    assert app.outcomes == [
        Answer({"action": "accept", "content": {"name": "octocat"}}, "you"),
        Answer({"action": "accept"}, "you"),
    ]
    assert app.opened == ["https://example.com/a"]


async def test_unknown_method_is_no_answer_and_a_cancelled_worker_closes_its_modal() -> None:
    app = AnswersHost([("odd", {"method": "tasks/get"}), ("name", FORM)])
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        assert isinstance(app.outcomes[0], NoAnswer)
        app.workers.cancel_all()
        await wait_until(pilot, lambda: not isinstance(app.screen, ElicitationModal))
    assert len(app.outcomes) == 1
