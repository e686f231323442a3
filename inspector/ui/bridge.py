"""The one bridge from the session's Timeline to Textual: every timeline event becomes one message that carries it.

The timeline calls its listeners synchronously, from whatever task changed it; the session runs in workers on the
app's own event loop, so the message is posted directly. A receiver reads ``message.event`` (one of the model's
``TimelineEvent`` classes) and matches on what it cares for: one message class, not a mirror of each event.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from inspector.timeline.model import Timeline, TimelineEvent

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.message_pump import MessagePump


@dataclass
class TimelineChanged(Message):
    """Something changed on ``timeline``: ``event`` says what (a call started or ended, a round, a console line, a
    finding, a session row, the session itself)."""

    timeline: Timeline
    event: TimelineEvent


class TimelineBridge:
    """Subscribes to a timeline and posts each event to ``target`` as a ``TimelineChanged``. ``close`` unsubscribes."""

    def __init__(self, timeline: Timeline, target: MessagePump) -> None:
        self.timeline = timeline
        self.target = target
        self._unsubscribe: Callable[[], None] | None = timeline.subscribe(self._on_event)

    def _on_event(self, event: TimelineEvent) -> None:
        self.target.post_message(TimelineChanged(self.timeline, event))

    def close(self) -> None:
        """Stop posting."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
