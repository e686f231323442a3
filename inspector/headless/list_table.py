"""What ``inspector list KIND`` prints after its timeline: every item listed (every page), one row each.

A person running ``inspector list tools`` wants the tools: their names whole (a name is what they type next), a
title, the required arguments, and as much of the description as the width leaves (cut, never wrapped, so each item
stays one row); resources and templates show their URI and MIME type instead of arguments. Server text is hostile:
every cell goes through ``sanitize.one_line`` into a ``Text``, never markup.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from rich.cells import cell_len
from rich.console import Group, JustifyMethod, RenderableType
from rich.table import Table
from rich.text import Text

from inspector.protocol.caching import CacheHints
from inspector.protocol.catalog_weight import ESTIMATED, item_weight, tokens_said, total, weighed, weight_said, weights
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import CATALOG, CatalogKind
from inspector.protocol.sanitize import one_line
from inspector.protocol.skills import skill_bytes, skill_entries, skill_files

CELL_LIMIT: Final = 2000
"""No cell holds more than this (a description of megabytes is cut before it reaches the table)."""


def _text(value: object) -> str:
    return one_line(value, CELL_LIMIT) if isinstance(value, str) else ""


def _required_arguments(item: JsonObject) -> str:
    """A tool's required input properties, or a prompt's required arguments, in the order given."""
    schema = item.get("inputSchema")
    if isinstance(schema, dict):
        required = schema.get("required")
        return (
            ", ".join(_text(name) for name in required if isinstance(name, str)) if isinstance(required, list) else ""
        )
    arguments = item.get("arguments")
    if isinstance(arguments, list):
        return ", ".join(
            _text(arg.get("name")) for arg in arguments if isinstance(arg, dict) and arg.get("required") is True
        )
    return ""


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a kind's table: its heading, how a cell is read from an item, and whether it gives way."""

    heading: str
    cell: Callable[[JsonObject], str]
    shrinks: bool = False
    """Cut to the width left (the description); the others are never cut (a name folds rather than loses its end)."""
    right: bool = False
    """Numbers, aligned on the right."""


def _field(name: str) -> Callable[[JsonObject], str]:
    return lambda item: _text(item.get(name))


COLUMNS: Final[dict[CatalogKind, tuple[Column, ...]]] = {
    "tools": (
        Column("name", _field("name")),
        Column("title", _field("title")),
        Column("required", _required_arguments),
        Column("description", _field("description"), shrinks=True),
    ),
    "prompts": (
        Column("name", _field("name")),
        Column("title", _field("title")),
        Column("required", _required_arguments),
        Column("description", _field("description"), shrinks=True),
    ),
    "resources": (
        Column("name", _field("name")),
        Column("uri", _field("uri")),
        Column("mime type", _field("mimeType")),
        Column("description", _field("description"), shrinks=True),
    ),
    "templates": (
        Column("name", _field("name")),
        Column("uri template", _field("uriTemplate")),
        Column("mime type", _field("mimeType")),
        Column("description", _field("description"), shrinks=True),
    ),
}


def weight_columns(kind: CatalogKind) -> tuple[Column, Column]:
    """The two weight columns: an item's bytes, and its tokens (estimated: the line under the table says how)."""
    return (
        Column("bytes", lambda item: f"{item_weight(kind, item).bytes:,}", right=True),
        Column("tokens", lambda item: tokens_said(item_weight(kind, item).tokens), right=True),
    )


def cache_line(result: JsonObject | None) -> Text:
    """The caching hints of a list or ``resources/read`` result, for the line under what was printed."""
    return Text(CacheHints.of(result).describe(), style="dim")


DESCRIPTION_MIN: Final = 12
"""The description's least width: below it the other columns fold instead (a name is never cut, only folded)."""


def listed_items(kind: CatalogKind, result: JsonObject | None) -> list[JsonObject]:
    """The items of a list result (every page's, as ``list_all`` joined them)."""
    found = (result or {}).get(CATALOG[kind].items_field)
    return [item for item in found if isinstance(item, dict)] if isinstance(found, list) else []


