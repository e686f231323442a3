"""``InteractiveAnswers`` driving the modals from a worker, as the session does: each modal titled with the call and
the input key, answers in turn, an unknown method refused, and a cancelled call closing its question."""

from __future__ import annotations

from modal_support import SIZE, wait_until
from textual.widgets import Input, Static

from inspector.answers.source import Answer, NoAnswer
from inspector.ui.devtools.preview import AnswersHost
from inspector.ui.modals.elicitation import ElicitationModal
from inspector.ui.modals.url_consent import UrlConsentModal

FORM = {"method": "elicitation/create", "params": {"message": "Name?", "requestedSchema": {
    "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}}  # fmt: skip


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
        Answer({"action": "accept", "content": {"name": "octocat"}}, "you", "person"),
        Answer({"action": "accept"}, "you", "person"),
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
