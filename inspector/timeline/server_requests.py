"""What the timeline keeps in memory of a legacy server's requests to the client, which can come without end.

A 2025 server may send ``ping``, ``roots/list``, ``elicitation/create`` or ``sampling/createMessage`` without end:
during one call each was a round of the call, with no call in flight a session row, and 50,000 of each held about
500 MB. Every one is still answered and recorded (the ``SessionLog`` writes each record before the builder applies
it); in memory a call keeps its first ``KEPT_SERVER_REQUESTS`` as rounds (what a person reads: the requests that
began the exchange) and the newest ones here, the session its newest rows, and both count every one by method, so
every face says how many came. A replay builds the same counts, the builder being their one writer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Protocol, TypeVar

from inspector.timeline.recent_events import Recent, count_method

KEPT_SERVER_REQUESTS: Final = 100
"""How many of a call's server requests stay rounds of it (the first), how many more are kept (the newest), and how
many session rows are kept (the newest). An elicitation-heavy tool asks a handful; 100 of each end is more than a
person reads and a fixed cost (a kept round with its reply is a few kB), where 200,000 pings otherwise fill the
memory. The recording keeps every one."""


class Asked(Protocol):
    """A server request as the timeline keeps it (``timeline.Round``): its method."""

    @property
    def method(self) -> str: ...


Request = TypeVar("Request", bound=Asked)


@dataclass(slots=True)
class ServerRequests(Recent[Request]):
    """Server requests counted (by method too), the newest ``limit`` kept: a call's past its first rounds, or the
    session's rows. Iterating gives the kept ones, oldest first."""

    limit: int = KEPT_SERVER_REQUESTS
    by_method: dict[str, int] = field(default_factory=dict)
    """How many came of each method (``METHODS_COUNTED`` names at most, then ``OTHER_METHODS``)."""

    def counted(self, method: str) -> None:
        """One more came, kept elsewhere (a call's first ones are its rounds): counted only."""
        self.count += 1
        count_method(self.by_method, method)

    def append(self, item: Request) -> None:
        """One more came: counted by its method, and kept in place of the oldest when ``limit`` are kept."""
        self.counted(item.method)
        self.keep().append(item)

    def clear(self) -> None:
        """Forget every one, counts too."""
        self.count = 0
        self.kept.clear()
        self.by_method.clear()

    def __len__(self) -> int:
        return len(self.kept)

    def said_for_call(self, first: int, last: int | None = None) -> str:
        """How many came to a call whose rounds hold the ``first`` of them, ``last`` of the newest kept shown too
        (default: all kept): ``200,000 server requests (first 100 and last 100 shown)``, ``3 server requests``."""
        words = f"{self.count:,} server request{'s' if self.count != 1 else ''}"
        shown_last = len(self.kept) if last is None else min(last, len(self.kept))
        if first + shown_last >= self.count:
            return words
        return (
            f"{words} (first {first:,} shown)"
            if not shown_last
            else f"{words} (first {first:,} and last {shown_last:,} shown)"
        )


def session_requests() -> ServerRequests[Request]:
    """The session's rows (server requests of no call), as the timeline keeps them."""
    return ServerRequests(KEPT_SERVER_REQUESTS)
