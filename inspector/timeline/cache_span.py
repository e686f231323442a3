"""A call answered from the client's cache (``session.result_cache``): what it was given and how old it was.
Nothing was sent, so the call has no round; the record that says so (``records.served_from_cache``) puts this on
it, live and in a replay alike."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.protocol.caching import CacheHints, age_words
from inspector.protocol.jsonrpc import JsonObject


@dataclass(slots=True)
class FromCache:
    """The result a call was served from the cache, instead of a request."""

    result: JsonObject
    """What the call got: a read's result, or a list's items of every page with their hints (as ``list_all``)."""
    age_ms: float
    """How long ago the server sent it (a list's oldest page)."""
    of: int | None
    """The call that asked the server for it (None: one of an earlier session with this server)."""
    pages: int = 1

    @property
    def hints(self) -> CacheHints:
        """The caching hints it was kept by."""
        return CacheHints.of(self.result)

    def said(self) -> str:
        """``from cache, 12 s old (#3's result, no request sent)``: what every face says of the call."""
        whose = f"#{self.of}'s result" if self.of is not None else "a result of an earlier session with this server"
        pages = f", {self.pages} pages" if self.pages > 1 else ""
        return f"{age_words(self.age_ms)} ({whose}{pages}; no request sent)"
