"""Prints the timeline with rich: one block per call, one line per round, as the TUI's timeline reads.

Server text goes through ``sanitize.clean`` and into ``Text`` objects, never markup strings, so a tool named
``[bold red]x`` prints as those characters and an escape sequence cannot touch the terminal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from rich.console import Console, Group, RenderableType
from rich.text import Text

from inspector.headless.auth_render import login_summary, steps_lines
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import SUBSCRIPTION_METHODS
from inspector.protocol.sanitize import clean, one_line
from inspector.timeline.kept_findings import KeptFindings
from inspector.timeline.listen_span import ListenSpan, event_gist
from inspector.timeline.model import Call, Finding, Round, Timeline
from inspector.timeline.time_split import NOBODY, TimeSplit
from inspector.timeline.wording import STARTUP, answer_summary, duration, includes_startup, times_text, waits

STATUS_STYLE = {
    "complete": "green",
    "tool-error": "yellow",
    "error": "red",
    "failed": "red",
    "no-answer": "magenta",
    "round-cap": "red",
    "cancelled": "yellow",
    "pending": "cyan",
    "input-required": "magenta",
    "working": "cyan",
    "cancelling": "yellow",
    "detached": "yellow",
}
RESULT_STYLE = {"held open": "cyan", "complete": "green", "input_required": "magenta", "error": "red", "task": "cyan"}


def call_times(call: Call) -> str:
    """The server's time for the call and, apart, whose the rest was: ``79 ms · you 9.7 s``."""
    return times_text(call.times, call.ended)


def header(timeline: Timeline) -> Text:
    """The session line: target, transport, era and why."""
    line = Text()
    line.append("inspector ", style="bold")
    line.append(one_line(timeline.target, 80))
    line.append(f" ({timeline.transport})", style="dim")
    if timeline.era is not None:
        line.append(f" · {timeline.era.era} {timeline.era.version}", style="bold cyan")
        line.append(f" · {one_line(timeline.era.why, 120)}", style="dim")
    if timeline.server_info:
        name = timeline.server_info.get("name")
        version = timeline.server_info.get("version")
        line.append(f" · server {one_line(str(name))} {one_line(str(version or ''))}", style="dim")
    return line


def round_time(round_: Round, times: TimeSplit) -> str:
    """A round's time: the server's (``14 ms``), then whose the rest was (``14 ms · you 9.7 s``: see ``waits``); a
    legacy server request is only the wait for our reply."""
    if round_.kind == "server-request":
        return waits(times) or duration(None)
    return times_text(times, round_.abandoned is not None)


def round_lines(
    round_: Round,
    last: bool,
    times: TimeSplit = NOBODY,
    note: str = "",
    call_method: str = "",
) -> list[Text]:
    """One round: id (and its method when it is not the call's: a task's polls) -> resultType, input request keys,
    its time (see ``round_time``; ``note`` says more about it), answers, requestState, findings."""
    branch = "└" if last else "├"
    cont = " " if last else "│"
    line = Text(f"  {branch} ")
    held = round_.kind != "server-request" and round_.response is None and call_method in SUBSCRIPTION_METHODS
    if round_.kind == "server-request":
        line.append(f"server → {round_.method} (id {round_.request_id})", style="magenta")
    else:
        method = f" {one_line(round_.method, 40)}" if call_method and round_.method != call_method else ""
        line.append(f"id {round_.request_id}{method} ", style="dim")
        if round_.instance is not None:
            line.append(f"on {one_line(round_.instance, 20)} ", style="bold blue")
        line.append("→ ", style="dim")
        kind = round_.result_type or ("held open" if held else "no reply")
        line.append(kind, style=RESULT_STYLE.get(kind, "red"))
        if round_.error:
            line.append(
                f" {round_.error.get('code')} {one_line(str(round_.error.get('message', '')), 80)}", style="red"
            )
        if round_.input_requests:
            line.append("  " + ", ".join(one_line(k, 40) for k in round_.input_requests), style="bold magenta")
    if round_.request_state is not None:
        line.append("  🔒", style="yellow")
    line.append(f"  {round_time(round_, times)}", style="dim")
    if note:
        line.append(f" ({note})", style="dim")
    if round_.abandoned is not None and round_.response is None and not held:
        line.append(f"  (no reply: the call ended {round_.abandoned})", style="yellow")
    if round_.late:
        line.append("  (late)", style="yellow")
    if round_.inferred_owner:
        line.append("  (call inferred: stdio)", style="dim")
    lines = [line]
    for answer in round_.answers:
        text = Text(f"  {cont}    answered ")
        if answer.key:
            text.append(one_line(answer.key, 40), style="bold")
            text.append(": ")
        text.append(one_line(answer_summary(answer.response), 100))
        text.append(f" ({one_line(answer.source, 40)})", style="dim")
        lines.append(text)
    state = round_.request_state
    if state is not None:
        echo = {True: "echoed unchanged ✓", False: "NOT echoed ✗", None: "not retried"}[state.echoed]
        text = Text(f"  {cont}    requestState {state.length} chars · sha256 {state.sha256[:12]}… · ")
        text.append(echo, style={True: "green", False: "red", None: "dim"}[state.echoed])
        lines.append(text)
    notes = round_.notifications
    if notes.left_out:  # (a flood: the round keeps the newest, the recording every one)
        lines.append(Text(f"  {cont}    {notes.said('notification')}{by_method(notes.by_method)}", style="dim"))
    progress = notes.of("notifications/progress")
    if progress and not notes.left_out:  # (folded: the line above counts them by method)
        lines.append(Text(f"  {cont}    {progress:,} progress notification(s)", style="dim"))
    logs = [note.message for note in notes if is_log(note.message)]
    if len(logs) < notes.of(LOG):
        lines.append(Text(f"  {cont}    {notes.of(LOG) - len(logs):,} earlier log(s) not shown", style="dim"))
    lines.extend(log_line(message, f"  {cont}    ") for message in logs)
    lines.extend(finding_line(f, f"  {cont}    ") for f in round_.findings)
    lines.extend(fold_lines(round_.findings, f"  {cont}    "))
    return lines


