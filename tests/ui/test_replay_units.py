"""Pure pieces of replay, export and resend in the TUI: the recorded catalog, the step walk, resend plans, edited
answers, the comparison section, resent calls placed next to their origin, and the replay header."""

from __future__ import annotations

from pathlib import Path

from recording_support import record_session
from rich.style import Style

from inspector.answers.source import Answer
from inspector.headless.json_document import call_json
from inspector.replay.loader import load_recording
from inspector.timeline.model import Call, Timeline
from inspector.ui.composer.resend import (
    EDITED,
    FREE_FORM,
    EditedAnswers,
    SwitchableAnswers,
    add_comparison,
    answers_of,
    resend_plan,
)
from inspector.ui.detail.lines import Document
from inspector.ui.recorded import Recording, Stepper, recorded_catalog
from inspector.ui.widgets.call_filter import CallFilter
from inspector.ui.widgets.session_header import header_text
from inspector.ui.widgets.timeline_rows import STYLE_NAMES, Row, RowLook, build_rows, render_row

PALETTE = {name: Style() for name in STYLE_NAMES}


class Fixed:
    def __init__(self) -> None:
        self.asked: list[str | None] = []

    async def answer(self, key: str | None, request: dict[str, object]) -> Answer:
        self.asked.append(key)
        return Answer({"action": "decline"}, "you")


