"""What the detail pane shows, as lines: headings, plain text, and JSON pretty-printed, folded when large; a call's
result by content type (``content_blocks``: text, markdown, images, links, structured content), its JSON one key away.

Pure functions over the Timeline model. A JSON section longer than ``FOLD_LINES`` keeps its first lines and ends
with a fold line naming what is hidden; pretty-printing stops early when folded, so a 5 MB result costs what its
first screen costs until the user unfolds it. A line is plain text in its kind's style, or (``pieces``) made of
parts in named styles; a markdown text is one entry the pane lays out at its width (``markdown_lines``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Any, Final, Literal

from inspector.headless.render import STARTUP
from inspector.headless.time_words import CONSENT_NOTE, duration, said_times, waits
from inspector.protocol.caching import CACHEABLE_METHODS, CacheHints
from inspector.protocol.catalog_weight import ESTIMATED, item_weight, weighed, weight_said
from inspector.protocol.methods import CATALOG
from inspector.protocol.sanitize import clean
from inspector.session.timeline import INFERRED_OWNER
from inspector.ui.widgets.content_blocks import ResultDocument, ResultView, size_text
from inspector.ui.widgets.work_document import add_long_work

if TYPE_CHECKING:
    from rich.style import Style

    from inspector.session.http_info import HttpInfo
    from inspector.session.timeline import Call, Finding, Round, WireMessage

FOLD_LINES: Final = 200
LineKind = Literal["heading", "text", "json", "dim", "error", "finding", "fold", "label", "markdown"]
"""A line's style; ``label`` a content block's, ``markdown`` a whole markdown text (the pane lays it out)."""
Span = tuple[int, int, "str | Style"]
"""A styled part of a line: start, end, and a style name (a line kind or a JSON part) or a Rich style."""


@dataclass(slots=True)
class Document:
    """Lines of (kind, text); ``folded`` says whether any section was cut."""

    lines: list[tuple[LineKind, str]] = field(default_factory=list)
    folded: bool = False
    styled: dict[int, tuple[Span, ...]] = field(default_factory=dict)
    """Lines made of parts (``pieces``), by index: where each part is and its style's name."""
    links: list[str] = field(default_factory=list)
    """The resource links of the result shown, in order: key 1 reads the first."""
    views: set[str] = field(default_factory=set)
    """What the pane's view keys switch here: "json" (j: raw JSON or by content type), "markdown" (m)."""

    def add(self, kind: LineKind, text: str = "") -> None:
        """One line (text with newlines becomes several lines)."""
        for part in text.split("\n") or [""]:
            self.lines.append((kind, part))

    def pieces(self, kind: LineKind, *parts: tuple[str, str], visible: bool = False) -> None:
        """One line of parts, each (text, style name: a line kind or a JSON part, "" for the line's own); server text
        is made visible here, on one line, so each part's place in the line is where the pane draws it (unless
        ``visible``: the parts went through ``one_line`` already)."""
        # (plain strings and offsets, not Rich Text: an unfolded table makes a line a row, 120,000 of them)
        shown: list[str] = []
        spans: list[Span] = []
        at = 0
        for text, style in parts:
            part = text if visible else clean(text, keep_newlines=False)
            if style and part:
                spans.append((at, at + len(part), style))
            shown.append(part)
            at += len(part)
        self.styled[len(self.lines)] = tuple(spans)
        self.lines.append((kind, "".join(shown)))

    def ready(self, kind: LineKind, line: str, spans: tuple[Span, ...]) -> None:
        """One line made whole and visible already, with its styled spans (``pieces`` without the parts)."""
        self.styled[len(self.lines)] = spans
        self.lines.append((kind, line))

    def markdown(self, source: str) -> None:
        """A markdown text, one entry: the pane renders it at its width (``markdown_lines``)."""
        self.lines.append(("markdown", source))

    def heading(self, title: str) -> None:
        """A section heading."""
        if self.lines:
            self.lines.append(("text", ""))
        self.lines.append(("heading", f"─ {title} "))

    def json(self, value: Any, *, unfold: bool, raw_size: int | None = None) -> None:
        """``value`` pretty-printed; cut after ``FOLD_LINES`` lines unless ``unfold``."""
        chunks = json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(value)
        if unfold:
            self.add("json", "".join(chunks))
            return
        lines = _first_lines(chunks, FOLD_LINES + 1)
        if len(lines) <= FOLD_LINES:
            self.lines.extend(("json", line) for line in lines)
            return
        self.lines.extend(("json", line) for line in lines[:FOLD_LINES])
        size = f" of {size_text(raw_size)}" if raw_size is not None else ""
        self.lines.append(("fold", f"⋯ folded after {FOLD_LINES} lines{size} · press x to unfold"))
        self.folded = True

    def wire(self, message: WireMessage, *, unfold: bool) -> None:
        """A wire message: pretty JSON when it parsed, else its exact text."""
        size = len(message.raw.encode("utf-8", "surrogatepass"))
        if message.message is not None:
            self.json(message.message, unfold=unfold, raw_size=size)
        else:
            self.add("error", "not JSON-RPC; the exact text:")
            self.add("text", message.raw if unfold or size < 64_000 else message.raw[:64_000])
            if not unfold and size >= 64_000:
                self.lines.append(("fold", f"⋯ folded at 64 kB of {size_text(size)} · press x to unfold"))
                self.folded = True
        self.add("dim", f"{size:,} bytes on the wire")