LOG: Final = "notifications/message"


def by_method(counts: Mapping[str, int]) -> str:
    """A folded round's or subscription's counts by method: `` · notifications/progress 239,990, ...``."""
    ranked = sorted(counts.items(), key=lambda item: -item[1])
    return " · " + ", ".join(f"{one_line(method, 60)} {n:,}" for method, n in ranked) if ranked else ""


LOG_STYLE: Final = {"debug": "dim", "info": "cyan", "notice": "cyan", "warning": "yellow"}
"""A log line's level as a colour: error and above are red."""


def is_log(message: JsonObject | None) -> bool:
    """Whether a message is a server log (``notifications/message``)."""
    return message is not None and message.get("method") == LOG


def log_line(message: JsonObject | None, indent: str) -> Text:
    """A server log as the printed timeline shows it: ``log warning: LOGGER: text`` (data that is no string as its
    JSON), on one line, sanitized."""
    params = (message or {}).get("params")
    params = params if isinstance(params, dict) else {}
    level = one_line(str(params.get("level", "?")), 20)
    data = params.get("data")
    logger = params.get("logger")
    text = Text(indent)
    text.append(f"log {level}: ", style=LOG_STYLE.get(level, "red"))
    if isinstance(logger, str):
        text.append(f"{one_line(logger, 60)}: ", style="dim")
    text.append(one_line(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), 300))
    return text


FINDING_MARK: Final = {"error": "✗", "warning": "⚠", "info": "ℹ"}
FINDING_STYLE: Final = {"error": "red", "warning": "yellow", "info": "cyan"}


def finding_line(found: Finding, indent: str = "  ") -> Text:
    """A finding: severity mark, code, message."""
    mark = FINDING_MARK[found.severity]
    style = FINDING_STYLE[found.severity]
    text = Text(indent)
    text.append(f"{mark} {found.code}: ", style=style)
    text.append(one_line(found.message, None))
    return text


def fold_lines(found: KeptFindings[Finding], indent: str = "  ", *, where: str = "") -> list[Text]:
    """After the kept findings, a line for each code some of whose findings were let go (a flood): how many came,
    the first shown (``KeptFindings.said``), ``where`` they were raised (`` in this session``)."""
    lines: list[Text] = []
    for code in found.folded():
        first = next((f for f in found if found.counted_as(f.code) == code), None)
        severity = first.severity if first is not None else "warning"
        text = Text(indent)
        text.append(
            f"{FINDING_MARK[severity]} {one_line(found.said(code, where), None)}", style=FINDING_STYLE[severity]
        )
        text.append(": the recording has what raised every one", style="dim")
        lines.append(text)
    return lines


