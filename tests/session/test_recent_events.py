"""A flood of notifications keeps a fixed amount on the timeline: every one counted (by method), the newest
``KEPT_EVENTS`` kept, the same when the records are applied again (a replay), and the faces say how many came."""

from __future__ import annotations

import json
from collections.abc import Mapping

from inspector.headless.json_document import listen_json, round_json
from inspector.headless.printed_timeline import listen_lines, round_lines
from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline
from inspector.timeline.recent_events import KEPT_EVENTS, KEPT_LINES, METHODS_COUNTED, OTHER_METHODS, RecentEvents
from inspector.timeline.records import Record
from inspector.timeline.wire import WireMessage

FLOOD = 3 * KEPT_EVENTS + 7
LISTEN_ID = 2
SUBSCRIPTION = {"io.modelcontextprotocol/subscriptionId": LISTEN_ID}


def notification(method: str, params: Mapping[str, object]) -> str:
    return json.dumps({"jsonrpc": "2.0", "method": method, "params": params})


def note(method: str, at: float = 0.0) -> WireMessage:
    return WireMessage(notification(method, {}), at, "s2c", json.loads(notification(method, {})))


def progress_flood() -> list[Record]:
    """A tools/call that got ``FLOOD`` progress notifications, a log every tenth, then its result."""
    request = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":"p"}}}'
    out = [records.call_started(0.0, 1, "tools/call", {"name": "x"}), records.wire(0.01, "c2s", request, call=1)]
    for step in range(1, FLOOD + 1):
        params = {"progressToken": "p", "progress": step}
        out.append(records.wire(step / 1e4, "s2c", notification("notifications/progress", params)))
        if step % 10 == 0:
            log = {"level": "info", "data": f"step {step}"}
            out.append(records.wire(step / 1e4, "s2c", notification("notifications/message", log)))
    out.append(records.wire(1.0, "s2c", '{"jsonrpc":"2.0","id":1,"result":{"content":[],"resultType":"complete"}}'))
    return out


def test_every_event_is_counted_and_the_newest_are_kept_in_order() -> None:
    events: RecentEvents[WireMessage] = RecentEvents()
    for n in range(FLOOD):
        events.append(note("notifications/progress", n))
    assert events.count == FLOOD and events.left_out == FLOOD - KEPT_EVENTS
    assert [e.at for e in events] == list(range(FLOOD - KEPT_EVENTS, FLOOD)), "the newest, oldest first"
    assert events[-1].at == FLOOD - 1 and next(reversed(events)).at == FLOOD - 1
    assert events.of("notifications/progress") == FLOOD
    assert [e.at for e in events.since(FLOOD - 3)] == [FLOOD - 3, FLOOD - 2, FLOOD - 1]
    assert len(events.since(0)) == KEPT_EVENTS, "a face that looked at none gets what is still kept"
    assert events.since(FLOOD) == []
    assert [e.at for e in events.newest(2)] == [FLOOD - 2, FLOOD - 1]
    assert events.said("notification") == f"{FLOOD:,} notifications (last {KEPT_EVENTS} shown)"
    assert events.said("event", 20) == f"{FLOOD:,} events (last 20 shown)"


def test_a_few_events_are_all_kept_and_said_without_a_fold() -> None:
    events: RecentEvents[WireMessage] = RecentEvents()
    assert not events
    events.append(note("notifications/message"))
    assert events and events.left_out == 0 and events.said("notification") == "1 notification"


def test_a_server_that_makes_up_a_method_per_message_does_not_grow_the_counts() -> None:
    events: RecentEvents[WireMessage] = RecentEvents()
    for n in range(METHODS_COUNTED + 500):
        events.append(note(f"notifications/made-up-{n}"))
    assert len(events.by_method) == METHODS_COUNTED + 1
    assert events.by_method[OTHER_METHODS] == 500 and sum(events.by_method.values()) == events.count


