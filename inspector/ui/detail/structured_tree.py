"""A tool's ``structuredContent`` as Document lines: an object as a tree (``key: value``, nested under guides), an
array of flat objects as a table, each field with what the tool's ``outputSchema`` says of it beside it (type,
required, description), and what does not match it (a type, a required field missing, a field the schema shuts
out) in the error colour. Pure, and lazy: rows are made until the section's line budget is spent, so a 5 MB
result costs its first screen until it is unfolded.

Not a validator (the raw JSON and jsonschema are for that): it says at a glance whether what came back is the
shape the tool promised, next to the value.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import islice
from typing import TYPE_CHECKING, Any, Final

from rich.cells import cell_len

from inspector.protocol.sanitize import one_line

if TYPE_CHECKING:
    from inspector.ui.detail.lines import Document, LineBudget, Span

Part = tuple[str, str]
"""A piece of a line and the name of its style (a detail line kind or a JSON part; "" the line's own)."""
Row = tuple[list[Part], list[Part]]
"""A line: the value's side, and the schema's side (aligned in a column after the widest value, within reason)."""
Ready = tuple[str, tuple["Span", ...]]
"""A line made whole already, and its styled spans (a table's row: a table can have 120,000 of them)."""
ALIGN_AT_MOST: Final = 48
"""The schema's column starts after the widest value up to here; a wider value just keeps two spaces."""
VALUE_CHARS: Final = 200
"""A value longer than this is cut in the tree (whole in the raw JSON)."""
CELL_CHARS: Final = 40
"""A table's column is at most this wide (a longer cell is cut: whole in the raw JSON)."""
TABLE_COLUMNS: Final = 12
"""An array of flat objects with more keys than this is a tree, not a table."""
SAMPLE_ROWS: Final = 200
"""A table's columns are sized on its first rows."""
TYPES: Final = {bool: "boolean", int: "integer", float: "number", str: "string", list: "array", dict: "object"}


class StructuredTree:
    """Writes a structured value (and its schema's words) into a Document within a line budget. Every part of a
    row is made visible as it is made (``one_line``), so the document takes the rows as they are."""

    def __init__(self, doc: Document, budget: LineBudget, schema: dict[str, Any] | None) -> None:
        self.doc = doc
        self.budget = budget
        self.schema = schema

    def write(self, value: Any) -> None:
        """``value`` as rows, the schema's column aligned; the fold line after the rows when the budget ran out."""
        room = self.budget.room()
        rows = list(self._rows(value)) if room is None else list(islice(self._rows(value), room + 1))
        cut = room is not None and len(rows) > room
        rows = rows[:room] if cut else rows
        noted = [_width(row[0]) for row in rows if not isinstance(row[0], str) and row[1]]
        column = min(max(noted, default=0), ALIGN_AT_MOST) + 2
        for row in rows:
            if isinstance(row[0], str):
                self.doc.ready("text", row[0], row[1])
                continue
            left, note = row
            pad = [(" " * max(column - _width(left), 2), "")] if note else []
            self.doc.pieces("text", *left, *pad, *note, visible=True)
        if room is not None:
            self.budget.left -= len(rows)
            if cut:
                self.budget.stop(f" after {len(rows)} lines")

    def _rows(self, value: Any) -> Iterator[Row | Ready]:
        schema = self.schema
        expected = _types(schema)
        if expected and not _matches(value, expected):
            said = one_line("/".join(expected), 80)
            yield [("✗ the outputSchema says ", "error"), (said, "error")], [(_kind(value), "error")]
        if isinstance(value, dict):
            yield from self._object(value, schema, "")
        elif _table_keys(value) is not None:
            yield from self._table(value, "")
        elif isinstance(value, list):
            yield from self._array(value, _items(schema), "")
        else:
            yield [_scalar(value)], []

    def _object(self, value: dict[str, Any], schema: dict[str, Any] | None, prefix: str) -> Iterator[Row | Ready]:
        properties = schema.get("properties") if schema is not None else None
        properties = properties if isinstance(properties, dict) else {}
        required = schema.get("required") if schema is not None else None
        required = [key for key in required if isinstance(key, str)] if isinstance(required, list) else []
        missing = [key for key in required if key not in value]
        keys = [*value, *missing]
        for position, key in enumerate(keys):
            last = position == len(keys) - 1
            guide, deeper = ("└─ ", "   ") if last else ("├─ ", "│  ")
            name = [(prefix + guide, "dim"), (one_line(str(key), 80), "key")]
            if key not in value:
                yield [*name, (": (missing)", "error")], [("✗ required by the outputSchema", "error")]
                continue
            child, note = _field(schema, properties, key, key in required, value[key])
            yield from self._node(value[key], child, note, name, prefix + deeper)

    def _node(
        self, value: Any, schema: dict[str, Any] | None, note: list[Part], name: list[Part], prefix: str
    ) -> Iterator[Row | Ready]:
        if isinstance(value, dict) and value:
            yield [*name], note
            yield from self._object(value, schema, prefix)
        elif _table_keys(value) is not None:
            yield [*name, (f" ({len(value):,} rows)", "dim")], note
            yield from self._table(value, prefix)
        elif isinstance(value, list) and value and not _short(value):
            yield [*name, (f" ({len(value):,} items)", "dim")], note
            yield from self._array(value, _items(schema), prefix)
        else:
            yield [*name, (": ", ""), _scalar(value)], note

    def _array(self, value: list[Any], schema: dict[str, Any] | None, prefix: str) -> Iterator[Row | Ready]:
        for position, item in enumerate(value):
            last = position == len(value) - 1
            guide, deeper = ("└─ ", "   ") if last else ("├─ ", "│  ")
            note = _note(schema, required=False, value=item)
            name = [(prefix + guide, "dim"), (f"[{position}]", "key")]
            yield from self._node(item, schema, note, name, prefix + deeper)

    def _table(self, rows: list[dict[str, Any]], prefix: str) -> Iterator[Row | Ready]:
        """An array of flat objects: a header, a rule, a row each; the columns sized on the rows shown (all of
        them unfolded, at most the section's lines folded), each cell made once."""
        keys = _table_keys(rows) or []
        limit = self.budget.room()
        sized = rows if limit is None else rows[:limit]
        cells = [[_cell(row[key]) if key in row else ("", "dim") for key in keys] for row in sized]
        widths = [_cells(one_line(key, CELL_CHARS)) for key in keys]
        for line in cells:
            for column, (text, _) in enumerate(line):
                widths[column] = max(widths[column], _cells(text))
        header: list[Part] = [(prefix, "dim")]
        rule: list[Part] = [(prefix, "dim")]
        for column, key in enumerate(keys):
            header += [(_fit(one_line(key, CELL_CHARS), widths[column], right=False), "key"), ("  ", "")]
            rule += [("─" * widths[column], "dim"), ("  ", "")]
        yield header[:-1], []
        yield rule[:-1], []
        start = len(prefix)
        for line in cells:
            texts = [prefix]
            spans: list[Span] = [(0, start, "dim")] if start else []
            at = start
            for (text, style), width in zip(line, widths, strict=True):
                cell = _fit(text, width, right=style == "number")
                texts.append(cell)
                texts.append("  ")
                spans.append((at, at + len(cell), style))
                at += len(cell) + 2
            yield "".join(texts[:-1]), tuple(spans)


def _field(
    schema: dict[str, Any] | None, properties: dict[str, Any], key: str, required: bool, value: Any
) -> tuple[dict[str, Any] | None, list[Part]]:
    """A field's schema and its note: what the schema says of it, or that the schema does not know it."""
    child = properties.get(key)
    if isinstance(child, dict):
        return child, _note(child, required=required, value=value)
    if schema is None or not properties:
        return None, []
    extra = schema.get("additionalProperties")
    if extra is False:
        return None, [("✗ not in the outputSchema (additionalProperties: false)", "error")]
    if isinstance(extra, dict):
        return extra, _note(extra, required=False, value=value)
    return None, [("not in the outputSchema", "dim")]


def _note(schema: dict[str, Any] | None, *, required: bool, value: Any) -> list[Part]:
    """What ``schema`` says of a value: its type (or ``$ref``, ``anyOf``...), enum, format, required, description;
    then, in the error colour, a type the value is not."""
    if schema is None:
        return []
    words: list[str] = []
    expected = _types(schema)
    if expected:
        words.append("/".join(expected))
    else:
        words.extend(word for word in ("$ref", "anyOf", "oneOf", "allOf", "const") if word in schema)
    enum = schema.get("enum")
    if isinstance(enum, list):
        shown = ", ".join(json.dumps(option, ensure_ascii=False) for option in enum[:5])
        words.append(f"one of {shown}{', …' if len(enum) > 5 else ''}")
    if isinstance(schema.get("format"), str):
        words.append(schema["format"])
    if required:
        words.append("required")
    if isinstance(schema.get("description"), str):
        words.append(schema["description"])
    note: list[Part] = [(one_line(" · ".join(words), 120), "dim")] if words else []
    if expected and not _matches(value, expected):
        note.append((f"  ✗ not {one_line('/'.join(expected), 80)}", "error"))
    return note


def _types(schema: dict[str, Any] | None) -> list[str]:
    kind = schema.get("type") if schema is not None else None
    if isinstance(kind, str):
        return [kind]
    return [item for item in kind if isinstance(item, str)] if isinstance(kind, list) else []


def _kind(value: Any) -> str:
    return "null" if value is None else TYPES.get(type(value), type(value).__name__)


def _matches(value: Any, expected: list[str]) -> bool:
    """Whether ``value`` is of one of the JSON Schema types (an integral number is an integer too)."""
    kind = _kind(value)
    if kind in expected:
        return True
    if kind == "integer" and "number" in expected:
        return True
    return kind == "number" and "integer" in expected and float(value).is_integer()


def _items(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    items = schema.get("items") if schema is not None else None
    return items if isinstance(items, dict) else None


def _scalar(value: Any) -> Part:
    """A leaf as JSON writes it (a string quoted, so "3" and 3 differ), in its JSON colour, cut when long."""
    if isinstance(value, (dict, list)):
        return (one_line(json.dumps(value, ensure_ascii=False), VALUE_CHARS), "punctuation")
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        return (one_line(text, VALUE_CHARS), "string")
    if value is None or isinstance(value, bool):
        return (json.dumps(value), "literal")
    return (json.dumps(value), "number")


def _short(value: list[Any]) -> bool:
    """An array of scalars that fits on its line: shown inline, as JSON."""
    return all(not isinstance(item, (dict, list)) for item in value) and len(json.dumps(value)) <= 80


def _table_keys(value: Any) -> list[str] | None:
    """The columns when ``value`` is a non-empty array of objects whose values are all scalars (None: not one)."""
    if not isinstance(value, list) or not value or not all(isinstance(row, dict) for row in value[:SAMPLE_ROWS]):
        return None
    keys: dict[str, None] = {}
    for row in value[:SAMPLE_ROWS]:
        if any(isinstance(cell, (dict, list)) for cell in row.values()):
            return None
        keys.update(dict.fromkeys(str(key) for key in row))
        if len(keys) > TABLE_COLUMNS:
            return None
    if not all(isinstance(row, dict) for row in value):
        return None
    return list(keys)


def _cell(value: Any) -> Part:
    """A table cell: a string without its quotes (the column says what it is), cut to the column's most; a number
    or a literal as JSON writes it (``str`` for the common ones: a table can have 120,000 rows)."""
    if isinstance(value, str):
        return (one_line(value, CELL_CHARS), "string")
    if value is None or isinstance(value, bool):
        return ("null" if value is None else "true" if value else "false", "literal")
    if isinstance(value, int):
        return (str(value), "number")
    if isinstance(value, (dict, list)):
        return (one_line(json.dumps(value, ensure_ascii=False), CELL_CHARS), "punctuation")
    return _scalar(value)


def _cells(text: str) -> int:
    return len(text) if text.isascii() else cell_len(text)


def _fit(text: str, width: int, *, right: bool) -> str:
    """``text`` padded (or cut with an ellipsis) to ``width`` cells."""
    size = _cells(text)
    if size > width:
        while text and cell_len(text) > width - 1:
            text = text[:-1]
        return text + "…"
    return " " * (width - size) + text if right else text + " " * (width - size)


def _width(parts: list[Part]) -> int:
    return sum(_cells(text) for text, _ in parts)
