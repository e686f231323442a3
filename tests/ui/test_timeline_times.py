"""Time that means what it says: a call's figure is the server's time (the sum of its rounds'), and whose the rest
was is shown apart ("you 9.7 s": the person's, a model's, the client's), on the timeline rows and in the detail
pane, in one unit style: a login's consent page is the person's, a dialog before the stub model answers is the
person's and the model's compute the model's; the first request over stdio says that it includes the server's
start-up. Pure: rows and documents, no screen."""

from __future__ import annotations

import re

import pytest
from rich.style import Style
from time_support import legacy_weather, logged_in, modern_weather, state_only, stub_after_dialog

from inspector.timeline.model import Timeline
from inspector.timeline.wording import CONSENT_NOTE, STARTUP, duration
from inspector.ui.main.selection import selection
from inspector.ui.widgets.call_filter import CallFilter
from inspector.ui.widgets.login_rows import round_rows
from inspector.ui.widgets.timeline_rows import STYLE_NAMES, Columns, Row, RowLook, build_rows, render_row

PALETTE = {name: Style() for name in STYLE_NAMES}
WIDTH = 90


def line(row: Row, timeline: Timeline, expanded: set[int], columns: Columns | None = None) -> str:
    """The plain text of one timeline row."""
    return render_row(row, timeline, expanded, RowLook(WIDTH, PALETTE, columns)).plain


@pytest.mark.parametrize(
    ("ms", "shown"),
    [(0.42, "0.4 ms"), (9.96, "10 ms"), (14.2, "14 ms"), (999.6, "1.0 s"), (9785, "9.8 s"), (89_000, "1.5 min")],
)
def test_one_unit_style_for_every_time(ms: float, shown: str) -> None:
    assert duration(ms) == shown
    assert duration(None) == "…"


def test_the_call_figure_is_the_servers_time_and_the_wait_is_apart() -> None:
    timeline = modern_weather()
    call = timeline.calls[1]
    assert [split.server_ms for split in call.round_times] == [pytest.approx(14), pytest.approx(65)]
    assert call.times.server_ms == pytest.approx(79)
    assert call.times.person_ms == pytest.approx(9700) and call.answer_sources == ["you"]
    assert call.times.model_ms is None and call.times.client_ms is None
    row = line(Row(2, 0, 0), timeline, {2})
    assert "79 ms" in row and "you 9.7 s" in row and "9779" not in row and "9.8 s" not in row
    first, second = line(Row(2, 1, 0), timeline, {2}), line(Row(2, 2, 0), timeline, {2})
    assert "14 ms" in first and "you 9.7 s" in first
    assert "65 ms" in second and "you" not in second


def test_a_legacy_server_request_is_the_answerers_time_not_the_servers() -> None:
    call = legacy_weather().calls[0]
    assert [r.kind for r in call.rounds] == ["request", "server-request"]
    assert call.times.server_ms == pytest.approx(400)  # the 10.1 s request less the 9.7 s the question waited
    assert call.times.person_ms == pytest.approx(9700)
    row = line(Row(1, 2, 0), legacy_weather(), {1})
    assert "you 9.7 s" in row and "9.7 s" not in row.replace("you 9.7 s", "")


def test_a_state_only_back_off_is_nobodys_wait() -> None:
    call = state_only().calls[0]
    assert call.times.waited_ms is None and call.times.server_ms == pytest.approx(30)


def test_pending_and_finished_rows_line_up() -> None:
    timeline = modern_weather(pending=True)
    rows = build_rows(timeline, {2}, CallFilter())
    columns = Columns.of(call for call in timeline.calls)
    lines = [line(row, timeline, {2}, columns) for row in rows if row.line == 0]
    pending, finished = lines[0], lines[1]
    assert "pending" in pending and "complete" in finished
    # The status and the server's time start in the same column on every call row, pending or not.
    assert pending.index("pending") == finished.index("complete")
    assert pending.rindex("…") == finished.rindex("79 ms") + len("79 ms") - 1
    rounds = [text for text in lines if "id " in text]
    ends = {match.end() for text in rounds[:2] for match in [re.search(r"\d+ ms", text)] if match}
    assert len(ends) == 1  # the rounds' times end where the call's time ends
    assert all(len(text) == WIDTH for text in lines)


def test_the_first_request_over_stdio_says_it_includes_the_start_up() -> None:
    timeline = modern_weather("stdio")
    assert STARTUP in line(Row(1, 1, 0), timeline, {1})
    assert STARTUP not in line(Row(2, 1, 0), timeline, {2})
    shown = selection(timeline, 1, 1, unfold=False)
    assert shown is not None and any(STARTUP in text for _, text in shown.document.lines)
    assert STARTUP not in line(Row(1, 1, 0), modern_weather("http"), {1})


def test_the_detail_pane_says_the_servers_time_and_the_wait() -> None:
    timeline = modern_weather()
    call = selection(timeline, 2, 0, unfold=False)
    assert call is not None
    assert call.document.lines[1][1] == "complete · 2 rounds · server 79 ms · waited for you 9.7 s · 9.8 s in all"
    first = selection(timeline, 2, 1, unfold=False)
    assert first is not None
    assert first.document.lines[1][1] == "tools/call → input_required · server 14 ms · then waited for you 9.7 s"


