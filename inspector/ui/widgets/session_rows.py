"""Session rows: the server's requests that belong to no call (``Timeline.session``; server-everything's
``roots/list`` right after ``initialize``), on the timeline as rows of their own among the calls, by the time they
came. They never change a call's status: they are not one of its rounds. Pure functions (tested without a screen).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from inspector.headless.render import answer_summary
from inspector.headless.time_words import duration, waits
from inspector.ui.safe_text import one_line
from inspector.ui.widgets.document import Document

if TYPE_CHECKING:
    from rich.style import Style

    from inspector.session.timeline import Round, Timeline


def session_round(timeline: Timeline, index: int) -> Round | None:
    """Session row ``index`` (1-based)."""
    return timeline.session[index - 1] if 1 <= index <= len(timeline.session) else None


def outcome(round_: Round) -> tuple[str, str]:
    """What became of the request (our answer, our refusal, or the wait), with its style name."""
    if round_.answers:
        answer = round_.answers[-1]
        return f"answered {answer_summary(answer.response)} ({answer.source})", "response"
    message = round_.response.message if round_.response is not None else None
    error = message.get("error") if isinstance(message, dict) else None
    if isinstance(error, dict):
        return f"refused {error.get('code')} {error.get('message', '')}", "error"
    if round_.response is not None:
        return "replied", "response"
    return "waiting for an answer", "pending"


def render_session_row(round_: Round, width: int, palette: dict[str, Style]) -> Text:
    """The line of a session row: what the server asked, and what became of it."""
    line = Text("◆ ", palette["dim"], no_wrap=True, end="")
    line.append("session ", palette["dim"])
    line.append(
        f"← server request id {one_line(str(round_.request_id), 20)} {one_line(round_.method, 40)}",
        palette["input-required"],
    )
    said, style = outcome(round_)
    line.append(f"  {one_line(said, 200)}", palette[style])
    line.truncate(width, overflow="ellipsis", pad=True)
    return line


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
