"""The events the Timeline announces to its listeners as the builder writes it (the UI bridge turns them into
Textual messages named in the past tense; the headless progress lines and the replay stepper read them too)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.session.timeline import Call, ConsoleLine, Finding, Round


@dataclass(frozen=True, slots=True)
class CallStarted:
    call: Call


@dataclass(frozen=True, slots=True)
class RoundStarted:
    call: Call
    round: Round


@dataclass(frozen=True, slots=True)
class RoundUpdated:
    """A round changed: its response arrived, an answer was given, a notification or finding was added."""

    call: Call
    round: Round


@dataclass(frozen=True, slots=True)
class CallFinished:
    call: Call


@dataclass(frozen=True, slots=True)
class ConsoleAppended:
    line: ConsoleLine


@dataclass(frozen=True, slots=True)
class FindingRaised:
    finding: Finding


@dataclass(frozen=True, slots=True)
class SessionChanged:
    """Era, server info or connection state changed."""


@dataclass(frozen=True, slots=True)
class SessionRowChanged:
    """A server request that belongs to no call arrived, was answered, or got our reply (``Timeline.session``)."""

    round: Round


TimelineEvent = (
    CallStarted
    | RoundStarted
    | RoundUpdated
    | CallFinished
    | ConsoleAppended
    | FindingRaised
    | SessionChanged
    | SessionRowChanged
)
TimelineListener = Callable[[TimelineEvent], None]