def test_a_progress_flood_on_a_call_is_folded_and_its_replay_builds_the_same() -> None:
    flood = progress_flood()
    timeline = build_timeline(flood)
    notes = timeline.calls[0].rounds[0].notifications
    logs = FLOOD // 10
    assert notes.count == FLOOD + logs and len(notes.kept) == KEPT_EVENTS
    assert notes.by_method == {"notifications/progress": FLOOD, "notifications/message": logs}
    assert build_timeline(flood) == timeline, "the records applied again build the same bounded model"
    assert len(timeline.console.kept) == logs and timeline.console.count == logs
    printed = "\n".join(line.plain for line in round_lines(timeline.calls[0].rounds[0], True))
    assert f"{FLOOD + logs:,} notifications (last {KEPT_EVENTS} shown)" in printed
    assert f"notifications/progress {FLOOD:,}" in printed
    kept_logs = sum(1 for n in notes if (n.message or {}).get("method") == "notifications/message")
    assert f"{logs - kept_logs} earlier log(s) not shown" in printed
    doc = round_json(timeline.calls[0].rounds[0])
    assert doc["notificationCount"] == FLOOD + logs and len(doc["notifications"]) == KEPT_EVENTS
    assert doc["notificationsByMethod"] == {"notifications/progress": FLOOD, "notifications/message": logs}


def test_a_console_flood_keeps_the_newest_lines() -> None:
    timeline = build_timeline([records.stderr(n / 1e3, f"line {n}") for n in range(KEPT_LINES + 50)])
    assert timeline.console.count == KEPT_LINES + 50 and len(timeline.console.kept) == KEPT_LINES
    assert timeline.console[-1].text == f"line {KEPT_LINES + 49}" and timeline.console[0].text == "line 50"


def listen_storm(extra: str | None = None) -> list[Record]:
    """A listen acknowledged for one URI, then ``FLOOD`` updates of it (and, with ``extra``, that many of a kind it
    did not honour)."""
    asked = {"resourceSubscriptions": ["file:///x"]}
    request = {"jsonrpc": "2.0", "id": LISTEN_ID, "method": "subscriptions/listen", "params": {"notifications": asked}}
    ack = notification("notifications/subscriptions/acknowledged", {"_meta": SUBSCRIPTION, "notifications": asked})
    out = [
        records.call_started(0.0, 1, "subscriptions/listen", {}),
        records.wire(0.01, "c2s", json.dumps(request), call=1),
        records.wire(0.02, "s2c", ack),
    ]
    for n in range(FLOOD):
        for method in ["notifications/resources/updated", *([extra] if extra else [])]:
            params = {"_meta": SUBSCRIPTION, "uri": "file:///x", "n": n}
            out.append(records.wire(0.03 + n / 1e4, "s2c", notification(method, params)))
    return out


def test_a_subscription_storm_is_folded_and_said_with_its_count() -> None:
    timeline = build_timeline(listen_storm())
    span = timeline.calls[0].listen
    assert span is not None
    assert span.events.count == FLOOD and len(span.events.kept) == KEPT_EVENTS
    assert f"{FLOOD:,} events" in span.summary()
    printed = [line.plain for line in listen_lines(span, 0.0)]
    assert f"{FLOOD:,} events (last 20 shown) · notifications/resources/updated {FLOOD:,}" in printed[1]
    assert printed[-1].endswith("resource updated file:///x"), "the newest are listed"
    assert len(printed) == 2 + 20
    doc = listen_json(span)
    assert doc["eventCount"] == FLOOD and len(doc["events"]) == KEPT_EVENTS
    assert doc["events"][-1]["params"]["n"] == FLOOD - 1


def test_a_storm_of_what_the_subscription_did_not_honour_is_one_finding() -> None:
    timeline = build_timeline(listen_storm("notifications/tools/list_changed"))
    codes = [f.code for f in timeline.findings]
    assert codes.count("listen-unrequested") == 1, codes
    assert timeline.calls[0].listen is not None and timeline.calls[0].listen.events.count == 2 * FLOOD


def test_rounds_that_got_no_notification_share_nothing_with_the_one_that_did() -> None:
    # (no round's deque is made before its first notification: they start from one shared empty one)
    quiet, busy, cleared = RecentEvents[WireMessage](), RecentEvents[WireMessage](), RecentEvents[WireMessage]()
    note = WireMessage('{"jsonrpc":"2.0","method":"notifications/message"}', 0.0, "s2c", {"method": "x"})
    busy.append(note)
    cleared.append(note)
    cleared.clear()
    assert list(busy) == [note] and busy.count == 1
    assert list(quiet) == [] and not quiet and quiet.said("notification") == "0 notifications"
    assert cleared == quiet, "a cleared round reads as one that never got any"
    quiet.append(note)
    assert len(quiet.kept) == 1 and quiet.kept.maxlen == KEPT_EVENTS and list(busy) == [note]
