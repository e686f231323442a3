"""What the timeline keeps in memory of its findings: every one counted by code, the first few of each code kept.

A server can make the inspector raise a finding per message without end: a stdout flooded with lines that are not
JSON-RPC (``invalid-message``), responses to ids never sent (``unknown-response-id``), messages that are not UTF-8
(``invalid-utf8``). Kept whole, each is a few hundred bytes for as long as the session lasts, so a flood grows the
memory as fast as it comes. The recording has every message (and every finding record), and a replay of it raises
each finding again; the timeline keeps the first ``KEPT_PER_CODE`` of each code on each round, call and session,
counts every one by code, and every face says how many came (``said``: ``invalid-message ×200,000 (first 10
shown)``). The first are kept, not the newest (as ``recent_events`` does for notifications): the first of a kind is
the one that shows where it started.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Generic, Protocol, TypeVar, overload

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

KEPT_PER_CODE: Final = 10
"""How many findings of one code a round, a call or the session keeps, the first: enough to see what differs
between them (each names its id or quotes its line), and a flood of 200,000 then costs ten."""
CODES_COUNTED: Final = 64
"""How many different codes are counted by name (the catalog has about fifty); past them, the rest are counted
together under ``OTHER_CODES``: a crafted recording that makes up a code for every finding must not grow the
table of counts."""
OTHER_CODES: Final = "(other codes)"


class Coded(Protocol):
    """A finding as the timeline keeps it (``timeline.Finding``): what matters here is its code."""

    @property
    def code(self) -> str: ...


Found = TypeVar("Found", bound=Coded)


@dataclass(slots=True, eq=False)
class KeptFindings(Generic[Found]):
    """Findings as they are raised: the first ``KEPT_PER_CODE`` of each code kept, every one counted by code.

    Read like the list of the kept ones (iterating, ``len``, indexing, comparing with a list), as ``Recent`` is read
    like its newest; ``raised`` says how many came, ``left_out`` how many are not kept, ``said`` the one wording.
    """

    kept: list[Found] = field(default_factory=list)
    """The first of each code, in the order raised."""
    by_code: dict[str, int] = field(default_factory=dict)
    """How many came of each code (``CODES_COUNTED`` codes at most, then ``OTHER_CODES``)."""

    def append(self, found: Found) -> None:
        """One more came: counted by its code, and kept when fewer than ``KEPT_PER_CODE`` of its code came before
        it (the first are kept, so the kept of a code are ``min(count, KEPT_PER_CODE)``)."""
        counts = self.by_code
        code = self.counted_as(found.code)
        before = counts.get(code, 0)
        counts[code] = before + 1
        if before < KEPT_PER_CODE:
            self.kept.append(found)

    def extend(self, found: Iterable[Found]) -> None:
        """Each one appended, in order."""
        for one in found:
            self.append(one)

    def clear(self) -> None:
        """Forget every one, counts too."""
        self.kept.clear()
        self.by_code.clear()

    def counted_as(self, code: str) -> str:
        """The name ``code`` is counted under: itself, or ``OTHER_CODES`` once ``CODES_COUNTED`` codes are."""
        counts = self.by_code
        return code if code in counts or len(counts) < CODES_COUNTED else OTHER_CODES

    @property
    def raised(self) -> int:
        """How many came, kept or not."""
        return sum(self.by_code.values())

    @property
    def left_out(self) -> int:
        """How many came and are not kept (the recording has what raised them)."""
        return self.raised - len(self.kept)

    def folded(self) -> dict[str, int]:
        """The codes some of whose findings were let go, with how many came of each, most first."""
        over = {code: count for code, count in self.by_code.items() if count > KEPT_PER_CODE}
        return dict(sorted(over.items(), key=lambda item: -item[1]))

    def tally(self) -> Iterator[tuple[str, int, Found]]:
        """(code counted under, how many came, the first of them) for every code raised, in the order first
        raised: what a face that counts findings by code reads (the load run's report)."""
        firsts: dict[str, Found] = {}
        for found in self.kept:
            firsts.setdefault(self.counted_as(found.code), found)
        for code, first in firsts.items():
            yield code, self.by_code[code], first

    def said(self, code: str, where: str = "") -> str:
        """How many of ``code`` came (``where``: `` in this session``) and how many are shown when not all are:
        ``invalid-message ×200,000 (first 10 shown)``, ``invalid-message ×3``: the one wording of every face."""
        count = self.by_code.get(code, 0)
        words = f"{code} ×{count:,}{where}"
        return words if count <= KEPT_PER_CODE else f"{words} (first {KEPT_PER_CODE} shown)"

    def __iter__(self) -> Iterator[Found]:
        return iter(self.kept)

    def __len__(self) -> int:
        return len(self.kept)

    def __bool__(self) -> bool:
        return bool(self.kept)

    @overload
    def __getitem__(self, position: int) -> Found: ...

    @overload
    def __getitem__(self, position: slice) -> list[Found]: ...

    def __getitem__(self, position: int | slice) -> Found | list[Found]:
        return self.kept[position]

    def __eq__(self, other: object) -> bool:
        """Equal to another's kept and counts (a live timeline and its replay), or to a list of the kept ones."""
        if isinstance(other, KeptFindings):
            return self.kept == other.kept and self.by_code == other.by_code
        if isinstance(other, list):
            return self.kept == other
        return NotImplemented
