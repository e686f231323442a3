"""A legacy server that sends requests without end keeps a fixed amount on the timeline: a call's first
``KEPT_SERVER_REQUESTS`` stay its rounds, the newest of the rest are kept apart, the session keeps its newest rows,
every one is counted by method, answers land on their own request, a replay of the records builds the same, and the
faces say how many came."""

from __future__ import annotations

import json

from rich.console import Console

from inspector.answers.source import Answer
from inspector.headless.json_document import call_json, outcome_document
from inspector.headless.printed_timeline import call_block, print_timeline
from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline
from inspector.timeline.model import Round
from inspector.timeline.outcome import Outcome
from inspector.timeline.records import Record
from inspector.timeline.server_requests import KEPT_SERVER_REQUESTS, ServerRequests
from inspector.ui.widgets.timeline_rows import call_details

FLOOD = 3 * KEPT_SERVER_REQUESTS + 7


def asked(t: float, id_: str, method: str, call: int | None) -> list[Record]:
    """A server request, the answer the client gave and its reply, as a session records them."""
    reply = json.dumps({"jsonrpc": "2.0", "id": id_, "result": {"n": id_}})
    return [
        records.wire(t, "s2c", json.dumps({"jsonrpc": "2.0", "id": id_, "method": method})),
        records.answer_given(t, call, None if call is None else "", Answer({"n": id_}, "test"), id_),
        records.wire(t, "c2s", reply, call=call),
    ]


def flooded() -> list[Record]:
    """A tools/list that got ``FLOOD`` ``roots/list`` (session rows), then a tools/call that got ``FLOOD`` pings."""
    out = [
        records.era(0.0, "legacy", "2025-11-25", "test"),
        records.call_started(0.0, 1, "tools/list", {}),
        records.wire(0.0, "c2s", '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', call=1),
    ]
    for n in range(FLOOD):
        out.extend(asked(n / 1e4, f"r{n}", "roots/list", None))
    out.append(records.wire(0.1, "s2c", '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}'))
    out.append(records.call_started(0.2, 2, "tools/call", {"name": "x"}))
    out.append(records.wire(0.2, "c2s", '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}', call=2))
    for n in range(FLOOD):
        out.extend(asked(0.2 + n / 1e4, f"p{n}", "ping" if n % 2 else "sampling/createMessage", 2))
    out.append(records.wire(0.9, "s2c", '{"jsonrpc":"2.0","id":2,"result":{"content":[]}}'))
    return out


def test_a_call_keeps_its_first_requests_as_rounds_and_the_newest_apart_every_one_counted() -> None:
    timeline = build_timeline(flooded())
    call = timeline.call(2)
    assert call is not None and call.status == "complete"
    asked_rounds = [r for r in call.rounds if r.kind == "server-request"]
    assert len(asked_rounds) == KEPT_SERVER_REQUESTS, "the first ones are rounds"
    assert [r.request_id for r in asked_rounds] == [f"p{n}" for n in range(KEPT_SERVER_REQUESTS)]
    assert [r.index for r in call.rounds] == list(range(1, len(call.rounds) + 1)), "a round's index is its place"
    requests = call.server_requests
    assert requests.count == FLOOD
    assert requests.by_method == {"ping": FLOOD // 2, "sampling/createMessage": FLOOD - FLOOD // 2}
    assert [r.request_id for r in requests] == [f"p{n}" for n in range(FLOOD - KEPT_SERVER_REQUESTS, FLOOD)]
    for round_ in [*asked_rounds, *requests]:  # every answer on its own request, every reply matched
        assert [a.response for a in round_.answers] == [{"n": round_.request_id}]
        assert round_.response is not None and round_.result_type == "complete"
    assert not call.rounds[0].answers, "no answer of a folded request fell on the call's own round"


def test_the_session_keeps_its_newest_rows_every_one_counted() -> None:
    timeline = build_timeline(flooded())
    rows = timeline.session
    assert rows.count == FLOOD and rows.by_method == {"roots/list": FLOOD}
    assert [r.index for r in rows] == list(range(FLOOD - KEPT_SERVER_REQUESTS + 1, FLOOD + 1))
    assert all(r.answers and r.response is not None for r in rows)


def test_a_replay_of_the_records_builds_the_same_timeline() -> None:
    assert build_timeline(flooded()) == build_timeline(flooded())


def test_the_faces_say_how_many_came() -> None:
    timeline = build_timeline(flooded())
    call = timeline.call(2)
    assert call is not None
    console = Console(record=True, width=200, color_system=None, force_terminal=False)
    with console.capture() as captured:
        console.print(call_block(call, timeline))
        print_timeline(console, timeline, calls=[])
    printed = captured.get()
    assert f"{FLOOD:,} server requests (first {KEPT_SERVER_REQUESTS} shown)" in printed
    assert f"◆ session {FLOOD:,} server requests (last {KEPT_SERVER_REQUESTS} shown) · roots/list {FLOOD:,}" in printed
    assert ("state", f"{FLOOD:,} server requests (first {KEPT_SERVER_REQUESTS} shown)") in call_details(call), "the TUI"
    document = call_json(call, timeline)
    assert document["serverRequestCount"] == FLOOD
    assert len(document["laterServerRequests"]) == KEPT_SERVER_REQUESTS
    whole = outcome_document(Outcome(call.index, call.status, call.result), timeline)
    assert whole["sessionRequestCount"] == FLOOD and whole["sessionRequestsByMethod"] == {"roots/list": FLOOD}
    assert len(whole["session"]) == KEPT_SERVER_REQUESTS


def test_a_few_requests_are_all_rounds_and_said_without_a_fold() -> None:
    few = build_timeline(flooded()[: 3 + 3 * 5])  # (the era, tools/list sent, five roots/list)
    assert few.session.count == len(few.session) == 5 and few.session.said("server request") == "5 server requests"
    requests: ServerRequests[Round] = ServerRequests()
    requests.counted("ping")
    assert requests.said_for_call(1) == "1 server request", "all of them are rounds: nothing folded to say"


def test_requests_answered_after_newer_ones_pushed_them_out_still_get_their_own_answers() -> None:
    """A server that sends more requests than are kept before reading any reply: each answer still lands on its
    own request (the pending ones are found by id), never on another row or on the call's own round."""
    ids = [f"q{n}" for n in range(FLOOD)]
    out = [
        records.era(0.0, "legacy", "2025-11-25", "test"),
        records.call_started(0.0, 1, "tools/call", {"name": "x"}),
        records.wire(0.0, "c2s", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}', call=1),
    ]
    out += [records.wire(0.1, "s2c", json.dumps({"jsonrpc": "2.0", "id": id_, "method": "ping"})) for id_ in ids]
    for id_ in ids:
        out.append(records.answer_given(0.2, 1, "", Answer({"n": id_}, "test"), id_))
        out.append(records.wire(0.2, "c2s", json.dumps({"jsonrpc": "2.0", "id": id_, "result": {}}), call=1))
    call = build_timeline(out).call(1)
    assert call is not None and not call.rounds[0].answers
    kept = [r for r in call.rounds if r.kind == "server-request"] + list(call.server_requests)
    assert len(kept) == 2 * KEPT_SERVER_REQUESTS
    assert all([a.response for a in r.answers] == [{"n": r.request_id}] for r in kept)
