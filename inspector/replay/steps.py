"""Step mode: the recording walked message by message, with the time since the session started and the gap since
the previous message, for demos of MRTR flows (``inspector replay FILE --step``).

Each wire message is one step (what it is, in a line, then its exact text shortened); session events (a call
started, an answer given, a call ended) are printed between steps without a step of their own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.text import Text

from inspector.protocol.caching import age_words
from inspector.protocol.json_values import json_number
from inspector.protocol.jsonrpc import WireParse, classify
from inspector.protocol.sanitize import one_line
from inspector.timeline.build.builder import TimelineBuilder
from inspector.timeline.model import Call, CallFinished
from inspector.timeline.records import Record, raw_text

RAW_WIDTH = 200


@dataclass(frozen=True, slots=True)
class Step:
    """One line of the walk: when, the gap since the previous message, what, and the raw text for messages."""

    at: float
    gap: float | None
    """Seconds since the previous wire message (None for events and the first message)."""
    text: Text
    raw: str | None = None

    @property
    def is_message(self) -> bool:
        """A wire message (a step to wait on) rather than an event line."""
        return self.raw is not None


def _params(message: dict[str, Any] | None) -> dict[str, Any]:
    params = message.get("params") if message is not None else None
    return params if isinstance(params, dict) else {}


def _append_mrtr(line: Text, keys: object, label: tuple[str, str], state: object, verb: str = "") -> None:
    """The MRTR half of a step: the input keys a message carries (asked by a result, answered by a retry), under
    ``label`` (its word and style), and the size of its ``requestState`` (``verb``: "echoes " on a retry)."""
    if isinstance(keys, dict) and keys:
        word, style = label
        line.append(f"  {word} " + ", ".join(one_line(str(k), 30) for k in keys), style=style)
    if isinstance(state, str):
        line.append(f"  {verb}requestState ({len(state)} chars)", style="yellow")


def _message(record: Record, names: dict[int, str]) -> Text:
    """A wire message's line: its direction, then what it is (a message that did not parse says why)."""
    parsed = classify(raw_text(record) or "")
    outgoing = record.get("dir") == "c2s"
    line = Text("→ ", style="bold cyan") if outgoing else Text("← ", style="bold green")
    if parsed.kind == "invalid":
        line.append(f"invalid message: {parsed.problem}", style="red")
    elif outgoing:
        _outgoing(line, parsed, record, names)
    else:
        _incoming(line, parsed)
    return line


def _outgoing(line: Text, parsed: WireParse, record: Record, names: dict[int, str]) -> None:
    call = record.get("call")
    where = f"#{call} " if isinstance(call, int) else ""
    if parsed.kind == "request":
        params = _params(parsed.message)
        line.append(f"{where}{parsed.method}", style="bold")
        name = names.get(call) if isinstance(call, int) else None
        if name:
            line.append(f" {one_line(name, 40)}", style="bold cyan")
        line.append(f" (id {parsed.id})", style="dim")
        _append_mrtr(line, params.get("inputResponses"), ("answers", "magenta"), params.get("requestState"), "echoes ")
    elif parsed.kind in ("response", "error"):
        line.append(f"{where}reply to server request id {parsed.id}", style="magenta")
    else:
        line.append(f"{where}{parsed.method}", style="dim")


def _incoming(line: Text, parsed: WireParse) -> None:
    message = parsed.message or {}
    if parsed.kind == "response":
        result = message.get("result") if isinstance(message.get("result"), dict) else {}
        assert isinstance(result, dict)
        kind = str(result.get("resultType", "complete"))
        line.append(f"id {parsed.id} ", style="dim")
        line.append(kind, style="magenta" if kind == "input_required" else "green")
        _append_mrtr(line, result.get("inputRequests"), ("asks", "bold magenta"), result.get("requestState"))
        if result.get("isError") is True:
            line.append("  isError", style="yellow")
    elif parsed.kind == "error":
        error = message.get("error") if isinstance(message.get("error"), dict) else {}
        assert isinstance(error, dict)
        line.append(f"id {parsed.id} error {error.get('code')} ", style="red")
        line.append(one_line(str(error.get("message", "")), 80))
    elif parsed.kind == "notification":
        params = _params(parsed.message)
        line.append(str(parsed.method), style="dim")
        if parsed.method == "notifications/progress":
            line.append(f" {params.get('progress')}/{params.get('total', '?')}", style="dim")
    else:
        line.append(f"server request {parsed.method} (id {parsed.id})", style="bold magenta")