async def test_recorded_catalog_and_target(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    await record_session(path)
    recording = Recording.from_loaded(load_recording(path))
    catalog = recorded_catalog(recording.timeline)
    assert [t["name"] for t in catalog["tools"]][:2] == ["get_weather", "update_work_item"]
    assert len(catalog["tools"]) == 12 and catalog["tools"][-1]["name"] == "nightly_build"
    assert [t["uriTemplate"] for t in catalog["templates"]] == ["demo://report{?section}"]
    assert [p["name"] for p in catalog["prompts"]] == ["code_review"]
    target = recording.target()
    assert target.kind == "stdio" and target.command == ("python", "-m", "inspector.demo")
    assert target.source == "replay" and target.name == f"replay of {path}"
    assert recording.started == "2026-07-28T09:00:00+00:00" and recording.problem_lines() == []


async def test_stepper_reveals_one_message_at_a_time_and_ends_equal(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    live = await record_session(path)
    loaded = load_recording(path)
    stepper = Stepper(loaded.records, loaded.header)
    assert stepper.timeline.target == "python -m inspector.demo" and stepper.timeline.calls == []
    first = stepper.advance()
    assert first is not None and (first.number, first.call, first.round, first.gap) == (1, 1, 1, None)
    assert first.text.startswith("→ #1 server/discover") and first.gap_text() == "start"
    second = stepper.advance()
    assert second is not None and second.call == 1 and second.text.startswith("← id 1 complete")
    assert second.gap is not None and second.gap_text() == "+24.0 ms"  # the server logged once in between
    shown = 2
    while stepper.advance() is not None:
        shown += 1
    assert shown == stepper.total and stepper.done
    assert [call_json(c) for c in stepper.timeline.calls] == [call_json(c) for c in live.calls]
    assert stepper.advance() is None


async def test_reveal_all_and_step_recording(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    live = await record_session(path)
    recording = Recording.from_loaded(load_recording(path), step=True)
    assert recording.stepper is not None and recording.timeline is recording.stepper.timeline
    assert recording.stepper.reveal_all() == recording.stepper.total
    assert len(recording.timeline.calls) == len(live.calls)


async def test_resend_plans_and_answers(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    live = await record_session(path)
    catalog = recorded_catalog(live)
    tool = resend_plan(live.calls[7], catalog)  # add
    assert tool is not None and tool.kind == "tools" and tool.arguments == {"a": 2, "b": 40}
    assert tool.item["name"] == "add" and "properties" in tool.item["inputSchema"] and tool.title == "resend #8"
    unknown = resend_plan(live.calls[7], {})
    assert unknown is not None and unknown.item == {"name": "add", "inputSchema": FREE_FORM}
    assert resend_plan(live.calls[0], catalog) is None  # server/discover
    work = live.calls[5]
    assert answers_of(work) == {
        "resolution": {"action": "accept", "content": {"resolution": "Duplicate"}},
        "duplicate_of": {"action": "accept", "content": {"duplicateOfId": 4301}},
    }
    prompt = Call(1, "prompts/get", {"name": "code_review", "arguments": {"code": "x"}}, 0.0)
    read = Call(2, "resources/read", {"uri": "demo://report"}, 0.0)
    planned = resend_plan(prompt, {})
    assert planned is not None and planned.kind == "prompts" and planned.item["arguments"] == [{"name": "code"}]
    planned = resend_plan(read, {})
    assert planned is not None and planned.kind == "templates" and planned.item["uriTemplate"] == "demo://report"


async def test_edited_answers_and_switch() -> None:
    fallback = Fixed()
    edited = EditedAnswers({"a": {"action": "accept", "content": {"x": 1}}, "roots/list": {"roots": []}}, fallback)
    first = await edited.answer("a", {"method": "elicitation/create"})
    assert first == Answer({"action": "accept", "content": {"x": 1}}, EDITED)
    first.response["content"]["x"] = 2  # a copy each time
    assert (await edited.answer("a", {"method": "elicitation/create"})).response["content"] == {"x": 1}
    assert (await edited.answer(None, {"method": "roots/list"})).response == {"roots": []}  # legacy: by method
    assert (await edited.answer("b", {"method": "elicitation/create"})).source == "you"
    assert fallback.asked == ["b"] and edited.used == ["a", "a", "roots/list"]
    switch = SwitchableAnswers(fallback)
    with switch.using(edited):
        assert (await switch.answer("a", {"method": "elicitation/create"})).source == EDITED
    assert (await switch.answer("a", {"method": "elicitation/create"})).source == "you"


async def test_comparison_section(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    live = await record_session(path)
    same = Document()
    add_comparison(same, live.calls[7], live.calls[7])
    assert [text for _, text in same.lines][-1] == "✓ same result as #8"
    other = Document()
    add_comparison(other, live.calls[7], live.calls[6])  # add vs get_weather
    texts = [text for _, text in other.lines]
    at = texts.index("sent name: changed")
    assert texts[at + 1 : at + 3] == ['  #8: "add"', '  #7: "get_weather"']
    assert "sent arguments.location: added" in texts and "sent arguments.a: removed" in texts
    assert "content[0].text: changed" in texts


async def test_resent_calls_sit_above_their_origin(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    live = await record_session(path)
    live.calls[7].resends, live.calls[6].resends = 2, 8  # #8 resent #2; #7 resent #8
    rows = build_rows(live, set(), CallFilter())
    calls = [row.call for row in rows]
    assert calls == [6, 5, 4, 3, 7, 8, 2, 1]
    assert build_rows(live, set(), CallFilter("name:add")) == [Row(8, 0, 0)]
    text = render_row(Row(8, 0, 0), live, set(), RowLook(100, PALETTE)).plain
    assert "#8 tools/call ↻ #2 add" in text


def test_replay_header_puts_the_walk_before_the_server() -> None:
    timeline = Timeline(target="python -m inspector.demo", transport="stdio")
    name = "replay of /a/very/long/folder/name/that/goes/on/and/on/and/on/for/ever/session-2026-07-28.jsonl"
    text = header_text(timeline, name, None, "replay", note="message 3 of 40 · +41.2 ms").plain
    assert text.startswith(" inspector   …") and "session-2026-07-28.jsonl · ⏵ read-only · message 3 of 40" in text
    assert text.endswith("python -m inspector.demo (stdio)")
    live = header_text(timeline, "demo", "/tmp/r.jsonl", "connected").plain
    assert live.endswith("(stdio) · ● connected · recording /tmp/r.jsonl")
