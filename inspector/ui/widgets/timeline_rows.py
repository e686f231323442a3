"""The timeline as rows of text: which rows exist (calls, their rounds, details) and what each one says.

Pure functions over the Timeline model, so the virtual list widget only maps a screen line to a row and asks for
its text; they are tested without a screen. Newest calls come first.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, NamedTuple

from rich.style import Style
from rich.text import Text

from inspector.headless.render import STARTUP, answer_summary, duration, includes_startup, waited
from inspector.session.timeline import FAILED_STATUSES
from inspector.ui.safe_text import one_line
from inspector.ui.widgets import auth_steps

if TYPE_CHECKING:
    from inspector.session.timeline import Call, Round, Timeline

LOCK: Final = "🔒"
"""The mark of a round that carried a requestState (and of the read-only panel)."""
STYLE_NAMES: Final = ("request", "response", "error", "input-required", "pending", "finding", "dim", "state")
Palette = dict[str, Style]
"""Style per name of ``STYLE_NAMES`` (from the widget's component classes, so from the theme)."""


class Row(NamedTuple):
    """One line of the timeline: a call (round 0, line 0), a round (line 0) or a detail line under either."""

    call: int
    round: int
    line: int


@dataclass(frozen=True, slots=True)
class CallFilter:
    """Terms that must all match: ``method:X``, ``name:X``, ``status:X``, ``error``, ``findings``, or free words."""

    text: str = ""

    def _terms(self) -> list[str]:
        return [term.lower() for term in self.text.split()]

    def matches(self, call: Call) -> bool:
        """Whether ``call`` passes every term."""
        method = call.method.lower()
        name = (call.name or "").lower()
        for term in self._terms():
            key, _, value = term.partition(":")
            if not value:
                key, value = "", term
            if key == "method" and value not in method:
                return False
            if key == "name" and value not in name:
                return False
            if key == "status" and not call.status.startswith(value):
                return False
            if key in ("has", "is", "") and value in ("error", "errors"):
                if not call.failed:
                    return False
            elif key in ("has", "is", "") and value in ("finding", "findings"):
                if not call.all_findings():
                    return False
            elif key == "" and value not in method and value not in name and value != call.status:
                return False
        return True


def _answer_lines(round_: Round) -> list[str]:
    lines = []
    for answer in round_.answers:
        key = f"{answer.key}: " if answer.key else ""
        lines.append(f"answered {key}{answer_summary(answer.response)} ({answer.source})")
    return lines


def _notification_lines(round_: Round) -> list[str]:
    lines = []
    for note in round_.notifications:
        message = note.message or {}
        method = str(message.get("method", "?"))
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        assert isinstance(params, dict)
        if method == "notifications/progress":
            total = f"/{params['total']}" if "total" in params else ""
            text = f" {params['message']}" if isinstance(params.get("message"), str) else ""
            lines.append(f"progress {params.get('progress', '?')}{total}{text}")
        elif method == "notifications/message":
            data = params.get("data")
            lines.append(f"log {params.get('level', '')}: {data if isinstance(data, str) else json.dumps(data)}")
        else:
            lines.append(f"{'→' if note.direction == 'c2s' else '←'} {method}")
    return lines


def round_details(round_: Round, call: Call | None = None) -> list[tuple[str, str]]:
    """The detail lines under a round, as (style name, text); given its ``call``, the login its request needed
    comes first (``auth_steps.round_rows``)."""
    details = auth_steps.round_rows(call, round_) if call is not None else []
    details += [("dim", line) for line in _answer_lines(round_)]
    details += [("pending", line) for line in _notification_lines(round_)]
    details += [("finding", f"⚠ {f.code}: {f.message}") for f in round_.findings]
    return details


def call_details(call: Call) -> list[tuple[str, str]]:
    """The detail lines after a call's rounds: its own findings and why it did not complete."""
    details = auth_steps.call_rows(call)
    details += [("finding", f"⚠ {f.code}: {f.message}") for f in call.findings]
    if call.status_detail and call.status != "complete":
        details.append(("error", call.status_detail))
    return details


def rows_for(call: Call, expanded: bool) -> Iterable[Row]:
    """The rows of one call: itself, then (when expanded) each round and its details, then call details."""
    yield Row(call.index, 0, 0)
    if not expanded:
        return
    for round_ in call.rounds:
        yield Row(call.index, round_.index, 0)
        for line in range(len(round_details(round_, call))):
            yield Row(call.index, round_.index, line + 1)
    for line in range(len(call_details(call))):
        yield Row(call.index, 0, line + 1)


def build_rows(
    timeline: Timeline, expanded: set[int], keep: CallFilter, follows: Mapping[int, int] | None = None
) -> list[Row]:
    """Every visible row, newest call first; a resent call (``follows``: new call -> the call it resent) sits
    right above the call it resent instead of at the top."""
    rows: list[Row] = []
    after: dict[int, list[int]] = {}
    for new, origin in sorted((follows or {}).items(), reverse=True):
        if timeline.call(origin) is not None and new != origin:
            after.setdefault(origin, []).append(new)
    placed = {new for news in after.values() for new in news}

    def emit(call: Call, depth: int) -> None:
        for new in after.get(call.index, []) if depth < 32 else []:
            found = timeline.call(new)
            if found is not None:
                emit(found, depth + 1)
        if keep.matches(call):
            rows.extend(rows_for(call, call.index in expanded))

    for call in reversed(timeline.calls):
        if call.index not in placed:
            emit(call, 0)
    return rows


ROUNDS_WIDTH: Final = 8
"""``3 rounds``; a round row puts its marks (lock, findings) in the same place."""
TIME_WIDTH: Final = 8
"""The widest ``duration`` (``59.9 min``)."""


@dataclass(frozen=True, slots=True)
class Columns:
    """The widths of the right-hand columns, taken from the calls shown, so that every row lines up: pending or
    finished, with or without a wait for answers."""

    status: int = 8
    wait: int = 0

    @classmethod
    def of(cls, calls: Iterable[Call]) -> Columns:
        """Wide enough for the status and the wait of every call in ``calls`` (and of their rounds)."""
        status, wait = 8, 0
        for call in calls:
            status = max(status, len(status_text(call)))
            texts = [waited(call.answer_sources, call.wait_ms)]
            texts += [waited(r.answer_sources, ms) for r, ms in zip(call.rounds, call.round_wait_ms, strict=True)]
            wait = max([wait, *(len(text) for text in texts if text)])
        return cls(status, wait)


def status_text(call: Call) -> str:
    """The status column of a call: its status, and its findings count (``complete ⚠2``)."""
    found = len(call.all_findings())
    return f"{call.status} ⚠{found}" if found else call.status


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


def _line(left: Text, right: Text, width: int) -> Text:
    room = max(width - right.cell_len - 1, 8)
    left.truncate(room, overflow="ellipsis", pad=True)
    return Text.assemble(left, " ", right, end="", no_wrap=True)


def render_call(
    call: Call, expanded: bool, width: int, palette: Palette, resent: int | None = None, columns: Columns | None = None
) -> Text:
    """The line of a call: fold mark, index, method, name; then in columns the status (and findings mark), the
    rounds, the server's time and the wait for answers (``you 9.7 s``); a resent call names the call it
    resent."""
    columns = columns or Columns.of([call])
    left = Text(no_wrap=True, end="")
    left.append("▼ " if expanded else "▶ ", palette["dim"])
    left.append(f"#{call.index} ", palette["dim"])
    left.append(f"{one_line(call.method, 40):<10} ", palette["request"])
    if resent is not None:
        left.append(f"↻ #{resent} ", palette["state"])
    left.append(one_line(call.name or "", 200))
    right = Text(no_wrap=True, end="")
    status = status_text(call)
    right.append(f"{call.status}", palette[status_style(call.status)])
    if status != call.status:
        right.append(status[len(call.status) :], palette["finding"])
    right.append(" " * (columns.status - len(status) + 1))
    rounds = len(call.rounds)
    right.append(f"{rounds} round{'s' if rounds != 1 else ' '}".rjust(ROUNDS_WIDTH), palette["dim"])
    _times(right, duration(call.server_ms), waited(call.answer_sources, call.wait_ms), columns, palette)
    return _line(left, right, width)


def _times(right: Text, server: str, wait: str | None, columns: Columns, palette: Palette) -> None:
    """The last columns of a row: the server's time, then the wait for answers (when any row has one)."""
    right.append(f" {server:>{TIME_WIDTH}}", palette["pending"])
    if columns.wait:
        right.append(f" {wait or '':<{columns.wait}}", palette["input-required"])


def render_round(
    call: Call, round_: Round, width: int, palette: Palette, columns: Columns | None = None, *, startup: bool = False
) -> Text:
    """The line of a round: request id -> resultType, input keys; then, under the call's rounds column, a lock
    when it carried a requestState and its findings, and under its times the server's time and the wait for its
    answers (a legacy server request has only the wait for our reply). ``startup``: its time includes the
    server's start-up."""
    columns = columns or Columns.of([call])
    position = call.rounds.index(round_)
    last = round_ is call.rounds[-1] and not call_details(call)
    left = Text(no_wrap=True, end="")
    left.append("  └ " if last else "  ├ ", palette["dim"])
    if round_.kind == "server-request":
        left.append(f"← server request id {round_.request_id} {one_line(round_.method, 40)}", palette["input-required"])
    else:
        retry = " retry" if round_.index > 1 else ""
        left.append(f"id {one_line(str(round_.request_id), 20)}{retry} → ", palette["request"])
        left.append(
            round_.result_type or ("error" if round_.error else "pending"), palette[_round_result_style(round_)]
        )
    if round_.input_requests and round_.kind == "request":
        keys = ", ".join(key or request.get("method", "?") for key, request in round_.input_requests.items())
        left.append(f"  {one_line(keys, 120)}", palette["input-required"])
    if startup:
        left.append(f"  ({STARTUP})", palette["dim"])
    marks = Text(no_wrap=True, end="")
    if round_.request_state is not None:
        marks.append(LOCK, palette["state"])
    if round_.findings:
        marks.append(f" ⚠{len(round_.findings)}", palette["finding"])
    right = Text(" " * max(ROUNDS_WIDTH - marks.cell_len, 0), no_wrap=True, end="")
    right.append_text(marks)
    wait = waited(round_.answer_sources, call.round_wait_ms[position])
    server = "" if round_.kind == "server-request" else duration(call.round_server_ms[position])
    _times(right, server, wait, columns, palette)
    return _line(left, right, width)


def render_detail(text: str, style: str, width: int, palette: Palette, *, last_round: bool) -> Text:
    """A detail line under a round (answers, notifications, findings) or a call (call findings, status detail)."""
    line = Text("      " if last_round else "  │   ", palette["dim"], no_wrap=True, end="")
    line.append(one_line(text, max(width - 6, 1)), palette[style])
    line.truncate(width, overflow="ellipsis", pad=True)
    return line


def render_row(
    row: Row,
    timeline: Timeline,
    expanded: set[int],
    width: int,
    palette: Palette,
    follows: Mapping[int, int] | None = None,
    columns: Columns | None = None,
) -> Text:
    """The text of any row (``follows``: resent call -> the call it resent; ``columns``: the widths every row
    shares, else this call's own)."""
    call = timeline.call(row.call)
    if call is None:
        return Text(" " * width, end="")
    if row.round == 0 and row.line == 0:
        return render_call(call, call.index in expanded, width, palette, (follows or {}).get(call.index), columns)
    if row.round == 0:
        style, text = call_details(call)[row.line - 1]
        return render_detail(text, style, width, palette, last_round=True)
    round_ = call.rounds[row.round - 1]
    if row.line == 0:
        startup = includes_startup(timeline, call, round_)
        return render_round(call, round_, width, palette, columns, startup=startup)
    style, text = round_details(round_, call)[row.line - 1]
    last = round_ is call.rounds[-1] and not call_details(call)
    return render_detail(text, style, width, palette, last_round=last)


def describe_row(row: Row) -> str:
    """A short name of a row for tests and screen readers: ``#3``, ``#3 round 2``."""
    return f"#{row.call}" if row.round == 0 else f"#{row.call} round {row.round}"


PaletteSource = Callable[[], Palette]