def _event(record: Record, names: dict[int, str]) -> Text | None:
    name = record.get("event")
    call = record.get("call")
    where = f"#{call} " if isinstance(call, int) else ""
    if name == "call":
        label = f"{record.get('method')}" + (f" {names[call]}" if isinstance(call, int) and call in names else "")
        return Text(f"  ┌ {where}{one_line(label, 80)}", style="bold")
    if name == "answer":
        key = record.get("key")
        text = Text("  │ answered ", style="magenta")
        text.append(f"{one_line(str(key), 40)}: " if key is not None else "")
        text.append(one_line(json.dumps(record.get("response"), ensure_ascii=False), 80))
        text.append(f" ({one_line(str(record.get('source', '')), 30)})", style="dim")
        return text
    if name == "era":
        return Text(f"  era {record.get('era')} {record.get('version')}: {one_line(str(record.get('why', '')), 100)}")
    if name == "finding":
        return Text(f"  ⚠ {record.get('code')}: {one_line(str(record.get('message', '')), 120)}", style="yellow")
    if name == "fault":
        return Text(f"  ✗ transport: {one_line(str(record.get('message', '')), 120)}", style="red")
    if name == "closed":
        return Text(f"  connection closed: {one_line(str(record.get('reason', '')), 100)}", style="dim")
    if name == "instance":
        return Text(f"  │ to instance {one_line(str(record.get('instance', '')), 20)}", style="dim")
    if name == "cached":
        return Text(f"  │ {age_words(json_number(record.get('age_ms')) or 0.0)} (no request sent)", style="dim")
    return None


def steps(records: list[Record]) -> Iterator[Step]:
    """The walk, in recorded order; a call's end is shown when the timeline builder sees it end (from the wire or
    from an end record), so it reads exactly as the timeline does."""
    names: dict[int, str] = {}
    previous: float | None = None
    builder = TimelineBuilder()
    finished: list[Call] = []
    builder.timeline.subscribe(lambda event: finished.append(event.call) if isinstance(event, CallFinished) else None)
    for record in records:
        yield from _walk(record, names, previous)
        if record.get("dir") in ("c2s", "s2c"):
            previous = float(record.get("t", 0.0))
        builder.apply(record)
        for call in finished:
            yield Step(float(record.get("t", 0.0)), None, Text(f"  └ #{call.index} {call.status}", style="bold"))
        finished.clear()


def _walk(record: Record, names: dict[int, str], previous: float | None) -> Iterator[Step]:
    """The step (at most one) that shows ``record``."""
    at = float(record.get("t", 0.0))
    direction = record.get("dir")
    if direction == "event":
        if record.get("event") == "call" and isinstance(record.get("call"), int):
            params = record.get("params") if isinstance(record.get("params"), dict) else {}
            assert isinstance(params, dict)
            label = params.get("name", params.get("uri"))
            if isinstance(label, str):
                names[record["call"]] = label
        text = _event(record, names)
        if text is not None:
            yield Step(at, None, text)
        return
    if direction == "stderr":
        yield Step(at, None, Text("  stderr: ", style="dim") + Text(one_line((raw_text(record) or ""), 160)))
        return
    if direction == "auth":  # a step of a login: no JSON-RPC message, a line of its own
        http = record.get("http") if isinstance(record.get("http"), dict) else {}
        assert isinstance(http, dict)
        exchange = (
            f"{http.get('method', '')} {http.get('url', '')} → {http.get('status', 'no answer')} " if http else ""
        )
        said = f"  login {record.get('step', '')} ({record.get('outcome', '')}): {exchange}{record.get('what', '')}"
        yield Step(at, None, Text(one_line(said, 240), style="cyan"))
        return
    text = _message(record, names)
    yield Step(at, None if previous is None else at - previous, text, (raw_text(record) or ""))


def print_steps(console: Console, records: list[Record], wait: Callable[[], object] | None = None) -> int:
    """Print the walk; ``wait`` (e.g. ``input``) is called before every message after the first. Returns messages."""
    shown = 0
    for step in steps(records):
        if step.is_message and shown and wait is not None:
            wait()
        clock = Text(f"{step.at:9.3f}s ", style="dim")
        if step.is_message:
            gap = step.gap or 0.0
            clock.append(f"+{gap * 1000:8.1f}ms ", style="bold yellow" if gap >= 0.5 else "dim")
            shown += 1
        else:
            clock.append(" " * 12)
        console.print(clock + step.text)
        if step.raw is not None:
            width = max(40, min(RAW_WIDTH, console.width - 24))
            console.print(Text(" " * 23 + one_line(step.raw, width), style="dim"), no_wrap=True, overflow="ellipsis")
    return shown
