"""The caching hints of 2026-07-28 (SEP-2549, digest §1.4): ``ttlMs`` and ``cacheScope`` on list and
``resources/read`` results, read once here for every face (the printed list, ``--json``, the TUI, the lab).

A hint is kept as the server sent it (``--json`` carries it verbatim, even a wrong one); what a client may do with
it (``fresh_ms``: absent or negative is 0) is derived, never written back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from inspector.protocol.methods import CATALOG, LIST_CHANGED, LIST_METHODS, RESOURCE_UPDATED
from inspector.protocol.wire_text import dumps

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
READ: Final = "resources/read"
NOT_THE_KEY: Final = frozenset({"_meta", "inputResponses", "requestState"})
"""Request params that never shape a cacheable result: the envelope, and an MRTR retry's answers (whose result is
never cached at all)."""
STALE_AFTER: Final[dict[str, frozenset[str]]] = {
    notification: frozenset(CATALOG[kind].list_method for kind in kinds) for notification, kinds in LIST_CHANGED.items()
}
"""The list methods whose cached pages a list change makes stale at once (``resources/updated`` is per URI)."""


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


def cache_key(method: str, params: Mapping[str, object]) -> str:
    """The key a result is cached under: the method and the params that shape the result (a list page's
    ``cursor``, a read's ``uri``), as canonical JSON; each page of a list has its own."""
    shaping = {name: value for name, value in params.items() if name not in NOT_THE_KEY}
    return f"{method} {dumps(dict(sorted(shaping.items())))}"


def stale_reads(updated_uri: str, read_uri: str) -> bool:
    """Whether ``notifications/resources/updated`` for ``updated_uri`` makes a cached read of ``read_uri`` stale:
    the same resource, or one inside the other (the spec lets the updated URI be a sub-resource of the one
    subscribed to, and a read of a folder holds what changed inside it)."""
    if updated_uri == read_uri:
        return True
    inner, outer = sorted((updated_uri, read_uri), key=len, reverse=True)
    return inner.startswith(outer.rstrip("/") + "/")


def stale_after(notification: str, params: Mapping[str, object], method: str, key_params: Mapping[str, object]) -> bool:
    """Whether the notification ``notification`` (with ``params``) makes a result of ``method`` for ``key_params``
    stale: a list change its lists, ``resources/updated`` the reads of its URI."""
    if method in STALE_AFTER.get(notification, ()):
        return True
    if notification == RESOURCE_UPDATED and method == READ:
        updated, read = params.get("uri"), key_params.get("uri")
        return isinstance(updated, str) and isinstance(read, str) and stale_reads(updated, read)
    return False


def age_words(age_ms: float) -> str:
    """How old a result served from the cache is: ``from cache, 12 s old`` (what every face says of such a call)."""
    seconds = max(age_ms, 0.0) / 1000
    old = f"{seconds:.1f} s" if seconds < 10 else f"{seconds:,.0f} s"
    return f"from cache, {old} old"


def order_changed(before: list[str], after: list[str]) -> bool:
    """Whether two lists hold the same names in another order (other names: the list changed, which is no
    question of order)."""
    return before != after and sorted(before) == sorted(after)
