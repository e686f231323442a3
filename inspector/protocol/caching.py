"""The caching hints of 2026-07-28 (SEP-2549, digest §1.4): ``ttlMs`` and ``cacheScope`` on list and
``resources/read`` results, read once here for every face (the printed list, ``--json``, the TUI, the lab).

A hint is kept as the server sent it (``--json`` carries it verbatim, even a wrong one); what a client may do with
it (``fresh_ms``: absent or negative is 0) is derived, never written back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from inspector.protocol.methods import LIST_METHODS

TTL_FIELD: Final = "ttlMs"
SCOPE_FIELD: Final = "cacheScope"
HINT_FIELDS: Final[tuple[str, str]] = (TTL_FIELD, SCOPE_FIELD)
PUBLIC: Final = "public"
PRIVATE: Final = "private"
SCOPE_MEANING: Final[dict[str, str]] = {
    PUBLIC: "any login may share it",
    PRIVATE: "this login only",
}
"""What each scope lets a client do (a private entry MUST NOT be shared across authorization contexts)."""

CACHEABLE_METHODS: Final[frozenset[str]] = frozenset({"server/discover", "resources/read", *LIST_METHODS})
"""The methods whose complete results carry the hints."""


def _seconds(ms: int) -> str:
    return f"{ms // 1000} s" if ms % 1000 == 0 else f"{ms / 1000:g} s"


@dataclass(frozen=True, slots=True)
class CacheHints:
    """The ``ttlMs`` and ``cacheScope`` of one result, as sent (None: absent)."""

    ttl_ms: object = None
    scope: object = None

    @classmethod
    def of(cls, result: Mapping[str, object] | None) -> CacheHints:
        """The hints ``result`` carries."""
        return cls(result.get(TTL_FIELD), result.get(SCOPE_FIELD)) if result is not None else cls()

    @classmethod
    def of_pages(cls, pages: Iterable[Mapping[str, object]]) -> CacheHints:
        """The hints of a list read page by page, as one: the first page's when every page agrees; otherwise the
        shortest ttl and ``private`` if any page is (each page is cached on its own, so the whole list is fresh
        only as long as its stalest page, and shareable only if every page is)."""
        hints = [cls.of(page) for page in pages]
        if not hints:
            return cls()
        if all(h == hints[0] for h in hints):
            return hints[0]
        ttl = min(h.fresh_ms for h in hints)
        scope = PRIVATE if any(h.scope != PUBLIC for h in hints) else PUBLIC
        return cls(ttl, scope)

    @property
    def present(self) -> bool:
        return self.ttl_ms is not None or self.scope is not None

    @property
    def fresh_ms(self) -> int:
        """How long a client may keep the result: absent (an older server), negative or not an integer is 0."""
        ttl = self.ttl_ms
        return ttl if isinstance(ttl, int) and not isinstance(ttl, bool) and ttl > 0 else 0

    def fields(self) -> dict[str, object]:
        """The hint fields to put on a result (only those the server sent)."""
        return {
            name: value for name, value in zip(HINT_FIELDS, (self.ttl_ms, self.scope), strict=True) if value is not None
        }

    def describe(self) -> str:
        """One line for a person: ``cache: 60 s, public (any login may share it)``."""
        if not self.present:
            return "cache: no ttlMs/cacheScope (an older server: not cached)"
        ttl = self.fresh_ms
        if ttl:
            how_long = _seconds(ttl)
        elif self.ttl_ms == 0:
            how_long = "not cached (ttlMs 0)"
        else:  # absent, negative or not an integer: the spec's 0
            how_long = f"not cached (ttlMs {'none' if self.ttl_ms is None else repr(self.ttl_ms)} read as 0)"
        scope = self.scope if isinstance(self.scope, str) else "no cacheScope"
        meaning = SCOPE_MEANING.get(scope)
        return f"cache: {how_long}, {scope}" + (f" ({meaning})" if meaning else "")
