"""The timeline as rows of text: which rows exist (calls, their rounds, details) and what each one says.

Pure functions over the Timeline model, so the virtual list widget only maps a screen line to a row and asks for
its text; they are tested without a screen. Newest calls come first.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple

from rich.style import Style
from rich.text import Text

from inspector.protocol.caching import age_words
from inspector.timeline.model import FAILED_STATUSES
from inspector.timeline.wording import STARTUP, answer_summary, includes_startup, server_time, waits
from inspector.ui.safe_text import one_line
from inspector.ui.widgets import login_rows as auth_steps
from inspector.ui.widgets import work_rows
from inspector.ui.widgets.call_filter import CallFilter
from inspector.ui.widgets.session_rows import render_session_row, session_round
from inspector.ui.widgets.work_rows import WorkView

if TYPE_CHECKING:
    from inspector.timeline.model import Call, Round, Timeline
    from inspector.timeline.wire import WireMessage

LOCK: Final = "🔒"
"""The mark of a round that carried a requestState (and of the read-only panel)."""
STYLE_NAMES: Final = ("request", "response", "error", "input-required", "pending", "finding", "dim", "state")
Palette = dict[str, Style]
"""Style per name of ``STYLE_NAMES`` (from the widget's component classes, so from the theme)."""


class Row(NamedTuple):
    """One line of the timeline: a call (round 0, line 0), a round (line 0) or a detail line under either; a
    task's polls row (``part`` "polls"), or a session row (``part`` "session", ``round`` its index, call 0)."""

    call: int
    round: int
    line: int
    part: str = ""


def _answer_lines(round_: Round) -> list[str]:
    lines = []
    for answer in round_.answers:
        key = f"{answer.key}: " if answer.key else ""
        lines.append(f"answered {key}{answer_summary(answer.response)} ({answer.source})")
    return lines


def _notification_lines(round_: Round) -> list[str]:
    """A line a notification, except progress: one line, where the first came, says the latest and how many came
    (a slow_count sent 88, and its round grew a row each; the detail pane lists every one)."""
    notes = round_.notifications
    progress = [note for note in notes if (note.message or {}).get("method") == "notifications/progress"]
    # A flood, folded: said when it left out more than progress (whose one line counts them all).
    others = notes.count - notes.of("notifications/progress")
    lines = [notes.said("notification")] if others > len(notes.kept) - len(progress) else []
    for note in notes:
        message = note.message or {}
        method = str(message.get("method", "?"))
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        assert isinstance(params, dict)
        if method == "notifications/progress":
            if note is progress[0]:
                lines.append(_progress_line(progress, notes.of("notifications/progress")))
        elif method == "notifications/message":
            data = params.get("data")
            lines.append(f"log {params.get('level', '')}: {data if isinstance(data, str) else json.dumps(data)}")
        else:
            lines.append(f"{'→' if note.direction == 'c2s' else '←'} {method}")
    return lines


def _progress_line(progress: list[WireMessage], count: int) -> str:
    """``progress 88/150 counted 88 of 150 · 88 notifications``: the latest progress a round was sent, and how many
    came (``count``: kept or not)."""
    latest = progress[-1].message or {}
    params = latest.get("params") if isinstance(latest.get("params"), dict) else {}
    assert isinstance(params, dict)
    total = f"/{params['total']}" if "total" in params else ""
    text = f" {params['message']}" if isinstance(params.get("message"), str) else ""
    counted = f" · {count:,} notifications" if count > 1 else ""
    return f"progress {params.get('progress', '?')}{total}{text}{counted}"


def round_details(round_: Round, call: Call | None = None) -> list[tuple[str, str]]:
    """The detail lines under a round, as (style name, text); given its ``call``, the login its request needed
    comes first (``auth_steps.round_rows``); a task's update names the answers it carried and who gave them (they
    are recorded on the poll that asked)."""
    details = auth_steps.round_rows(call, round_) if call is not None else []
    if call is not None and call.task is not None:
        answers = work_rows.update_answers(call, round_)
    else:
        answers = _answer_lines(round_)
    details += [("dim", line) for line in answers]
    details += [("pending", line) for line in _notification_lines(round_)]
    details += [("finding", f"⚠ {f.code}: {f.message}") for f in round_.findings]
    return details


def call_details(call: Call) -> list[tuple[str, str]]:
    """The detail lines after a call's rounds: its own findings and why it did not complete."""
    details = auth_steps.call_rows(call)
    if call.cached is not None:
        details.append(("state", call.cached.said()))
    requests = call.server_requests
    if requests.kept:  # (a server that asked more than the rounds hold: how many came; the recording has them all)
        details.append(("state", requests.said_for_call(requests.limit, 0)))
    details += [("finding", f"⚠ {f.code}: {f.message}") for f in call.findings]
    if call.status_detail and call.status != "complete":
        details.append(("error", call.status_detail))
    return details


def rows_for(call: Call, expanded: bool, polls_open: bool = False) -> Iterable[Row]:
    """The rows of one call: itself, then (when expanded) each round and its details (a task's polls folded into
    one row unless ``polls_open``), then call details."""
    yield Row(call.index, 0, 0)
    if not expanded:
        return
    for round_ in work_rows.shown_rounds(call, polls_open):
        if round_ is None:
            yield Row(call.index, 0, 0, "polls")
            continue
        yield Row(call.index, round_.index, 0)
        for line in range(len(round_details(round_, call))):
            yield Row(call.index, round_.index, line + 1)
    for line in range(len(call_details(call))):
        yield Row(call.index, 0, line + 1)


def build_rows(timeline: Timeline, expanded: set[int], keep: CallFilter, view: WorkView | None = None) -> list[Row]:
    """Every visible row, newest call first; a resent call (``Call.resends``, live or replayed) sits right above
    the call it resent instead of at the top. The session's own rows sit among the calls by the time they came
    (shown unless a filter is typed); ``view``: unfolded polls, calls being cancelled."""
    rows: list[Row] = []
    polls_open = view.polls_open if view is not None else set()
    session = [] if keep.text.strip() else list(reversed(timeline.session))

    def session_rows_since(at: float) -> None:
        while session and session[0].started_at >= at:
            rows.append(Row(0, session.pop(0).index, 0, "session"))

    after: dict[int, list[int]] = {}
    for call in reversed(timeline.calls):
        if call.resends is not None and timeline.call(call.resends) is not None and call.resends != call.index:
            after.setdefault(call.resends, []).append(call.index)
    placed = {new for news in after.values() for new in news}

    def emit(call: Call, depth: int) -> None:
        for new in after.get(call.index, []) if depth < 32 else []:
            found = timeline.call(new)
            if found is not None:
                emit(found, depth + 1)
        if keep.matches(call):
            rows.extend(rows_for(call, call.index in expanded, call.index in polls_open))

    for call in reversed(timeline.calls):
        if call.index not in placed:
            session_rows_since(call.started_at)
            emit(call, 0)
    session_rows_since(float("-inf"))
    return rows


ROUNDS_WIDTH: Final = 8
"""``3 rounds``; a round row puts its marks (lock, findings) in the same place."""
TIME_WIDTH: Final = 8
"""The widest ``duration`` (``59.9 min``)."""


@dataclass(frozen=True, slots=True)
class Columns:
    """The widths of the right-hand columns, taken from the calls shown, so that every row lines up: pending or
    finished, with or without time waited on others than the server."""

    status: int = 8
    wait: int = 0

    @classmethod
    def of(cls, calls: Iterable[Call], view: WorkView | None = None) -> Columns:
        """Wide enough for the status and the wait of every call in ``calls`` (and of their rounds)."""
        status, wait = 8, 0
        for call in calls:
            status = max(status, len(status_text(call, view)))
            rounds, times = call.timed()
            texts = [waits(times), *(waits(split) for split in rounds)]
            wait = max([wait, *(len(text) for text in texts if text)])
        return cls(status, wait)


@dataclass(frozen=True, slots=True)
class RowLook:
    """How a row is drawn: the width it fills, the theme's styles, and the right-hand columns' widths every row
    shares (None: each call's own)."""

    width: int
    palette: Palette
    columns: Columns | None = None


def status_text(call: Call, view: WorkView | None = None) -> str:
    """The status column of a call: its status ("cancelling" from the key on: ``view``), and its findings count
    (``complete ⚠2``)."""
    found = len(call.all_findings())
    status = view.status(call) if view is not None else call.status
    return f"{status} ⚠{found}" if found else status


def status_style(status: str) -> str:
    """The style name for a call status."""
    if status == "complete":
        return "response"
    if status in FAILED_STATUSES:
        return "error"
    return "input-required" if status == "input-required" else "pending"


def _round_result_style(round_: Round) -> str:
    if round_.result_type is None:
        return "pending"
    if round_.result_type == "input_required":
        return "input-required"
    return "error" if round_.result_type == "error" else "response"


EXTRA_MIN: Final = 14
"""The least room a row's extra (a progress bar and its count, what a task is doing) is shown in; less, it goes
(the detail pane has it: the round's notifications, the task's status)."""


def _fit(left: Text, rights: list[Text], width: int, extra: Text | None = None) -> Text:
    """``left`` and the first of ``rights`` (from the richest to the barest) that leaves room for it, on one line of
    ``width``: the secondary columns give way before a name is cut, and a name is cut only when even the barest
    right-hand side leaves no room for it. ``extra`` goes after ``left`` in the room left over when at least
    ``EXTRA_MIN`` cells (or its whole) are; it is weighed with ``left`` when choosing, so a running call's progress
    bar is kept before its rounds count or its wait."""
    wanted = left.cell_len + (min(extra.cell_len, EXTRA_MIN) if extra is not None else 0)
    right = next((r for r in rights if wanted <= width - r.cell_len - 1), None)
    if right is None:
        right = next((r for r in rights if left.cell_len <= width - r.cell_len - 1), rights[-1])
    room = max(width - right.cell_len - 1, 1)
    spare = room - left.cell_len
    if extra is not None and spare >= min(extra.cell_len, EXTRA_MIN):
        extra.truncate(spare, overflow="ellipsis")
        left.append_text(extra)
    left.truncate(room, overflow="ellipsis", pad=True)
    line = Text.assemble(left, " ", right, end="", no_wrap=True)
    line.truncate(width, overflow="ellipsis")  # (only narrower than the barest right-hand side itself)
    return line


def _right(*parts: Text | str) -> Text:
    return Text.assemble(*parts, end="", no_wrap=True)


def render_call(call: Call, expanded: bool, look: RowLook, view: WorkView | None = None) -> Text:
    """The line of a call: fold mark, index, method, a resent call's ``↻ #N``, the whole name, and while it runs
    its progress bar (or what its task says it is doing; a task that ended, its summary); then, at the right edge
    where every row has them, the status (and findings mark) and the server's time with its unit. Between the two,
    when the row has room for them: whose the rest of its time was (``you 9.7 s``: the person's, a model's, the
    client's) and the rounds; they give way first (the detail pane says both)."""
    palette = look.palette
    columns = look.columns or Columns.of([call], view)
    left = Text(no_wrap=True, end="")
    left.append("▼ " if expanded else "▶ ", palette["dim"])
    left.append(f"#{call.index} ", palette["dim"])
    left.append(f"{one_line(call.method, 40):<10} ", palette["request"])
    if call.resends is not None:
        left.append(f"↻ #{call.resends} ", palette["state"])
    left.append(one_line(call.name or "", 200))
    status = status_text(call, view)
    said = view.status(call) if view is not None else call.status
    shown = Text(said, palette[status_style(said)], no_wrap=True, end="")
    if status != said:
        shown.append(status[len(said) :], palette["finding"])
    times = call.times
    said_time = "" if call.cached is not None else server_time(times.server_ms, call.ended)  # (nothing was sent)
    time = Text(said_time, palette["pending"], no_wrap=True, end="")
    rounds = len(call.rounds)
    said_rounds = "cached" if call.cached is not None else f"{rounds} round{'s' if rounds != 1 else ' '}"
    counted = Text(said_rounds.rjust(ROUNDS_WIDTH) + " ", palette["dim"], end="")
    aligned = _right(shown, " " * (columns.status - len(status) + 1), _pad_left(time, TIME_WIDTH))
    wait = _wait(waits(times), palette)
    rights = [_right(wait, counted, aligned), _right(counted, aligned), aligned, _right(shown, " ", time)]
    return _fit(left, rights, look.width, _work(call, palette))


def _pad_left(text: Text, width: int) -> Text:
    """``text`` right-aligned in ``width`` cells (a time ends where every row's time ends)."""
    return Text.assemble(" " * max(width - text.cell_len, 0), text, end="", no_wrap=True)


def _wait(wait: str | None, palette: Palette) -> Text:
    """Whose time the rest was (``wording.waits``: the person's, a model's, the client's), the first column to
    give way (empty: nobody was waited on)."""
    return Text(f"  {wait}  " if wait else "", palette["input-required"], no_wrap=True, end="")


def _work(call: Call, palette: Palette) -> Text | None:
    """Long work on a call's line: its progress bar, or what its task is doing, or how its task went; for a call
    answered from the cache, how old its result is."""
    if call.cached is not None:
        return Text(f"  {age_words(call.cached.age_ms)}", palette["state"], no_wrap=True, end="")
    bar = work_rows.progress_bar(call)
    note = work_rows.task_note(call)
    if bar is not None:
        return Text("  ", no_wrap=True, end="").append_text(bar)
    if note is not None:
        return Text(f"  {note}", palette["pending"], no_wrap=True, end="")
    if call.task is not None:
        return Text(f"  {work_rows.polls_text(call)}", palette["dim"], no_wrap=True, end="")
    return None


def is_retry(call: Call, round_: Round) -> bool:
    """A real retry: the call's request sent again after a round of it asked for input (or was refused until a
    URL was visited); a task's polls and updates are no retries."""
    if round_.kind != "request" or round_.method != call.method:
        return False
    earlier = [r for r in call.rounds[: call.rounds.index(round_)] if r.kind == "request" and r.method == call.method]
    return bool(earlier) and (earlier[-1].result_type == "input_required" or earlier[-1].error is not None)


def _round_end(call: Call, round_: Round) -> tuple[str, str]:
    """What a request round came to: the task status a task round said, its resultType, or, with no reply, how
    its call ended (never "pending" once the call has)."""
    said = work_rows.round_outcome(call, round_)
    if said is not None:
        return said
    if round_.result_type is not None or round_.error:
        return round_.result_type or "error", _round_result_style(round_)
    if round_.abandoned is not None or call.ended:
        # Said once, here: how the call ended is its row's status, and this row's time column stays empty (the
        # unfolded call said "no reply" three times).
        return "no reply", "error"
    if call.listen is not None and call.in_flight:
        return "listening", "pending"
    return "pending", "pending"


def render_round(call: Call, round_: Round, look: RowLook, *, startup: bool = False, last: bool | None = None) -> Text:
    """The line of a round: request id (and its method when it is not the call's: a task's) -> resultType or the
    task status it said, input keys (an update: the keys it answered, by whom), "late" for a reply that came after
    its call had ended; then, under the call's rounds column, a lock when it carried a requestState and its
    findings, and under its times the server's time and whose the rest was (``wording.waits``: a login's consent
    page, the wait for its answers; a legacy server request has only the wait for our reply). ``startup``: its
    time includes the server's start-up; ``last``: it is the last row of its call (default: the last round, and no
    call details)."""
    palette = look.palette
    columns = look.columns or Columns.of([call])
    position = call.rounds.index(round_)
    if last is None:
        last = round_ is call.rounds[-1] and not call_details(call)
    left = Text(no_wrap=True, end="")
    left.append("  └ " if last else "  ├ ", palette["dim"])
    if round_.kind == "server-request":
        left.append(
            f"← server request id {one_line(str(round_.request_id), 20)} {one_line(round_.method, 40)}",
            palette["input-required"],
        )
    else:
        retry = " retry" if is_retry(call, round_) else ""
        # (a poll sits under the polls row: its method goes without saying)
        shown = round_.method != call.method and not work_rows.is_poll(call, round_)
        method = f" {one_line(round_.method, 40)}" if shown else ""
        left.append(f"id {one_line(str(round_.request_id), 20)}{method}{retry} → ", palette["request"])
        said, style = _round_end(call, round_)
        if work_rows.carried_keys(round_) and round_.result_type == "complete":
            said, style = work_rows.answered_by(call, round_), "response"  # an update the server took
        left.append(one_line(said, 120), palette[style])
    if round_.input_requests and round_.kind == "request":
        keys = ", ".join(key or request.get("method", "?") for key, request in round_.input_requests.items())
        left.append(f"  {one_line(keys, 120)}", palette["input-required"])
    if round_.late:
        left.append("  late", palette["finding"])
    marks = Text(no_wrap=True, end="")
    if round_.request_state is not None:
        marks.append(LOCK, palette["state"])
    if round_.findings:
        marks.append(f"{' ' if marks else ''}⚠{len(round_.findings)}", palette["finding"])
    times = call.round_times[position]
    replied = times.server_ms is not None or not call.ended
    server = server_time(times.server_ms, call.ended) if round_.kind != "server-request" and replied else ""
    time = Text(server, palette["pending"], no_wrap=True, end="")
    # Under the call's columns: the marks under its rounds, nothing under its status, the time under its time.
    under = _right(_pad_left(marks, ROUNDS_WIDTH), " " * (columns.status + 2), _pad_left(time, TIME_WIDTH))
    wait = _wait(waits(times), palette)
    # (barer: the status column's room goes to the keys; the time still ends where every time ends)
    barer = _right(marks, " " if marks else "", _pad_left(time, TIME_WIDTH))
    rights = [_right(wait, under), under, barer, _right(marks, " " if marks and time else "", time)]
    extra = Text(f"  ({STARTUP})", palette["dim"], no_wrap=True, end="") if startup else None
    return _fit(left, rights, look.width, extra)


def render_detail(text: str, style: str, look: RowLook, *, last_round: bool) -> Text:
    """A detail line under a round (answers, notifications, findings) or a call (call findings, status detail)."""
    line = Text("      " if last_round else "  │   ", look.palette["dim"], no_wrap=True, end="")
    line.append(one_line(text, max(look.width - 6, 1)), look.palette[style])
    line.truncate(look.width, overflow="ellipsis", pad=True)
    return line


def render_row(row: Row, timeline: Timeline, expanded: set[int], look: RowLook, view: WorkView | None = None) -> Text:
    """The text of any row (``view``: unfolded polls, calls being cancelled)."""
    width, palette = look.width, look.palette
    if row.part == "session":
        found = session_round(timeline, row.round)
        return render_session_row(found, width, palette) if found is not None else Text(" " * width, end="")
    call = timeline.call(row.call)
    if call is None:
        return Text(" " * width, end="")
    view = view or WorkView()
    shown = work_rows.shown_rounds(call, call.index in view.polls_open)
    if row.part == "polls":
        last = shown[-1] is None and not call_details(call)
        return work_rows.render_polls(call, call.index in view.polls_open, last, width, palette)
    if row.round == 0 and row.line == 0:
        return render_call(call, call.index in expanded, look, view)
    # The rows were built from the timeline as the widget last heard of it, and the timeline changes first (a
    # legacy round's answer line goes when the call's task is created): a detail line that is gone draws blank
    # until the message that rebuilds the rows arrives, never an IndexError in the middle of a repaint.
    if row.round == 0:
        details = call_details(call)
        if row.line > len(details):
            return Text(" " * width, end="")
        style, text = details[row.line - 1]
        return render_detail(text, style, look, last_round=True)
    round_ = call.rounds[row.round - 1]
    last = round_ is shown[-1] and not call_details(call)
    if row.line == 0:
        startup = includes_startup(timeline, call, round_)
        return render_round(call, round_, look, startup=startup, last=last)
    lines = round_details(round_, call)
    if row.line > len(lines):
        return Text(" " * width, end="")
    style, text = lines[row.line - 1]
    return render_detail(text, style, look, last_round=last)


def describe_row(row: Row) -> str:
    """A short name of a row for tests and screen readers: ``#3``, ``#3 round 2``, ``#3 polls``, ``session 1``."""
    if row.part == "session":
        return f"session {row.round}"
    if row.part == "polls":
        return f"#{row.call} polls"
    return f"#{row.call}" if row.round == 0 else f"#{row.call} round {row.round}"


PaletteSource = Callable[[], Palette]
