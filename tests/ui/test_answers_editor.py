"""The answers editor (``s`` on a round row): a call resent with the answers its rounds were given, edited as JSON,
any other question asked as usual, and the resent call shown next to the old one with the difference of their
results; pilot tests and SVG snapshots (each docstring says what a person should see)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.widgets import TextArea
from ui_support import SIZE, WORK_ITEM, WORK_ITEM_ANSWERS, FixedAnswers, finished_call, make_app, wait_for

from inspector.ui.app import InspectorApp
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.modals.answers_editor import AnswersEditor

AppFactory = Callable[..., InspectorApp]
SnapCompare = Callable[..., bool]


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_resend_a_round_with_edited_answers(app_factory: AppFactory) -> None:
    answers = FixedAnswers(WORK_ITEM_ANSWERS)
    app = app_factory(answers=answers)
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "update_work_item", WORK_ITEM)
        old = len(screen.timeline.calls)
        assert answers.asked == ["resolution", "duplicate_of"]
        screen.timeline_view.focus()
        screen.timeline_view.select_call(old, 2)
        await wait_for(pilot, lambda: screen.selected == (old, 2))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, AnswersEditor))
        editor = app.screen.query_one(TextArea)
        assert json.loads(editor.text) == WORK_ITEM_ANSWERS  # every answer the call was given, by key
        edited = {**WORK_ITEM_ANSWERS, "duplicate_of": {"action": "accept", "content": {"duplicateOfId": 17}}}
        editor.text = "not json"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, AnswersEditor)  # refused, and says why
        editor.text = json.dumps(edited)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(screen.timeline.calls) == old + 1)
        await wait_for(pilot, lambda: screen.timeline.calls[-1].status == "complete")
        new = screen.timeline.calls[-1]
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
        rest = "State set to Resolved and duplicate link created."
        assert lines[at + 1 : at + 3] == [
            f'  #{old}: "Bug #4522 resolved as Duplicate of Bug #4301. {rest}"',
            f'  #{new.index}: "Bug #4522 resolved as Duplicate of Bug #17. {rest}"',
        ]


async def test_edited_answers_fall_back_to_the_interactive_source(app_factory: AppFactory) -> None:
    answers = FixedAnswers(WORK_ITEM_ANSWERS)
    app = app_factory(answers=answers)
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "update_work_item", WORK_ITEM)
        old = len(screen.timeline.calls)
        screen.timeline_view.select_call(old, 1)
        await wait_for(pilot, lambda: screen.selected == (old, 1))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, AnswersEditor))
        only = {"resolution": {"action": "accept", "content": {"resolution": "Duplicate"}}}
        app.screen.query_one(TextArea).text = json.dumps(only)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(screen.timeline.calls) == old + 1)
        await wait_for(pilot, lambda: screen.timeline.calls[-1].status == "complete")
        new = screen.timeline.calls[-1]
        assert [(a.key, a.source) for r in new.rounds for a in r.answers] == [
            ("resolution", "edited"),
            ("duplicate_of", "you"),
        ]
        assert answers.asked == ["resolution", "duplicate_of", "duplicate_of"]
        assert (
            screen.live is not None and screen.live.switch.current is None
        )  # the edited answers are gone once the resend ended


# ---------------------------------------------------------------------------------------------------- snapshots
def test_answers_editor(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """A dialog titled "Resend #6 with edited answers": "#6 tools/call update_work_item · from round 2", a note that
    each key is an input request key (a legacy request: its method) and that other questions are asked as usual,
    then a JSON editor holding {"resolution": {"action": "accept", "content": {"resolution": "Duplicate"}},
    "duplicate_of": {... "duplicateOfId": 4301}} with the cursor in it, and the buttons Resend and Close; the footer
    lists ^s resend and esc close."""

    async def steps(pilot: Any) -> None:
        screen = await finished_call(pilot, "update_work_item", WORK_ITEM)
        screen.timeline_view.focus()
        screen.timeline_view.select_call(6, 2)
        await wait_for(pilot, lambda: screen.selected == (6, 2))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, AnswersEditor))
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)


def test_resent_call_with_its_diff(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """After #6 update_work_item and #7 add, #6 was resent with duplicate_of edited to 17: the timeline shows
    "#8 tools/call ↻ #6 update_work_item 3 rounds complete" highlighted right above #6 (not at the top, where #7
    add stays: a resent call sits next to the call it resent), its rounds answered "(edited)" with
    duplicate_of=17. The detail pane of #8, scrolled to its end, shows the section "compared with #6 (resent)":
    "2 differences in the result:", "content[0].text: changed" in the findings colour, then '#6: "Bug #4522 resolved
    as Duplicate of Bug #4301. State set to Resolved and duplicate link created."' dim, wrapped, and '#8: "Bug #4522
    resolved as Duplicate of Bug #17. ...", and the same for "structuredContent.result"."""

    async def steps(pilot: Any) -> None:
        screen = await finished_call(pilot, "update_work_item", WORK_ITEM)
        await finished_call(pilot, "add", {"a": 1, "b": 1})
        screen.timeline_view.focus()
        screen.timeline_view.select_call(6, 1)
        await wait_for(pilot, lambda: screen.selected == (6, 1))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, AnswersEditor))
        edited = json.loads(pilot.app.screen.query_one(TextArea).text)
        edited["duplicate_of"]["content"]["duplicateOfId"] = 17
        pilot.app.screen.query_one(TextArea).text = json.dumps(edited)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: len(screen.timeline.calls) == 8 and screen.timeline.calls[-1].ended)
        await wait_for(pilot, lambda: screen.selected == (8, 0))
        screen.query_one("#detail").focus()
        await pilot.press("end")
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)