def _first_lines(chunks: Any, count: int) -> list[str]:
    buffer: list[str] = []
    lines: list[str] = []
    for chunk in islice(chunks, 2_000_000):
        if "\n" in chunk:
            head, *rest = chunk.split("\n")
            buffer.append(head)
            lines.append("".join(buffer))
            buffer = []
            for part in rest[:-1]:
                lines.append(part)
            buffer.append(rest[-1])
            if len(lines) >= count:
                return lines[:count]
        else:
            buffer.append(chunk)
    lines.append("".join(buffer))
    return lines


def _http(doc: Document, http: HttpInfo | None, label: str) -> None:
    if http is None:
        return
    doc.heading(f"HTTP {label}")
    if http.method or http.url:
        doc.add("text", f"{http.method or ''} {http.url or ''}".strip())
    if http.status is not None:
        doc.add("error" if http.status >= 400 else "text", f"status {http.status}")
    for name, value in {**http.request_headers, **http.response_headers}.items():
        doc.add("dim", f"{name}: {value}")


def _findings(doc: Document, found: list[Finding]) -> None:
    if not found:
        return
    doc.heading(f"findings ({len(found)})")
    for finding in found:
        doc.add("finding", f"⚠ {finding.severity} {finding.code}: {finding.message}")
        if finding.hint:
            doc.add("dim", f"  {finding.hint}")


def item_document(kind: str, item: dict[str, Any]) -> Document:
    """A catalog item as the server listed it ("tool: get_weather", then its JSON)."""
    doc = Document()
    doc.add("heading", f"{kind[:-1]}: {item.get('name', item.get('uri', ''))}")
    if kind in CATALOG and weighed(kind):  # (what a host hands a model of it: seed 004's "Progressive Discovery")
        doc.add("dim", f"handed to a model: {weight_said(item_weight(kind, item))} ({ESTIMATED})")
    doc.json(item, unfold=False)
    return doc


def call_document(
    call: Call, *, unfold: bool = False, view: ResultView | None = None, tool: dict[str, Any] | None = None
) -> Document:
    """The detail of a call: what was asked, how it ended (its result by content type, or as ``view`` says), its
    findings. ``tool``: the tool called, as listed (its outputSchema; None: not listed)."""
    doc = Document()
    rounds = len(call.rounds)
    doc.add("heading", f"#{call.index} {call.method} {call.name or ''}".rstrip())
    times = said_times(call.times, call.ended)
    if call.total_ms is not None:
        times += f" · {duration(call.total_ms)} in all"
    if call.cached is not None:  # (nothing was sent: no round, no time of anyone's)
        doc.add("text", f"{call.status} · {call.cached.said()}")
    else:
        doc.add("text", f"{call.status} · {rounds} round{'s' if rounds != 1 else ''} · {times}")
    if call.status_detail:
        doc.add("error" if call.status != "complete" else "text", call.status_detail)
    if call.method in CACHEABLE_METHODS and call.error is None and call.result is not None:
        doc.add("dim", cache_hints(call).describe())
    add_long_work(doc, call)
    doc.heading("params")
    doc.json(call.params, unfold=unfold)
    if call.error is not None:
        doc.heading("error")
        doc.json(call.error, unfold=unfold)
    elif call.result is not None:
        title = "result" if call.finished_at is not None else "last response so far"
        final = call.final_round
        raw = final.response.raw if final is not None and final.response is not None else ""
        size = len(raw.encode("utf-8", "surrogatepass"))
        rendered = ResultDocument(doc, view or ResultView(), unfold=unfold)
        if not rendered.write(call.method, call.result, title, raw_size=size, tool=tool):
            doc.heading(title)
            doc.json(call.result, unfold=unfold, raw_size=size)
    _findings(doc, call.all_findings())
    return doc


