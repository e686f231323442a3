"""The one bridge from the session's Timeline to Textual: timeline events become messages named in the past tense.

The timeline calls its listeners synchronously, from whatever task changed it. The session runs in workers on the
app's own event loop, so messages are posted directly; an event from another thread goes through
``app.call_from_thread``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

from inspector.session.timeline import Call, ConsoleLine, Finding, Round, Timeline
from inspector.session.timeline_events import (
    CallFinished,
    CallStarted,
    ConsoleAppended,
    FindingRaised,
    RoundStarted,
    RoundUpdated,
    SessionChanged,
    SessionRowChanged,
    TimelineEvent,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.message_pump import MessagePump


# The messages are dataclasses, as Textual's own are: each one's fields are what its constructor takes.
@dataclass
class TimelineChanged(Message):
    """Base of every bridge message: something on the timeline changed."""

    timeline: Timeline
    """The timeline that changed."""


@dataclass
class CallChanged(TimelineChanged):
    """Something happened to one call: it started or ended, or one of its rounds changed."""

    call: Call
    """The call (new, changed or ended)."""


class CallWasStarted(CallChanged):
    """A call was added to the timeline."""


class CallWasFinished(CallChanged):
    """A call ended (any status)."""


@dataclass
class RoundChanged(CallChanged):
    """Something happened to one round of a call."""

    round: Round
    """The round (new or changed)."""


class RoundWasStarted(RoundChanged):
    """A round (our request, or a legacy server request) was added to a call."""


class RoundWasUpdated(RoundChanged):
    """A round changed: response, answer, notification or finding."""


@dataclass
class ConsoleWasAppended(TimelineChanged):
    """A console line arrived (stderr, log notification, transport note)."""

    line: ConsoleLine
    """The new line."""


@dataclass
class FindingWasRaised(TimelineChanged):
    """A finding was raised."""

    finding: Finding
    """The new finding."""


class SessionWasChanged(TimelineChanged):
    """Era, server info or connection state changed."""


@dataclass
class SessionRowWasChanged(TimelineChanged):
    """A server request of no call (a session row) arrived, was answered, or got our reply."""

    round: Round
    """The session row (``Timeline.session``)."""


def to_message(timeline: Timeline, event: TimelineEvent) -> TimelineChanged:
    """The Textual message for one timeline event."""
    if isinstance(event, CallStarted):
        return CallWasStarted(timeline, event.call)
    if isinstance(event, RoundStarted):
        return RoundWasStarted(timeline, event.call, event.round)
    if isinstance(event, RoundUpdated):
        return RoundWasUpdated(timeline, event.call, event.round)
    if isinstance(event, CallFinished):
        return CallWasFinished(timeline, event.call)
    if isinstance(event, ConsoleAppended):
        return ConsoleWasAppended(timeline, event.line)
    if isinstance(event, FindingRaised):
        return FindingWasRaised(timeline, event.finding)
    if isinstance(event, SessionRowChanged):
        return SessionRowWasChanged(timeline, event.round)
    assert isinstance(event, SessionChanged)
    return SessionWasChanged(timeline)


class TimelineBridge:
    """Subscribes to a timeline and posts each event to ``target`` as a message. ``close`` unsubscribes."""

    def __init__(self, timeline: Timeline, target: MessagePump) -> None:
        self.timeline = timeline
        self.target = target
        self._thread = threading.get_ident()
        self._unsubscribe: Callable[[], None] | None = timeline.subscribe(self._on_event)

    def _on_event(self, event: TimelineEvent) -> None:
        message = to_message(self.timeline, event)
        if threading.get_ident() == self._thread:
            self.target.post_message(message)
        else:
            self.target.app.call_from_thread(self.target.post_message, message)

    def close(self) -> None:
        """Stop posting."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
