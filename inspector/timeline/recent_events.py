"""What the timeline keeps in memory of what can come without end: how many came and the newest of them.

A server can send without end: a progress storm on one call, a subscription flooded with ``resources/updated``, its
logs or stderr lines. Kept whole, 240,000 notifications on one call held 467 MB, and a listen grew 13 MB a second.
The recording has every one (the ``SessionLog`` writes each record to the file before the builder applies it), so
the timeline keeps counts and the newest few: a round's notifications and a subscription's events (``RecentEvents``,
counted by method too), the session's console lines and its messages of no call (``Recent``). A replay of the
recording builds the same counts and the same newest ones, and every face says how many there were (``said``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Any, Final, Generic, Protocol, TypeVar

from inspector.protocol.jsonrpc import JsonObject

if TYPE_CHECKING:
    from collections.abc import Iterator

KEPT_EVENTS: Final = 100
"""How many of a round's notifications (or a subscription's events) stay in memory, the newest. Enough for what a
person reads of one call (the TUI's detail lists them, the printer the logs among them, the latest progress is the
newest); a flood of 240,000 then costs 100 messages instead of 467 MB. The recording keeps every one."""
KEPT_LINES: Final = 2000
"""How many console lines (stderr, logs, transport notes) and messages of no call the session keeps, the newest:
more than a console pane is scrolled back through, and a server that logs without end costs a fixed amount."""
METHODS_COUNTED: Final = 32
"""How many different methods are counted by name; past them, the rest are counted together under
``OTHER_METHODS``: a server that makes up a new method for every message must not grow the table of counts."""
OTHER_METHODS: Final = "(other methods)"
NO_METHOD: Final = "(no method)"
"""The count of messages that carry no method name (a notification that did not parse as one)."""

Item = TypeVar("Item")

NONE_KEPT: Final[deque[Any]] = deque(maxlen=0)
"""What a ``Recent`` keeps before its first item: one shared empty deque that can hold nothing (an append to it
by mistake keeps nothing, so it stays empty for every holder)."""


@dataclass(slots=True)
class Recent(Generic[Item]):
    """Every item counted, the newest ``limit`` kept. Iterating (and indexing: ``[-1]`` the newest) gives the kept
    ones, oldest first; ``count`` says how many came."""

    limit: int = KEPT_EVENTS
    count: int = 0
    """How many came, kept or not."""
    kept: deque[Item] = field(init=False, default_factory=lambda: NONE_KEPT)
    """The newest ones, oldest first (``NONE_KEPT`` until the first comes: ``keep``; a deque compares by its items,
    so an empty one equals ``NONE_KEPT``)."""

    def keep(self) -> deque[Item]:
        """The deque the newest are kept in, made on the first one that comes.

        Why not in ``__init__``: every Round holds a ``RecentEvents`` and every Call a ``ServerRequests``, and most
        never get a single item (an echo call has no notifications, a 2026 call no server requests); a deque with
        a ``maxlen`` was the largest part of building them: 7,200 (3%) of a load call's instructions
        (``tests/perf/bench_instructions.py --as-load --concurrency 10``: see the README's perf table)."""
        kept = self.kept
        if kept is NONE_KEPT:
            kept = self.kept = deque(maxlen=self.limit)
        return kept

    def append(self, item: Item) -> None:
        """One more came: counted, and kept in place of the oldest when ``limit`` are kept already."""
        self.count += 1
        self.keep().append(item)

    def clear(self) -> None:
        """Forget every one, counts too (``BuildState.forget_ended``: a face that reads only outcomes)."""
        self.count = 0
        self.kept.clear()

    def __iter__(self) -> Iterator[Item]:
        return iter(self.kept)

    def __reversed__(self) -> Iterator[Item]:
        return reversed(self.kept)

    def __getitem__(self, position: int) -> Item:
        return self.kept[position]

    def __bool__(self) -> bool:
        return self.count > 0

    @property
    def left_out(self) -> int:
        """How many came and are no longer kept (the recording has them)."""
        return self.count - len(self.kept)

    def since(self, seen: int) -> list[Item]:
        """The ones that came after the first ``seen`` and are still kept: what a face that has shown ``seen`` of
        them shows next (those that came and went while it was not looking are only counted)."""
        return self.newest(self.count - seen)

    def newest(self, n: int) -> list[Item]:
        """The newest ``n`` kept, oldest first (walked from the newest end: a face asks for the one or two that just
        came, on every one that comes)."""
        if n <= 0:
            return []
        found = list(islice(reversed(self.kept), n))
        found.reverse()
        return found

    def said(self, noun: str, shown: int | None = None) -> str:
        """How many came, and how many are shown when not all are: ``240,000 notifications (last 100 shown)``,
        ``3 notifications``: the one wording of every face. ``shown``: how many the face shows (default: the kept)."""
        count = self.count
        listed = len(self.kept) if shown is None else min(shown, len(self.kept))
        words = f"{count:,} {noun}{'s' if count != 1 else ''}"
        return words if listed >= count else f"{words} (last {listed:,} shown)"


def count_method(counts: dict[str, int], name: str) -> None:
    """One more of ``name`` in ``counts``: at most ``METHODS_COUNTED`` names, the rest under ``OTHER_METHODS`` (a
    server that makes up a method a message cannot grow the counts without end)."""
    if name in counts:
        counts[name] += 1
    elif len(counts) < METHODS_COUNTED:
        counts[name] = 1
    else:
        counts[OTHER_METHODS] = counts.get(OTHER_METHODS, 0) + 1


def recent_lines() -> Recent[Item]:
    """A session's console lines or messages of no call, as the timeline keeps them (``KEPT_LINES``)."""
    return Recent(KEPT_LINES)


class Notified(Protocol):
    """A message as the timeline keeps it (``timeline.WireMessage``): its parsed form, when it parsed."""

    @property
    def message(self) -> JsonObject | None: ...


Event = TypeVar("Event", bound=Notified)


@dataclass(slots=True)
class RecentEvents(Recent[Event]):
    """A round's notifications or a subscription's events: ``Recent``, and how many came of each method."""

    by_method: dict[str, int] = field(default_factory=dict)
    """How many came of each method (``METHODS_COUNTED`` names at most, then ``OTHER_METHODS``)."""

    def append(self, item: Event) -> None:
        """One more came: counted (by its method too), and kept in place of the oldest when ``limit`` are kept."""
        self.count += 1
        method = item.message.get("method") if item.message is not None else None
        count_method(self.by_method, method if isinstance(method, str) else NO_METHOD)
        self.keep().append(item)

    def clear(self) -> None:
        """Forget every one, counts too."""
        self.count = 0
        self.kept.clear()
        self.by_method.clear()

    def of(self, method: str) -> int:
        """How many of ``method`` came (0 for one counted under ``OTHER_METHODS``)."""
        return self.by_method.get(method, 0)
