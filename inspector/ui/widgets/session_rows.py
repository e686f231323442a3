"""Session rows: the server's requests that belong to no call (``Timeline.session``; server-everything's
``roots/list`` right after ``initialize``), on the timeline as rows of their own among the calls, by the time they
came. They never change a call's status: they are not one of its rounds. Pure functions (tested without a screen).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from inspector.timeline.wording import answer_summary
from inspector.ui.safe_text import one_line

if TYPE_CHECKING:
    from rich.style import Style

    from inspector.timeline.model import Round, Timeline


def session_round(timeline: Timeline, index: int) -> Round | None:
    """Session row ``index`` (1-based)."""
    # (the newest rows are kept, so a row's place is not its index once a flood has pushed the oldest out)
    return next((round_ for round_ in reversed(timeline.session) if round_.index == index), None)


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
