"""What the detail pane shows for a call, a round or a catalog item, as ``lines.Document`` lines: headings, plain
text, the wire's JSON, a call's result by content type (``content_blocks``: text, markdown, images, links,
structured content) with its JSON one key away, its long work and its findings. Pure functions over the Timeline
model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspector.protocol.caching import CACHEABLE_METHODS, CacheHints
from inspector.protocol.catalog_weight import ESTIMATED, item_weight, weighed, weight_said
from inspector.protocol.methods import CATALOG
from inspector.timeline.model import INFERRED_OWNER
from inspector.timeline.wording import CONSENT_NOTE, STARTUP, duration, said_times, waits
from inspector.ui.detail.content_blocks import ResultDocument, ResultView
from inspector.ui.detail.lines import Document
from inspector.ui.detail.work_document import add_long_work

if TYPE_CHECKING:
    from inspector.timeline.http_info import HttpInfo
    from inspector.timeline.model import Call, Finding, Round


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
