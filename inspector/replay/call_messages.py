"""Every message of one recorded call, read back from its recording: what ``inspector export --as json`` exports.

The timeline keeps a round's newest ``KEPT_EVENTS`` notifications (``session.recent_events``): a flood must not fill
the memory. An export of a call's messages is the call as it crossed the wire, so it cannot be built from what the
timeline kept: ``CallMessages`` listens to the timeline while the recording's records are applied again and takes
each notification as the builder puts it on one of the call's rounds (the builder decides where a notification
belongs, exactly as it did live), so the export has every one the recording holds. Where no recording is at hand
(the TUI's export of a live session), ``left_out_note`` says how many the export lacks and where to get them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.timeline.model import RoundUpdated
from inspector.timeline.recent_events import KEPT_EVENTS

if TYPE_CHECKING:
    from inspector.timeline.model import Call, Timeline, TimelineEvent
    from inspector.timeline.wire import WireMessage


class CallMessages:
    """Hears a timeline being built (``heard``, a ``TimelineListener``) and keeps every notification put on the
    rounds of call #``index``; ``messages`` is then the whole call, both directions, in wire order."""

    def __init__(self, index: int) -> None:
        self.index = index
        self._notes: dict[int, list[WireMessage]] = {}
        """Round index -> every notification put on it, in the order they came."""

    def heard(self, event: TimelineEvent) -> None:
        """A timeline event: when it is a round of the call that got a notification, the new one is taken (the
        builder announces each notification it appends, so at most one is new; ``since`` gives what is)."""
        if not isinstance(event, RoundUpdated) or event.call.index != self.index:
            return
        notes = event.round.notifications
        taken = self._notes.setdefault(event.round.index, [])
        if notes.count > len(taken):
            taken.extend(notes.since(len(taken)))

    def messages(self, timeline: Timeline) -> list[WireMessage] | None:
        """Every message of the call in ``timeline`` (the one heard being built), in the order it crossed the wire:
        each round's request, every notification heard for it, its response. None when it has no such call."""
        call = timeline.call(self.index)
        if call is None:
            return None
        found: list[WireMessage] = []
        for round_ in call.rounds:
            found.append(round_.request)
            found.extend(self._notes.get(round_.index, round_.notifications))
            if round_.response is not None:
                found.append(round_.response)
        return sorted(found, key=lambda message: message.at)


def left_out_note(call: Call) -> list[str]:
    """What an export of ``call`` built from its timeline alone lacks, as the export's first item (a JSON string
    among the messages, as an unparsable message is): empty when the timeline kept every notification."""
    left_out = sum(round_.notifications.left_out for round_ in call.rounds)
    if not left_out:
        return []
    came = sum(round_.notifications.count for round_ in call.rounds)
    return [
        f"inspector: {left_out:,} of this call's {came:,} notifications are not in this export: the timeline keeps "
        f"the newest {KEPT_EVENTS} of a round; the recording has every one, and `inspector export RECORDING --call "
        f"{call.index} --as json` exports them all"
    ]
