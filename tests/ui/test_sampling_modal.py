"""The sampling modal: pilot tests of the CreateMessageResult it returns (written by the user, or the stub model's),
and its SVG snapshot (the docstring says what a person should see)."""

from __future__ import annotations

from typing import Any

from modal_support import SIZE, SnapCompare, settle, wait_until
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select, Static, TextArea

from inspector.answers.source import Answer, CallCancelled
from inspector.ui.devtools.preview import SAMPLES, AnswersHost
from inspector.ui.modals.sampling import SamplingModal

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


def answers_of(app: AnswersHost) -> list[Answer]:
    return [outcome for outcome in app.outcomes if isinstance(outcome, Answer)]


# ---------------------------------------------------------------------------------------------------- pilot tests
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
            "person",
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
    first, second = answers_of(app)
    # The first: the person read the dialog and handed it to the model, whose own compute is timed apart.
    assert (first.response, first.source, first.party) == (stub, "stub model", "person")
    assert first.model_ms is not None and first.model_ms >= 0
    assert second == Answer(stub, "stub model", "model")  # no dialog: the whole wait is the model's
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


async def test_sampling_first_keys_write_the_reply() -> None:
    app = AnswersHost([("capital", SAMPLES["sampling"])])
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, SamplingModal))
        await pilot.press(*"Paris", "ctrl+enter")
        await wait_until(pilot, lambda: bool(app.outcomes))
    outcome = app.outcomes[0]
    assert isinstance(outcome, Answer) and outcome.response["content"] == {"type": "text", "text": "Paris"}


# ---------------------------------------------------------------------------------------------------- snapshots
def test_sampling_dialog(snap_compare: SnapCompare) -> None:
    """A dialog titled "The server asks for an LLM reply (sampling)". A box titled "Request" shows the user message
    "What is the capital of France?" first, then "System prompt" and "You are a geography tutor. Answer in one
    word.", then maxTokens 100, model hints claude, priorities "cost 0.2 · intelligence 0.8". Below: "Your reply
    (the assistant message):" and an empty text box that has the focus (highlighted border, cursor in it: the
    first keys typed are the reply), "model inspector-user" and "stopReason endTurn", an unticked "Answer every
    sampling request with the stub model from now on", the hint "ctrl+t (s outside the text boxes) for the stub
    model · maxTokens 100 (counted as words)", the buttons Send reply, Stub model, Cancel the call; the footer lists
    ^t Stub model."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot, SamplingModal)

    assert snap_compare(AnswersHost([("capital", SAMPLES["sampling"])]), terminal_size=SIZE, run_before=steps)
