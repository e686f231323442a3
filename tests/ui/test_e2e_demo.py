"""End to end: the TUI drives update_work_item through both rounds against the real demo server over stdio."""

from __future__ import annotations

import sys
from pathlib import Path

from ui_support import SIZE, WORK_ITEM, WORK_ITEM_ANSWERS, FixedAnswers, wait_for

from inspector.cli.tui import make_session_factory
from inspector.targets.target import Target
from inspector.ui.app import InspectorApp
from inspector.ui.app_settings import AppSettings
from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.widgets.catalog import Catalog
from inspector.ui.widgets.request_state import RequestStatePanel
from inspector.ui.widgets.timeline_rows import Row


async def test_update_work_item_through_both_rounds_against_the_demo_server(tmp_path: Path) -> None:
    answers = FixedAnswers(WORK_ITEM_ANSWERS)
    target = Target.from_spec(f"{sys.executable} -m inspector.demo", name="demo server")
    factory = make_session_factory(None)
    settings = AppSettings(config_dir=tmp_path, home=tmp_path, cwd=tmp_path)
    app = InspectorApp(factory, target, settings, answers=answers)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.catalog_loaded, timeout=60)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        assert "update_work_item" in screen.query_one(Catalog).visible_names
        screen.run_call(CallRequest("tools", "update_work_item", WORK_ITEM))
        timeline = screen.timeline
        await wait_for(
            pilot,
            lambda: timeline.calls[-1].method == "tools/call" and timeline.calls[-1].status != "pending",
            timeout=60,
        )
        call = timeline.calls[-1]
        assert call.status == "complete", call.status_detail
        assert [r.result_type for r in call.rounds] == ["input_required", "input_required", "complete"]
        assert [a.key for r in call.rounds for a in r.answers] == ["resolution", "duplicate_of"]
        assert answers.asked == ["resolution", "duplicate_of"]
        view = screen.timeline_view
        view.ensure_rows()
        assert Row(call.index, 3, 0) in view.rows  # unfolded into its rounds
        view.select_call(call.index, 2)
        # The panel follows the highlight the timeline announces (a message to the screen, after the pause's wait).
        await wait_for(pilot, lambda: screen.selected == (call.index, 2))
        state = call.rounds[1].request_state
        assert state is not None and state.echoed is True
        assert screen.query_one(RequestStatePanel).state is state
        await screen.close_session()
