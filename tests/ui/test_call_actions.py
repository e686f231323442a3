"""Pilot tests of the keys on the selected call of a live session: edit and resend (arguments or answers, with the
diff of the two results), cancel a call in flight, and export."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from textual.widgets import TextArea
from ui_support import SIZE, WORK_ITEM_ANSWERS, FixedAnswers, wait_for

from inspector.answers.base import Answer
from inspector.ui.app import InspectorApp
from inspector.ui.modals.answers_editor import AnswersEditor
from inspector.ui.modals.export import ExportModal
from inspector.ui.screens.compose import Composer, ComposeScreen
from inspector.ui.screens.main import MainScreen
from inspector.ui.scripted import ScriptedSession
from inspector.ui.widgets.detail_view import DetailView
from inspector.ui.widgets.timeline_rows import Row

AppFactory = Callable[..., InspectorApp]
WORK_ITEM = {"workItemId": 4211, "fields": {"state": "Resolved"}}


async def connected(pilot: Any) -> MainScreen:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.screen.catalog_loaded)
    screen = app.screen
    assert isinstance(screen, MainScreen)
    return screen


async def finished_call(pilot: Any, screen: MainScreen, name: str, arguments: dict[str, Any]) -> int:
    before = len(screen._timeline().calls)
    screen.run_call("tools", name, arguments)
    await wait_for(
        pilot, lambda: len(screen._timeline().calls) > before and screen._timeline().calls[-1].status != "pending"
    )
    return len(screen._timeline().calls)


async def test_resend_with_edited_arguments_sits_next_to_the_old_call_with_a_diff(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        old = await finished_call(pilot, screen, "add", {"a": 2, "b": 40})
        view = screen.timeline_view
        view.focus()
        view.select_call(old)
        await wait_for(pilot, lambda: screen.selected == (old, 0))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ComposeScreen))
        composer = app.screen.query_one(Composer)
        assert composer.arguments() == ({"a": 2, "b": 40}, {})  # pre-filled with exactly what was sent
        assert "resend #6" in str(app.screen.query_one("#compose-box").border_title)
        composer.post_message(Composer.Submitted("add", {"a": 3, "b": 40}))
        new = old + 1
        await wait_for(pilot, lambda: len(screen._timeline().calls) == new)
        await wait_for(pilot, lambda: screen._timeline().calls[-1].status == "complete")
        await wait_for(pilot, lambda: screen.selected == (new, 0))
        assert screen._timeline().calls[-1].params == {"name": "add", "arguments": {"a": 3, "b": 40}}
        assert screen.resent_from == {new: old} and view.follows == {new: old}
        view.ensure_rows()
        assert view.rows.index(Row(new, 0, 0)) + 1 == view.rows.index(Row(old, 0, 0))  # right above the old call
        await wait_for(pilot, lambda: any("compared with" in line for line in screen.query_one(DetailView).plain_lines))
        lines = screen.query_one(DetailView).plain_lines
        assert f"─ compared with #{old} (resent) " in lines
        at = lines.index("sent arguments.a: changed")
        assert lines[at + 1 : at + 3] == [f"  #{old}: 2", f"  #{new}: 3"]
        at = lines.index("1 difference in the result:")
        assert lines[at + 1 : at + 4] == ["content[0].text: changed", f'  #{old}: "42"', f'  #{new}: "43"']


async def test_resend_a_round_with_edited_answers(app_factory: AppFactory) -> None:
    answers = FixedAnswers(WORK_ITEM_ANSWERS)
    app = app_factory(answers=answers)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        old = await finished_call(pilot, screen, "update_work_item", WORK_ITEM)
        assert answers.asked == ["resolution", "duplicate_of"]
        screen.timeline_view.focus()
        screen.timeline_view.select_call(old, 2)
        await wait_for(pilot, lambda: screen.selected == (old, 2))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, AnswersEditor))
        editor = app.screen.query_one(TextArea)
        assert json.loads(editor.text) == WORK_ITEM_ANSWERS  # every answer the call was given, by key
        edited = {**WORK_ITEM_ANSWERS, "duplicate_of": {"action": "accept", "content": {"duplicate_of": 17}}}
        editor.text = "not json"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, AnswersEditor)  # refused, and says why
        editor.text = json.dumps(edited)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(screen._timeline().calls) == old + 1)
        await wait_for(pilot, lambda: screen._timeline().calls[-1].status == "complete")
        new = screen._timeline().calls[-1]
        assert new.params == {"name": "update_work_item", "arguments": WORK_ITEM}
        given = [(a.key, a.response, a.source) for r in new.rounds for a in r.answers]
        assert given == [
            ("resolution", WORK_ITEM_ANSWERS["resolution"], "edited"),
            ("duplicate_of", edited["duplicate_of"], "edited"),
        ]
        assert answers.asked == ["resolution", "duplicate_of"]  # the interactive source was not asked again
        await wait_for(pilot, lambda: screen.selected == (new.index, 0))
        await wait_for(pilot, lambda: any("in the result" in line for line in screen.query_one(DetailView).plain_lines))
        lines = screen.query_one(DetailView).plain_lines
        at = lines.index("content[0].text: changed")
        assert lines[at + 1 : at + 3] == [
            f'  #{old}: "Work item #4211 resolved as Duplicate of #4301."',
            f'  #{new.index}: "Work item #4211 resolved as Duplicate of #17."',
        ]


async def test_edited_answers_fall_back_to_the_interactive_source(app_factory: AppFactory) -> None:
    answers = FixedAnswers(WORK_ITEM_ANSWERS)
    app = app_factory(answers=answers)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        old = await finished_call(pilot, screen, "update_work_item", WORK_ITEM)
        screen.timeline_view.select_call(old, 1)
        await wait_for(pilot, lambda: screen.selected == (old, 1))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, AnswersEditor))
        only = {"resolution": {"action": "accept", "content": {"resolution": "Duplicate"}}}
        app.screen.query_one(TextArea).text = json.dumps(only)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(screen._timeline().calls) == old + 1)
        await wait_for(pilot, lambda: screen._timeline().calls[-1].status == "complete")
        new = screen._timeline().calls[-1]
        assert [(a.key, a.source) for r in new.rounds for a in r.answers] == [
            ("resolution", "edited"),
            ("duplicate_of", "you"),
        ]
        assert answers.asked == ["resolution", "duplicate_of", "duplicate_of"]
        assert screen.switch.current is None  # the edited answers are gone once the resend ended


async def test_cancel_a_call_waiting_on_the_server(app_factory: AppFactory) -> None:
    sessions: list[ScriptedSession] = []
    app = app_factory(sessions=sessions, delay=60.0, slow=frozenset({"add"}))
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.run_call("tools", "add", {"a": 1, "b": 2})
        await wait_for(pilot, lambda: screen._timeline().calls[-1].method == "tools/call")
        call = screen._timeline().calls[-1]
        screen.timeline_view.focus()
        screen.timeline_view.select_call(call.index)
        await wait_for(pilot, lambda: screen.selected == (call.index, 0))
        assert call.status == "pending" and screen.check_action("cancel_call", ()) is True
        await pilot.press("k")
        await wait_for(pilot, lambda: call.status == "cancelled")
        assert call.status_detail == "cancelled by the user"
        await wait_for(pilot, lambda: not [w for w in screen.workers if w.group == "call" and w.is_running])
        await pilot.pause()
        assert screen.check_action("cancel_call", ()) is False


class Waiting:
    """An answer source that never answers (the user has not answered yet)."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()

    async def answer(self, key: str | None, request: dict[str, Any]) -> Answer:
        self.asked.set()
        await asyncio.Future()
        raise AssertionError("unreachable")


async def test_cancel_between_rounds_cancels_the_worker(app_factory: AppFactory) -> None:
    waiting = Waiting()
    app = app_factory(answers=waiting)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.run_call("tools", "update_work_item", WORK_ITEM)
        await wait_for(pilot, waiting.asked.is_set)
        call = screen._timeline().calls[-1]
        screen.timeline_view.select_call(call.index)
        await wait_for(pilot, lambda: screen.selected == (call.index, 0))
        await pilot.press("k")  # nothing on the wire: the worker driving the call is cancelled
        await wait_for(pilot, lambda: call.status == "cancelled")
        assert call.status_detail == "interrupted before the call finished"
        view = screen.timeline_view
        view.ensure_rows()
        assert "cancelled" in str(view.render_line(view.rows.index(Row(call.index, 0, 0))).text)


async def test_export_a_live_call(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        old = await finished_call(pilot, screen, "add", {"a": 2, "b": 40})
        screen.timeline_view.select_call(old)
        await wait_for(pilot, lambda: screen.selected == (old, 0))
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportModal))
        text = app.screen.query_one(TextArea).text
        assert json.loads(text)[0]["params"]["arguments"] == {"a": 2, "b": 40}
