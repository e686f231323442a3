"""Whose time an answer took, live in the TUI: the person reads the sampling dialog, then lets the stub model answer.
The reading is the person's time and the model's compute the model's, on the call's row and in the detail pane (it
read "waited for stub model 2.0 s", counting the person's reading as the model's).

The session and its transport share a clock that stands still unless the test moves it: the test moves it by 2 s
while the dialog is open, and the stub model by 0.5 s while it writes; every other time reads 0, whatever the
machine's load.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from peers import demo
from ui_support import DEMO, SIZE, FixedAnswers, connected, wait_for

from inspector.answers.source import AnswerSource
from inspector.answers.stub_model import StubModel
from inspector.demo.in_process import NAME
from inspector.session.session import InspectorSession
from inspector.targets.target import Target
from inspector.transport.memory import MemoryTransport
from inspector.ui.app import InspectorApp
from inspector.ui.app_settings import AppSettings
from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.interactive_answers import InteractiveAnswers
from inspector.ui.modals.sampling import SamplingModal
from inspector.ui.widgets.call_filter import CallFilter
from inspector.ui.widgets.timeline_rows import RowLook, build_rows, render_row

pytestmark = pytest.mark.timeout(120)


class StillClock:
    """A clock that reads the same until the test (or the model) moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class ThinkingStub(StubModel):
    """The stub model, taking 0.5 s of the clock to write its reply."""

    def __init__(self, clock: StillClock) -> None:
        super().__init__()
        self.clock = clock

    def reply(self, params: Any) -> dict[str, Any]:
        self.clock.now += 0.5
        return super().reply(params)


def still_app(tmp_path: Path, clock: StillClock) -> InspectorApp:
    """The app on the in-process demo, its sessions on ``clock``, questions asked in its own dialogs."""

    def factory(chosen: Target, given: AnswerSource) -> InspectorSession:
        transport = MemoryTransport(demo(), name=NAME, clock=clock)
        return InspectorSession(transport, given, era=chosen.era, clock=clock)

    home = tmp_path / "home"
    home.mkdir()
    settings = AppSettings(config_dir=tmp_path / "config", home=home, cwd=home)
    app = InspectorApp(factory, DEMO, settings, answers=FixedAnswers())
    answers = app.interactive_answers()
    assert isinstance(answers, InteractiveAnswers)
    answers.stub = ThinkingStub(clock)
    app.answers = answers
    return app


async def test_the_dialog_is_your_time_and_the_stub_models_reply_its_own(tmp_path: Path) -> None:
    clock = StillClock()
    app = still_app(tmp_path, clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.run_call(CallRequest("tools", "ask_capital", {}))
        await wait_for(pilot, lambda: isinstance(app.screen, SamplingModal))
        clock.now += 2.0  # the person reads the request
        await pilot.press("ctrl+t")  # and hands it to the stub model
        call = screen.timeline.calls[-1]
        await wait_for(pilot, lambda: call.name == "ask_capital" and call.ended)
        assert call.status == "complete", call.status_detail
        times = call.times
        assert (times.person_ms, times.model_ms, times.models) == (2000, 500, ("stub model",))
        assert times.server_ms == 0 and times.client_ms is None
        [answer] = [a for r in call.rounds for a in r.answers]
        assert (answer.source, answer.party, answer.model_ms) == ("stub model", "person", 500)

        view = screen.timeline_view
        view.focus()
        view.select_call(call.index)
        await wait_for(pilot, lambda: screen.selected == (call.index, 0))
        rows = build_rows(screen.timeline, view.expanded, CallFilter())
        look = RowLook(150, view.palette())
        line = next(render_row(r, screen.timeline, view.expanded, look).plain for r in rows if r.call == call.index)
        assert "you 2.0 s, stub model 500 ms" in line and line.endswith("0.0 ms")
        detail = screen.query_one(DetailView)
        said = "waited for you 2.0 s, stub model 500 ms · 2.5 s in all"
        await wait_for(pilot, lambda: any(said in text for text in detail.plain_lines))
