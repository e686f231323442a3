"""Listing the catalog: every page of a list as the rounds of one call, and the tools a client may call."""

from __future__ import annotations

from inspector.protocol.caching import CacheHints
from inspector.protocol.headers import x_mcp_header_problems
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import CATALOG, CatalogKind
from inspector.session import findings as lint
from inspector.session.calls import CallServices
from inspector.session.mrtr import is_input_required
from inspector.session.outcome import Outcome


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

    async def _pages(self, call: int, kind: CatalogKind) -> Outcome:
        entry = CATALOG[kind]
        method, field = entry.list_method, entry.items_field
        items: list[JsonObject] = []
        pages: list[JsonObject] = []
        cursor: str | None = None
        seen: set[str] = set()
        while True:
            params: JsonObject = {} if cursor is None else {"cursor": cursor}
            page = await self._calls.send(call, method, params, None)
            if is_input_required(page):
                return self._calls.ledger.end(call, "failed", forbidden_input_required(method), result=page)
            pages.append(page)
            found = page.get(field)
            if isinstance(found, list):
                items.extend(item for item in found if isinstance(item, dict))
            next_cursor = page.get("nextCursor")
            if not isinstance(next_cursor, str) or next_cursor in seen:
                break
            seen.add(next_cursor)
            cursor = next_cursor
        if kind == "tools":
            items = self._admit_tools(call, items)
        # The caching hints stay on the one result (the printed list, --json and the TUI show them).
        return self._calls.ledger.end(call, "complete", result={field: items, **CacheHints.of_pages(pages).fields()})

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