def cache_hints(call: Call) -> CacheHints:
    """The caching hints of a list or ``resources/read`` call, as ``inspector list`` and ``inspector read`` print
    them: over every page a list took (the shortest ttl, private if any page is), from its complete results."""
    if call.cached is not None:
        return call.cached.hints
    pages = [r.result for r in call.rounds if r.kind == "request" and r.result_type == "complete"]
    return CacheHints.of_pages(page for page in pages if page is not None)


def round_document(call: Call, round_: Round, *, unfold: bool = False, startup: bool = False) -> Document:
    """The detail of a round: its times, exact request and response, HTTP, input requests, answers, notifications,
    findings. ``startup``: its time includes the server's start-up (the first request over stdio)."""
    doc = Document()
    kind = "server request" if round_.kind == "server-request" else "round"
    previous = call.rounds[round_.index - 2].request_id if round_.index > 1 else None
    ids = (
        f"id {previous} → id {round_.request_id}"
        if previous is not None and round_.kind == "request"
        else f"id {round_.request_id}"
    )
    doc.add("heading", f"#{call.index} {kind} {round_.index} · {ids}")
    split = call.round_times[call.rounds.index(round_)]
    # A login that waited on the person happened while the request was open; answers are waited for after its reply.
    consent = any(step.round_index == round_.index and step.outcome == "waiting" for step in call.auth)
    if round_.kind == "server-request":
        wait = waits(split)
        times = f"answered after {wait}" if wait else "waiting for the answer"
    else:
        times = said_times(split, call.ended, then=not consent)
    # (a round of an ended call that got no reply is not pending: its times say "no reply", once)
    came = round_.result_type or ("" if call.ended else "pending")
    doc.add("text", f"{round_.method} → {came + ' · ' if came else ''}{times}")
    if consent and split.person_ms is not None:
        doc.add("dim", CONSENT_NOTE)
    if startup:
        doc.add("dim", f"This time {STARTUP}: the first request over stdio waits until the process reads it.")
    if round_.inferred_owner:
        doc.add("dim", f"This request was {INFERRED_OWNER}.")
    doc.heading("request (client → server)" if round_.kind == "request" else "request (server → client)")
    doc.wire(round_.request, unfold=unfold)
    _http(doc, round_.request.http, "request")
    doc.heading("response")
    if round_.response is None:
        doc.add("dim", "no response yet")
    else:
        doc.wire(round_.response, unfold=unfold)
        _http(doc, round_.response.http, "response")
    if round_.input_requests:
        doc.heading(f"input requests ({len(round_.input_requests)})")
        for key, request in round_.input_requests.items():
            doc.add("text", f"{key or '(legacy request)'}: {request.get('method', '?')}")
    if round_.answers:
        doc.heading("answers given")
        for answer in round_.answers:
            doc.add("text", f"{answer.key or '(legacy request)'} · from {answer.source}")
            doc.json(answer.response, unfold=unfold)
    notes = round_.notifications
    if notes:
        doc.heading(f"notifications ({notes.count:,}{f', the last {len(notes.kept)} shown' if notes.left_out else ''})")
        if notes.left_out:  # (a flood: the round keeps the newest; the recording has every one)
            counted = ", ".join(f"{method} {n:,}" for method, n in notes.by_method.items())
            doc.add("dim", f"{notes.left_out:,} earlier ones are in the recording · {counted}")
        for note in notes:
            doc.add("dim", note.raw if len(note.raw) < 2000 else note.raw[:2000] + "…")
    _findings(doc, round_.findings.kept)
    return doc
