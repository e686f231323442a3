"""The detail of a session row (a server request during no call): the exact request, our reply, the answer."""

from __future__ import annotations

from inspector.timeline.model import Round
from inspector.timeline.wording import duration, waits
from inspector.ui.detail.lines import Document
from inspector.ui.widgets.session_rows import outcome


def session_document(round_: Round, *, unfold: bool = False) -> Document:
    """The detail of a session row: what it is, the exact request and our reply, the answer and who gave it."""
    doc = Document()
    doc.add("heading", f"session · server request id {round_.request_id} {round_.method}")
    said, style = outcome(round_)
    # The answer above names who gave it; its time is told apart only when it was more than one's (the person
    # reading the dialog, then the stub model writing the reply).
    split = round_.reply_times
    several = sum(ms is not None for ms in (split.person_ms, split.model_ms, split.client_ms)) > 1
    took = waits(split) if several else duration(round_.latency_ms) if round_.latency_ms is not None else ""
    wait = f" · after {took}" if took else ""
    doc.add("error" if style == "error" else "text", f"{said}{wait}")
    doc.add("dim", "A request of the server's own, during no call: a row of the session, never a round of a call.")
    doc.heading("request (server → client)")
    doc.wire(round_.request, unfold=unfold)
    doc.heading("our reply")
    if round_.response is None:
        doc.add("dim", "not replied yet")
    else:
        doc.wire(round_.response, unfold=unfold)
    for answer in round_.answers:
        doc.heading(f"answer · from {answer.source}")
        doc.json(answer.response, unfold=unfold)
    return doc