def weight_json(kind: CatalogKind, result: JsonObject | None) -> JsonObject:
    """``weight`` for ``--json``: what a host hands a model of each item, in bytes and estimated tokens, and the
    kind's total (nothing for resources, which are read rather than offered)."""
    if not weighed(kind):
        return {}
    found = weights(kind, listed_items(kind, result))
    whole = total(found)
    items = [{"name": w.name, "bytes": w.bytes, "tokensEstimated": w.tokens} for w in found]
    return {"weight": {"bytes": whole.bytes, "tokensEstimated": whole.tokens, "estimate": ESTIMATED, "items": items}}


def _weight_line(kind: CatalogKind, items: list[JsonObject]) -> Text | None:
    """``handed to a model: 4,683 bytes, ≈1.2k tokens (tokens estimated ...)`` under the count."""
    if not weighed(kind) or not items:
        return None
    return Text(f"handed to a model: {weight_said(total(weights(kind, items)))} ({ESTIMATED})", style="dim")


def listing_table(
    kind: CatalogKind, result: JsonObject | None, width: int, *, by_weight: bool = False
) -> RenderableType:
    """The items of a list result as a table ``width`` columns wide at most, with a count under it (``3 tools``),
    what a model is handed of them (tools, prompts, templates: each item's bytes and estimated tokens, and the
    total) and its caching hints (``cache: 60 s, public (...)``); ``no tools`` when the list is empty.
    ``by_weight``: the heaviest item first (else the server's order)."""
    items = listed_items(kind, result)
    count = Text(f"{len(items)} {kind}" if items else f"no {kind}", style="dim")
    cache = cache_line(result)
    if not items:
        return Group(count, cache)
    if by_weight and weighed(kind):
        # (sorted is stable: among equal weights, the server's order)
        items = sorted(items, key=lambda item: -item_weight(kind, item).bytes)
    columns = COLUMNS[kind]
    if weighed(kind):
        *named, description = columns
        columns = (*named, *weight_columns(kind), description)
    table = _table(columns, items, width)
    weight = _weight_line(kind, items)
    return Group(table, count, *([weight] if weight is not None else []), cache)


def _table(columns: tuple[Column, ...], items: list[JsonObject], width: int) -> Table:
    """``items`` one row each, in ``columns`` (an empty column left out), ``width`` columns wide at most."""
    rows = [[column.cell(item) for column in columns] for item in items]
    # A column nobody filled in (no tool has a title) is left out rather than shown empty.
    shown = [i for i, column in enumerate(columns) if any(row[i] for row in rows)]
    natural = {i: max(cell_len(columns[i].heading), *(cell_len(row[i]) for row in rows)) for i in shown}
    gaps = 2 * (len(shown) - 1)
    fixed = sum(natural[i] for i in shown if not columns[i].shrinks)
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold", expand=False)
    for i in shown:
        column = columns[i]
        if column.shrinks:
            room = max(width - fixed - gaps, DESCRIPTION_MIN)
            table.add_column(column.heading, no_wrap=True, overflow="ellipsis", width=min(room, natural[i]))
        else:
            justify: JustifyMethod = "right" if column.right else "left"
            table.add_column(column.heading, overflow="fold", style="cyan" if i == 0 else None, justify=justify)
    for row in rows:
        table.add_row(*(Text(row[i]) for i in shown))
    return table


def _frontmatter_field(name: str) -> Callable[[JsonObject], str]:
    def cell(entry: JsonObject) -> str:
        frontmatter = entry.get("frontmatter")
        return _text(frontmatter.get(name)) if isinstance(frontmatter, dict) else ""

    return cell


SKILL_COLUMNS: Final = (
    Column("name", _frontmatter_field("name")),
    Column("description", _frontmatter_field("description"), shrinks=True),
    Column("files", lambda entry: str(len(skill_files(entry))), right=True),
    Column("bytes", lambda entry: f"{skill_bytes(entry):,}", right=True),
    Column("uri", _field("uri")),
)
"""``inspector list skills``: each skill's frontmatter name and description, its files and their bytes, its uri."""


def skills_table(result: JsonObject | None, width: int) -> RenderableType:
    """The entries of a ``skills/list`` result (every page's) as a table ``width`` columns wide at most, with a count
    under it (``2 skills``) and its caching hints; ``no skills`` when there are none. Nothing of any skill was read:
    the sizes are the ones the entries list."""
    entries = skill_entries(result)
    count = Text(f"{len(entries)} skills" if entries else "no skills", style="dim")
    if not entries:
        return Group(count, cache_line(result))
    return Group(_table(SKILL_COLUMNS, entries, width), count, cache_line(result))
