"""What the detail pane and the requestState panel show for the highlighted call or round (pure: no textual).

A round shows its exchange and its own requestState; a call shows its summary and the requestState of its last round
that carried one; a resent call also compares its result with the call it resent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.timeline.wording import includes_startup
from inspector.ui.composer.resend import add_comparison
from inspector.ui.detail.call_document import call_document, round_document
from inspector.ui.detail.content_blocks import ResultView, listed_tool
from inspector.ui.detail.lines import Document
from inspector.ui.detail.session_document import session_document
from inspector.ui.widgets.session_rows import session_round

if TYPE_CHECKING:
    from inspector.timeline.model import Call, RequestState, Timeline


@dataclass(frozen=True, slots=True)
class Selection:
    """The highlighted call (and round, 0 for the call row), its document, and the requestState panel's contents."""

    call: Call | None
    """The call (None: a session row, which belongs to no call)."""
    round: int
    document: Document
    where: str
    """The requestState panel's label ("#6 round 2")."""
    state: RequestState | None


def selection(
    timeline: Timeline, call_index: int, round_index: int, *, unfold: bool, view: ResultView | None = None
) -> Selection | None:
    """What to show for ``(call_index, round_index)`` (None when there is no such call; call 0: session row
    ``round_index``); a resent call's detail ends with the comparison with the call it resent. A call's result shows
    as ``view`` says (by content type, beside the tool's outputSchema as listed; or its raw JSON)."""
    if call_index == 0:
        row = session_round(timeline, round_index)
        if row is None:
            return None
        return Selection(None, round_index, session_document(row, unfold=unfold), f"session {round_index}", None)
    call = timeline.call(call_index)
    if call is None:
        return None
    if round_index and round_index <= len(call.rounds):
        round_ = call.rounds[round_index - 1]
        doc = round_document(call, round_, unfold=unfold, startup=includes_startup(timeline, call, round_))
        return Selection(call, round_index, doc, f"#{call_index} round {round_index}", round_.request_state)
    tool = listed_tool(timeline, call.name) if call.method == "tools/call" and call.name is not None else None
    doc = call_document(call, unfold=unfold, view=view, tool=tool)
    old = timeline.call(call.resends) if call.resends is not None else None
    if old is not None:
        add_comparison(doc, old, call)
    with_state = [r for r in call.rounds if r.request_state is not None]
    if with_state:
        return Selection(call, 0, doc, f"#{call_index} round {with_state[-1].index}", with_state[-1].request_state)
    return Selection(call, 0, doc, f"#{call_index}", None)
