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

from inspector.session.timeline import FAILED_STATUSES
from inspector.ui.safe_text import one_line

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
        response = answer.response
        action = response.get("action")
        content = response.get("content")
        if action == "accept" and isinstance(content, dict):
            shown = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in content.items())
        elif isinstance(action, str):
            shown = action
        else:
            shown = json.dumps(response, ensure_ascii=False)
        key = f"{answer.key}: " if answer.key else ""
        lines.append(f"answered {key}{shown} ({answer.source})")
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


def round_details(round_: Round) -> list[tuple[str, str]]:
    """The detail lines under a round, as (style name, text)."""
    details = [("dim", line) for line in _answer_lines(round_)]
    details += [("pending", line) for line in _notification_lines(round_)]
    details += [("finding", f"⚠ {f.code}: {f.message}") for f in round_.findings]
    return details


def call_details(call: Call) -> list[tuple[str, str]]:
    """The detail lines after a call's rounds: its own findings and why it did not complete."""
    details = [("finding", f"⚠ {f.code}: {f.message}") for f in call.findings]
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
        for line in range(len(round_details(round_))):
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


def _ms(value: float | None) -> str:
    if value is None:
        return "…"
    return f"{value:.0f}ms" if value < 10_000 else f"{value / 1000:.1f}s"


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


def render_call(call: Call, expanded: bool, width: int, palette: Palette, resent: int | None = None) -> Text:
    """The line of a call: fold mark, index, method, name, rounds, total latency, status, finding mark; a resent
    call names the call it resent."""
    left = Text(no_wrap=True, end="")
    left.append("▼ " if expanded else "▶ ", palette["dim"])
    left.append(f"#{call.index} ", palette["dim"])
    left.append(f"{one_line(call.method, 40):<10} ", palette["request"])
    if resent is not None:
        left.append(f"↻ #{resent} ", palette["state"])
    left.append(one_line(call.name or "", 200))
    right = Text(no_wrap=True, end="")
    rounds = len(call.rounds)
    right.append(f"{rounds} round{'s' if rounds != 1 else ' '}", palette["dim"])
    right.append(f"{_ms(call.total_ms):>7} ", palette["pending"])
    right.append(call.status, palette[status_style(call.status)])
    found = len(call.all_findings())
    if found:
        right.append(f" ⚠{found}", palette["finding"])
    return _line(left, right, width)


def render_round(call: Call, round_: Round, width: int, palette: Palette) -> Text:
    """The line of a round: request id -> resultType, input keys, lock when it carried a requestState, latency."""
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
    if round_.input_requests:
        keys = ", ".join(key or request.get("method", "?") for key, request in round_.input_requests.items())
        left.append(f"  {one_line(keys, 120)}", palette["input-required"])
    right = Text(no_wrap=True, end="")
    if round_.request_state is not None:
        right.append(f"{LOCK} ", palette["state"])
    if round_.findings:
        right.append(f"⚠{len(round_.findings)} ", palette["finding"])
    right.append(f"{_ms(round_.latency_ms):>7}", palette["pending"])
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
) -> Text:
    """The text of any row (``follows``: resent call -> the call it resent)."""
    call = timeline.call(row.call)
    if call is None:
        return Text(" " * width, end="")
    if row.round == 0 and row.line == 0:
        return render_call(call, call.index in expanded, width, palette, (follows or {}).get(call.index))
    if row.round == 0:
        style, text = call_details(call)[row.line - 1]
        return render_detail(text, style, width, palette, last_round=True)
    round_ = call.rounds[row.round - 1]
    if row.line == 0:
        return render_round(call, round_, width, palette)
    style, text = round_details(round_)[row.line - 1]
    last = round_ is call.rounds[-1] and not call_details(call)
    return render_detail(text, style, width, palette, last_round=last)


def describe_row(row: Row) -> str:
    """A short name of a row for tests and screen readers: ``#3``, ``#3 round 2``."""
    return f"#{row.call}" if row.round == 0 else f"#{row.call} round {row.round}"


PaletteSource = Callable[[], Palette]
