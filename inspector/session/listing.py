"""Listing the catalog: every page of a list as the rounds of one call, and the tools a client may call."""

from __future__ import annotations

from inspector.protocol.caching import CacheHints
from inspector.protocol.headers import x_mcp_header_problems
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import CATALOG, CatalogKind
from inspector.session.calls import CallServices
from inspector.session.mrtr_driver import is_input_required
from inspector.session.result_cache import Served
from inspector.timeline import findings as lint
from inspector.timeline.outcome import Outcome


class CatalogLister:
    """Lists a kind of catalog entry, page by page (a cursor seen twice ends it), for the session."""

    def __init__(self, calls: CallServices, *, http: bool) -> None:
        self._calls = calls
        self._http = http
        self.tools: dict[str, JsonObject] = {}
        """The tools of the last complete tools/list, by name."""

    async def list_all(self, kind: CatalogKind) -> Outcome:
        """Every page of ``kind``'s list; ``result`` holds all the items and the pages' ``ttlMs``/``cacheScope``
        (``CacheHints.of_pages``)."""
        method = CATALOG[kind].list_method
        call = self._calls.ledger.start(method, {})
        return await self._calls.settle(call, method, self._pages(call, kind))

    def from_cache(self, kind: CatalogKind, served: Served, of: int | None) -> Outcome:
        """``kind``'s list answered from the client's cache (every page fresh): a call with no request, its result
        what ``list_all`` would have made of the same pages (the tools admitted again)."""
        call = self._calls.ledger.start(CATALOG[kind].list_method, {})
        result = self._listed(call, kind, served.pages)
        return self._calls.ledger.served(call, result, age_ms=served.age_ms, of=of, pages=len(served.pages))

    async def _pages(self, call: int, kind: CatalogKind) -> Outcome:
        method = CATALOG[kind].list_method
        pages: list[JsonObject] = []
        cursor: str | None = None
        seen: set[str] = set()
        while True:
            params: JsonObject = {} if cursor is None else {"cursor": cursor}
            page = await self._calls.send(call, method, params, None)
            if is_input_required(page):
                return self._calls.ledger.end(call, "failed", forbidden_input_required(method), result=page)
            pages.append(page)
            next_cursor = page.get("nextCursor")
            if not isinstance(next_cursor, str) or next_cursor in seen:
                break
            seen.add(next_cursor)
            cursor = next_cursor
        return self._calls.ledger.end(call, "complete", result=self._listed(call, kind, pages))

    def _listed(self, call: int, kind: CatalogKind, pages: list[JsonObject]) -> JsonObject:
        """Every page's items as one result (the tools admitted), with the pages' caching hints on it (the printed
        list, --json and the TUI show them)."""
        field = CATALOG[kind].items_field
        items: list[JsonObject] = []
        for page in pages:
            found = page.get(field)
            if isinstance(found, list):
                items.extend(item for item in found if isinstance(item, dict))
        if kind == "tools":
            items = self._admit_tools(call, items)
        return {field: items, **CacheHints.of_pages(pages).fields()}

    def _admit_tools(self, call: int, tools: list[JsonObject]) -> list[JsonObject]:
        """The tools a client may call: over HTTP, one with an invalid x-mcp-header is left out (SEP-2243)."""
        admitted: list[JsonObject] = []
        for tool in tools:
            schema = tool.get("inputSchema")
            problems = x_mcp_header_problems(schema) if isinstance(schema, dict) and self._http else []
            if problems:
                self._calls.ledger.finding(
                    lint.make(
                        "invalid-x-mcp-header",
                        f"tool {tool.get('name')!r} left out: {'; '.join(problems)}",
                        call=call,
                        hint="Tools with an invalid x-mcp-header MUST be excluded from the tool list (SEP-2243).",
                    )
                )
                continue
            admitted.append(tool)
        self.tools = {str(tool.get("name")): tool for tool in admitted}
        return admitted


def forbidden_input_required(method: str) -> str:
    """What a call that answered input_required where it may not is told."""
    return f"{method} answered input_required, which only tools/call, prompts/get and resources/read may do"