def call_block(call: Call, timeline: Timeline | None = None, leave_out: str = "") -> RenderableType:
    """A call: its header line (the server's time and the wait for answers apart), its rounds, its findings and
    the gist of its result; ``timeline`` tells which round includes the server's start-up. ``leave_out``: what
    the caller says itself after the block (its ``error:`` line), left out of the block so it is said once."""
    head = Text(f"#{call.index} ", style="bold")
    head.append(call.method, style="bold")
    if call.resends is not None:
        head.append(f" ↻ #{call.resends}", style="magenta")
    if call.name:
        head.append(" " + one_line(call.name, 60), style="bold cyan")
    head.append("  ")
    head.append(call.status, style=STATUS_STYLE.get(call.status, "red"))
    rounds = call.rounds_as_they_came()  # (a legacy server request before the reply it came ahead of)
    if call.cached is not None:  # (nothing was sent: no round, no time of anyone's)
        head.append(f"  {call.cached.said()}", style="dim")
    else:
        head.append(f"  {len(rounds)} round{'s' if len(rounds) != 1 else ''} · {call_times(call)}", style="dim")
    lines: list[RenderableType] = [head]
    if call.task is not None:
        task = Text(f"  task {one_line(call.task.task_id, 48)} · {call.task.summary()}", style="cyan")
        lines.append(task)
    if call.listen is not None:
        lines.extend(listen_lines(call.listen, call.started_at))
    if call.auth:
        lines.append(login_summary(call.auth, call.finished_at))
        lines.extend(steps_lines(call.auth, "    ", call.finished_at))
    times = {id(round_): split for round_, split in zip(call.rounds, call.round_times, strict=True)}
    for i, round_ in enumerate(rounds):
        note = STARTUP if timeline is not None and includes_startup(timeline, call, round_) else ""
        split = times[id(round_)]
        lines.extend(round_lines(round_, i == len(rounds) - 1, split, note, call.method))
    requests = call.server_requests
    if (
        requests.kept
    ):  # (more server requests than the rounds hold: how many came; --json has the newest, the recording every one)
        lines.append(Text(f"  {requests.said_for_call(requests.limit, 0)}{by_method(requests.by_method)}", style="dim"))
    lines.extend(finding_line(f) for f in call.findings if not (leave_out and f.message == leave_out))
    lines.extend(fold_lines(call.findings))
    said = {f.message for f in call.findings} | {leave_out}
    if call.status_detail and call.status != "complete" and call.status_detail not in said:
        lines.append(Text("  " + clean(call.status_detail), style=STATUS_STYLE.get(call.status, "red")))
    gist = result_gist(call.result)
    if gist is not None:
        lines.append(gist)
    return Group(*lines)


def listen_lines(span: ListenSpan, since: float, shown: int = 20) -> list[Text]:
    """A subscription: its summary, then its events (the last ``shown``, after how many came before them), each with
    its time from the call's start."""
    lines = [Text(f"  subscription · {span.summary()}", style="cyan")]
    events = span.events
    listed = events.newest(shown)
    if events.count > len(listed):
        more = f"    {events.said('event', len(listed))}{by_method(events.by_method)}"
        if events.left_out == 0:
            more += " (--json lists every one)"
        lines.append(Text(more, style="dim"))
    for event in listed:
        line = Text(f"    +{event.at - since:.3f}s ", style="dim")
        line.append(one_line(event_gist(event.message or {}), 120))
        lines.append(line)
    return lines


def result_gist(result: dict[str, Any] | None) -> Text | None:
    """The text content of a result (tool content, prompt messages, resource contents), shortened."""
    if not result or result.get("resultType") == "input_required":
        return None
    texts: list[str] = []
    for block in result.get("content", []) if isinstance(result.get("content"), list) else []:
        if isinstance(block, dict) and block.get("type") == "text":
            texts.append(str(block.get("text", "")))
    for message in result.get("messages", []) if isinstance(result.get("messages"), list) else []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, dict) and content.get("type") == "text":
            texts.append(f"{message.get('role')}: {content.get('text')}")
    for item in result.get("contents", []) if isinstance(result.get("contents"), list) else []:
        if isinstance(item, dict) and "text" in item:
            texts.append(str(item["text"]))
    if not texts:
        return None
    return Text("  ⇒ " + one_line(" | ".join(texts), 300), style="bold")


def print_timeline(
    console: Console, timeline: Timeline, *, calls: list[Call] | None = None, leave_out: str = ""
) -> None:
    """Print the session header and the given calls (all by default); ``leave_out`` (see ``call_block``)."""
    console.print(header(timeline))
    for call in calls if calls is not None else timeline.calls:
        console.print(call_block(call, timeline, leave_out))
    stray = [f for f in timeline.findings if f.call_index is None and f.code != "era"]
    for found in stray:
        console.print(finding_line(found, ""))
    for line in fold_lines(timeline.findings, "", where=" in this session"):
        console.print(line)
    rows = timeline.session
    if rows.left_out:  # (a server that asks without end while no call is in flight: how many came)
        console.print(Text(f"◆ session {rows.said('server request')}{by_method(rows.by_method)}", style="dim"))
    for wire in timeline.unmatched:  # the server's logs that came while no call was in flight: the session's
        if is_log(wire.message):
            console.print(log_line(wire.message, "◆ session "))
