"""The client's cache of list and ``resources/read`` results, as 2026-07-28 means it (digest §1.4, SEP-2549).

A result is kept for its ``ttlMs`` (absent, negative or 0: not kept), under its method and the params that shape
it (``caching.cache_key``: each page of a list on its own, a read by its URI) and the protocol version it was
asked at. A ``private`` result is served only to the authorization context that got it (the session that asked,
with the token it had then); a ``public`` one to any. A list change makes its lists stale at once, a
``resources/updated`` the reads of its URI (``caching.stale_after``). A result that took more than one round
never goes in: an MRTR retry's result MUST NOT be cached (it answered what a person said, not the request), and
neither is anything answered after the server asked the client something.

The session decides when to look and when to keep (``InspectorSession.list_all``, ``read_resource``); the faces
decide whether there is a cache at all (the TUI has one per server it connects to, so a reconnect finds the
catalog it listed; ``--no-cache`` has none; the headless commands, which list once, have none).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from inspector.protocol.caching import CACHEABLE_METHODS, PUBLIC, READ, CacheHints, cache_key, stale_after
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import LIST_METHODS
from inspector.timeline.build.cache_checks import sent_params

if TYPE_CHECKING:
    from inspector.timeline.model import Call, Round

Authorization = tuple[object, int]
"""Who a private result belongs to: the session that got it (an identity object of its own) and how many tokens
its logins had brought by then (a new token is a new authorization context: a step-up may see more)."""
MRTR_PARAMS: Final = frozenset({"inputResponses", "requestState"})


@dataclass(frozen=True, slots=True)
class Entry:
    """One cached result: one page of a list, or one read."""

    method: str
    params: JsonObject
    """The params that shape it (no ``_meta``)."""
    version: str
    """The protocol version it was asked at (a result of another version is another shape)."""
    result: JsonObject
    hints: CacheHints
    received: float
    """When it came, on the cache's clock."""
    call: int
    """The call that got it, in its session's numbering."""
    owner: Authorization

    def fresh(self, now: float) -> bool:
        """Fresh while ``now < received + ttlMs`` (the spec's rule)."""
        return now < self.received + self.hints.fresh_ms / 1000

    def serves(self, owner: Authorization) -> bool:
        """A public entry serves anyone; a private one only the context that got it."""
        return self.hints.scope == PUBLIC or self.owner == owner


@dataclass(frozen=True, slots=True)
class Served:
    """What the cache gives a call instead of a request: every page (one for a read), how old, from whom."""

    pages: list[JsonObject]
    age_ms: float
    """How long ago the oldest page came."""
    call: int
    """The call that got them, in its session's numbering."""
    owner: Authorization


class ResultCache:
    """List pages and reads, kept while fresh (see the module docstring). ``clock``: seconds (injected in tests,
    so an entry expires without anyone waiting)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._entries: dict[str, Entry] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        """Forget everything (the TUI's refresh key)."""
        self._entries.clear()

    # ------------------------------------------------------------------------------------------------ keeping
    def keep(self, call: Call, *, version: str, owner: Authorization, ago_s: Callable[[float], float]) -> int:
        """Keep what ``call`` got, if it may be kept: a list every page of which came complete in one round each,
        or a read answered in one round; each result with a ttl. ``ago_s(at)``: how many seconds ago the timeline's
        time ``at`` was (the pages came a moment before the call ended). Returns how many results were kept; a new
        list replaces every page of the old one (pages of two lists never mix)."""
        if call.method not in CACHEABLE_METHODS or call.status != "complete" or call.cached is not None:
            return 0
        rounds = call.rounds
        if not rounds or not all(answered_alone(round_) for round_ in rounds):
            return 0
        if call.method == READ and len(rounds) != 1:
            return 0
        if any(
            round_.result_type != "complete" or round_.result is None or round_.response is None for round_ in rounds
        ):
            return 0
        if call.method in LIST_METHODS:
            self._forget(lambda entry: entry.method == call.method and entry.version == version)
        now = self.clock()
        kept = 0
        for round_ in rounds:
            result, response = round_.result, round_.response
            assert result is not None and response is not None
            hints = CacheHints.of(result)
            if not hints.fresh_ms:
                continue
            params = sent_params(round_)
            received = now - ago_s(response.at)
            self._entries[f"{version} {cache_key(call.method, params)}"] = Entry(
                call.method, params, version, result, hints, received, call.index, owner
            )
            kept += 1
        return kept

    # ------------------------------------------------------------------------------------------------ serving
    def lookup(self, method: str, params: Mapping[str, object], *, version: str, owner: Authorization) -> Entry | None:
        """The fresh entry for ``method`` and ``params`` this context may be served (a stale one is dropped)."""
        key = f"{version} {cache_key(method, params)}"
        entry = self._entries.get(key)
        if entry is None:
            return None
        if not entry.fresh(self.clock()):
            del self._entries[key]
            return None
        return entry if entry.serves(owner) else None

    def list_pages(self, method: str, *, version: str, owner: Authorization) -> Served | None:
        """Every page of a list, when each one is fresh, may be served here and came with the same list (the first
        page, then each ``nextCursor``'s); else None and the list is asked again whole: a list half old and half
        new could hold an item twice, or lose one that moved between pages."""
        pages: list[Entry] = []
        params: dict[str, object] = {}
        seen: set[str] = set()
        while True:
            entry = self.lookup(method, params, version=version, owner=owner)
            if entry is None or (pages and (entry.call, entry.owner[0]) != (pages[0].call, pages[0].owner[0])):
                return None
            pages.append(entry)
            cursor = entry.result.get("nextCursor")
            if not isinstance(cursor, str) or cursor in seen:
                break
            seen.add(cursor)
            params = {"cursor": cursor}
        return self._served(pages)

    def read(self, uri: str, *, version: str, owner: Authorization) -> Served | None:
        """A fresh read of ``uri`` this context may be served, else None."""
        entry = self.lookup(READ, {"uri": uri}, version=version, owner=owner)
        return self._served([entry]) if entry is not None else None

    def _served(self, pages: list[Entry]) -> Served:
        oldest = min(entry.received for entry in pages)
        first = pages[0]
        return Served([entry.result for entry in pages], (self.clock() - oldest) * 1000, first.call, first.owner)

    # ------------------------------------------------------------------------------------------------ going stale
    def notified(self, method: str | None, params: object) -> None:
        """A notification came: the entries it makes stale go (a list change: its lists; ``resources/updated``:
        the reads of its URI)."""
        if method is None or not self._entries:
            return
        told = params if isinstance(params, dict) else {}
        self._forget(lambda entry: stale_after(method, told, entry.method, entry.params))

    def _forget(self, stale: Callable[[Entry], bool]) -> None:
        for key in [key for key, entry in self._entries.items() if stale(entry)]:
            del self._entries[key]


def answered_alone(round_: Round) -> bool:
    """Whether a round's result answers its request alone, so a client may cache it: our own request, which asked
    the client nothing and carried no answers and no requestState (an MRTR retry's result MUST NOT be cached)."""
    return round_.kind == "request" and not round_.input_requests and not MRTR_PARAMS & sent_params(round_).keys()
