"""``export --as json`` of a flooded call exports every notification its recording holds (``CallMessages`` hears them
as the records are applied again), though the timeline keeps a round's newest ``KEPT_EVENTS``; an export built from
the timeline alone (the TUI's, of a live session) says first how many it lacks."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.replay.call_messages import CallMessages
from inspector.replay.export import export_call, messages_of
from inspector.replay.loader import Loaded, build_loaded
from inspector.timeline import records
from inspector.timeline.recent_events import KEPT_EVENTS
from inspector.timeline.records import Record

FLOOD = 3 * KEPT_EVENTS + 7


def flooded_session() -> list[Record]:
    """Call #1, a tools/call that gets ``FLOOD`` progress notifications then its result; call #2, one that gets two."""
    out: list[Record] = []
    for call, count in ((1, FLOOD), (2, 2)):
        request = {
            "jsonrpc": "2.0",
            "id": call,
            "method": "tools/call",
            "params": {"name": "x", "_meta": {"progressToken": f"p{call}"}},
        }
        out += [
            records.call_started(call, call, "tools/call", {"name": "x"}),
            records.wire(call, "c2s", json.dumps(request), call=call),
        ]
        for step in range(1, count + 1):
            params = {"progressToken": f"p{call}", "progress": step}
            note = {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}
            out.append(records.wire(call + step / 1e5, "s2c", json.dumps(note)))
        result = {"jsonrpc": "2.0", "id": call, "result": {"content": [], "resultType": "complete"}}
        out.append(records.wire(call + 0.5, "s2c", json.dumps(result)))
    return out


def loaded() -> Loaded:
    body = flooded_session()
    return Loaded(Path("flood.jsonl"), None, body, list(range(2, len(body) + 2)))


def progress_of(exported: str) -> list[int]:
    return [
        m["params"]["progress"]
        for m in json.loads(exported)
        if isinstance(m, dict) and m.get("method") == "notifications/progress"
    ]


def test_the_export_of_a_flooded_call_has_every_notification_of_its_recording_in_wire_order() -> None:
    every = CallMessages(1)
    timeline = build_loaded(loaded(), every.heard)
    call = timeline.call(1)
    assert call is not None and call.rounds[0].notifications.count == FLOOD
    assert len(call.rounds[0].notifications.kept) == KEPT_EVENTS, "the timeline keeps the newest"
    exported = export_call(timeline, 1, "json", messages=every.messages(timeline))
    messages = json.loads(exported)
    assert progress_of(exported) == list(range(1, FLOOD + 1)), "every one, in the order it came"
    assert messages[0]["method"] == "tools/call" and messages[-1]["id"] == 1 and "result" in messages[-1]
    assert len(messages) == FLOOD + 2 and not any(isinstance(m, str) for m in messages), "no note: nothing lacks"
    assert progress_of(export_call(timeline, 2, "json", messages=CallMessages(2).messages(timeline))) == [1, 2], (
        "a call heard by no listener exports what its rounds kept (all of them when nothing was let go)"
    )


def test_a_call_that_kept_every_notification_exports_the_same_either_way() -> None:
    every = CallMessages(2)
    timeline = build_loaded(loaded(), every.heard)
    call = timeline.call(2)
    assert call is not None
    assert every.messages(timeline) == messages_of(call)
    assert export_call(timeline, 2, "json", messages=every.messages(timeline)) == export_call(timeline, 2, "json")
    assert every.messages(build_loaded(Loaded(Path("empty.jsonl"), None))) is None, (
        "no such call: export_call says so itself"
    )


def test_an_export_from_the_timeline_alone_says_first_how_many_notifications_it_lacks() -> None:
    timeline = build_loaded(loaded())
    messages = json.loads(export_call(timeline, 1, "json"))
    note = messages[0]
    assert isinstance(note, str)
    assert f"{FLOOD - KEPT_EVENTS:,} of this call's {FLOOD:,} notifications are not in this export" in note
    assert "inspector export RECORDING --call 1 --as json" in note
    assert progress_of(json.dumps(messages[1:])) == list(range(FLOOD - KEPT_EVENTS + 1, FLOOD + 1)), "the newest kept"