def test_the_secondary_columns_give_way_before_the_name_and_the_time_keeps_its_unit() -> None:
    timeline = modern_weather()
    wide, rounds_only, bare = (
        render_row(Row(2, 0, 0), timeline, {2}, RowLook(width, PALETTE)).plain for width in (90, 56, 46)
    )
    assert wide.startswith("▼ #2 tools/call get_weather") and "you 9.7 s" in wide and wide.endswith("79 ms")
    # Narrower: who answered goes first, then the rounds; the name, the status and "79 ms" stay whole.
    assert "you" not in rounds_only and "2 rounds" in rounds_only and rounds_only.endswith("complete    79 ms")
    assert "round" not in bare and "get_weather" in bare and bare.endswith("complete    79 ms")
    assert all(len(text) == width for text, width in ((wide, 90), (rounds_only, 56), (bare, 46)))
    squeezed = render_row(Row(2, 0, 0), timeline, {2}, RowLook(30, PALETTE)).plain
    assert squeezed.endswith("complete 79 ms") and "…" in squeezed  # no room at all: only then is the name cut


def test_a_round_keeps_its_input_keys_and_its_lock_before_who_answered() -> None:
    timeline = modern_weather()
    for width in (90, 60, 48):
        text = render_row(Row(2, 1, 0), timeline, {2}, RowLook(width, PALETTE)).plain
        assert "id 2 → input_required  github_login" in text and text.endswith("14 ms"), (width, text)
        assert ("you 9.7 s" in text) == (width == 90)


def test_a_logins_consent_page_is_your_time_on_the_rows_and_in_the_detail() -> None:
    """server/discover needed a login: its request was open 7.16 s, 7.0 s of them on the consent page in the
    browser. The row's time is the server's 160 ms (the login's exchanges included: an authorization server's), the
    7.0 s are "you"; the login's rows say the wait was the person's; the detail says it too."""
    timeline = logged_in()
    call = timeline.calls[0]
    [round_times] = call.round_times
    assert round_times.server_ms == pytest.approx(160) and round_times.person_ms == pytest.approx(7000)
    row = line(Row(1, 0, 0), timeline, {1})
    assert row.endswith("160 ms") and "you 7.0 s" in row and "7.2 s" not in row
    first = line(Row(1, 1, 0), timeline, {1})
    assert first.endswith("160 ms") and "you 7.0 s" in first
    waits = [text for _, text in round_rows(call, call.rounds[0]) if "authorization: waiting" in text]
    assert waits == ["🔑 … authorization: waiting for the authorization to come back · you 7.0 s"]
    shown = selection(timeline, 1, 0, unfold=False)
    assert shown is not None
    assert shown.document.lines[1][1] == "complete · 1 round · server 160 ms · waited for you 7.0 s · 7.2 s in all"
    detail = selection(timeline, 1, 1, unfold=False)
    assert detail is not None
    assert detail.document.lines[1][1] == "server/discover → complete · server 160 ms · waited for you 7.0 s"
    assert ("dim", CONSENT_NOTE) in detail.document.lines


def test_a_dialog_before_the_stub_model_is_your_time_and_its_compute_the_models() -> None:
    """The person read the sampling dialog for 2.0 s and pressed "stub model", which took 0.5 s: the row and the
    detail say both, apart ("waited for stub model 2.5 s" was the person's reading counted as the model's)."""
    timeline = stub_after_dialog()
    call = timeline.calls[0]
    asked = call.round_times[0]
    assert asked.person_ms == pytest.approx(2000) and asked.model_ms == pytest.approx(500)
    assert asked.models == ("stub model",)
    row = line(Row(1, 0, 0), timeline, {1})
    assert "you 2.0 s, stub model 500 ms" in row and row.endswith("44 ms")
    asking = render_row(Row(1, 1, 0), timeline, {1}, RowLook(120, PALETTE)).plain  # (at 90 the column gives way)
    assert "you 2.0 s, stub model 500 ms" in asking and asking.endswith("14 ms")
    shown = selection(timeline, 1, 0, unfold=False)
    assert shown is not None
    said = "complete · 2 rounds · server 44 ms · waited for you 2.0 s, stub model 500 ms · 2.5 s in all"
    assert shown.document.lines[1][1] == said


def test_an_older_recordings_answers_are_read_by_their_source() -> None:
    """A recording made before answers said whose time they took: "you" is the person's, "stub model" a model's,
    anything else the client's own."""
    for source, whose in (("you", "person"), ("stub model", "model"), ("answers file", "client")):
        old = stub_after_dialog({"source": source, "party": None, "model_ms": None})
        times = old.calls[0].times
        got = {"person": times.person_ms, "model": times.model_ms, "client": times.client_ms}
        assert got.pop(whose) == pytest.approx(2500), source
        assert set(got.values()) == {None}, source
