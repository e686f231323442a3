"""HTTP request-metadata headers of Streamable HTTP (SEP-2243): ``Mcp-Method``, ``Mcp-Name``, ``Mcp-Param-*``.

Pure functions, no I/O. The rules follow the 2026-07-28 transport spec and the official conformance scenarios
``http-standard-headers``, ``http-custom-headers`` and ``http-invalid-tool-headers``:

- a value that is not plain visible ASCII, has leading or trailing whitespace, or looks like the sentinel itself is
  sent as ``=?base64?<base64 of its UTF-8>?=``. A tab anywhere is encoded too: RFC 9110 allows it inside a field
  value, but the conformance suite (and the official SDKs) require the sentinel for it, and encoding is never wrong.
- ``x-mcp-header`` is valid only on ``string``/``integer``/``boolean`` properties reached from the schema root by a
  chain of ``properties`` keys alone (nested objects included, as the spec allows; never through ``items``,
  combinators, conditionals or ``$ref``), with non-empty, case-insensitively unique RFC 9110 token names.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator, Mapping
from typing import Any, Final, cast

SENTINEL_PREFIX: Final = "=?base64?"
SENTINEL_SUFFIX: Final = "?="
X_MCP_HEADER: Final = "x-mcp-header"
PARAM_HEADER_PREFIX: Final = "Mcp-Param-"

NAME_SOURCES: Final[Mapping[str, str]] = {
    "tools/call": "name",
    "prompts/get": "name",
    "resources/read": "uri",
    "tasks/get": "taskId",
    "tasks/update": "taskId",
    "tasks/cancel": "taskId",
}
"""Method -> the ``params`` key mirrored into ``Mcp-Name``."""

_PLAIN = re.compile(r"[\x20-\x7E]*")
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_SENTINEL = re.compile(r"=\?base64\?(?P<payload>.*)\?=", re.DOTALL)
_HEADER_TYPES: Final = frozenset({"string", "integer", "boolean"})

# JSON Schema keywords whose values are subschemas. Crossing any of them leaves the "statically reachable" chain.
_SUBSCHEMA: Final = frozenset(
    {
        "items",
        "contains",
        "additionalProperties",
        "unevaluatedItems",
        "unevaluatedProperties",
        "propertyNames",
        "not",
        "if",
        "then",
        "else",
        "contentSchema",
        "additionalItems",
    }
)
_SUBSCHEMA_LISTS: Final = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SUBSCHEMA_MAPS: Final = frozenset({"patternProperties", "dependentSchemas", "$defs", "definitions"})


def needs_encoding(value: str) -> bool:
    """True when ``value`` cannot travel as a plain header value (see the module docstring)."""
    if not _PLAIN.fullmatch(value):
        return True
    if value != value.strip(" "):
        return True
    return value.startswith(SENTINEL_PREFIX) and value.endswith(SENTINEL_SUFFIX)


def encode_header_value(value: str) -> str:
    """The header form of ``value``: unchanged when plain, else the ``=?base64?...?=`` sentinel."""
    if not needs_encoding(value):
        return value
    return SENTINEL_PREFIX + base64.b64encode(value.encode("utf-8")).decode("ascii") + SENTINEL_SUFFIX


def decode_header_value(value: str) -> str | None:
    """Inverse of :func:`encode_header_value`. None when the sentinel's payload is not valid base64 of UTF-8."""
    match = _SENTINEL.fullmatch(value)
    if match is None:
        return value
    try:
        return base64.b64decode(match.group("payload"), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None


def render_param_value(value: object) -> str | None:
    """The string a tool argument becomes in ``Mcp-Param-*`` before encoding; None when the header is omitted.

    Strings as-is, booleans ``true``/``false``, integers in decimal (an integral float such as ``42.0`` too, as
    ``42``). Null, absent and non-scalar values have no header form.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return None


def protocol_headers(
    method: str,
    params: Mapping[str, Any] | None,
    protocol_version: str | None,
    tool_input_schema: Mapping[str, Any] | None,
) -> dict[str, str]:
    """The request-metadata headers for one POST, already encoded.

    ``Mcp-Method`` always; ``Mcp-Name`` for the methods in :data:`NAME_SOURCES` when the named param is a string;
    ``MCP-Protocol-Version`` when a version is given; ``Mcp-Param-<Name>`` for ``tools/call`` from the tool's
    ``x-mcp-header`` annotations (valid ones only: a tool with problems should not be called, but an inspector
    may call it anyway, and then the well-formed annotations are still honoured).
    """
    headers: dict[str, str] = {"Mcp-Method": encode_header_value(method)}
    source = NAME_SOURCES.get(method)
    if source is not None and params is not None:
        name = params.get(source)
        if isinstance(name, str):
            headers["Mcp-Name"] = encode_header_value(name)
    if protocol_version is not None:
        headers["MCP-Protocol-Version"] = protocol_version
    if method == "tools/call" and params is not None and tool_input_schema is not None:
        arguments = params.get("arguments")
        if isinstance(arguments, Mapping):
            headers.update(param_headers(tool_input_schema, cast("Mapping[str, Any]", arguments)))
    return headers


def param_headers(input_schema: Mapping[str, Any], arguments: Mapping[str, Any]) -> dict[str, str]:
    """``Mcp-Param-<Name>`` headers for ``arguments``: the value at each annotated property path, encoded."""
    headers: dict[str, str] = {}
    seen: set[str] = set()
    for path, token in header_annotations(input_schema).items():
        if token.lower() in seen:
            continue
        seen.add(token.lower())
        rendered = render_param_value(_value_at(arguments, path))
        if rendered is not None:
            headers[PARAM_HEADER_PREFIX + token] = encode_header_value(rendered)
    return headers


def header_annotations(input_schema: Mapping[str, Any]) -> dict[tuple[str, ...], str]:
    """Property path -> header name for every well-formed ``x-mcp-header`` annotation, in schema order."""
    found: dict[tuple[str, ...], str] = {}
    for position in _positions(input_schema):
        token = position.schema.get(X_MCP_HEADER)
        if (
            position.path
            and isinstance(token, str)
            and _TOKEN.fullmatch(token)
            and position.schema.get("type") in _HEADER_TYPES
        ):
            found[position.path] = token
    return found


def x_mcp_header_problems(input_schema: Mapping[str, Any]) -> list[str]:
    """Why this tool's ``x-mcp-header`` use is invalid, one sentence per problem. Empty: valid.

    The spec says such a tool MUST be left out of ``tools/list`` (with a warning naming the reason).
    """
    problems: list[str] = []
    names: dict[str, str] = {}
    for position in _positions(input_schema):
        if X_MCP_HEADER not in position.schema:
            continue
        where = position.where
        token = position.schema[X_MCP_HEADER]
        if not position.path:
            crossed = f" (inside {position.off_chain_keyword})" if position.off_chain_keyword else ""
            problems.append(
                f"{where}: x-mcp-header is only allowed on a property reached through `properties` alone{crossed}"
            )
            continue
        if not isinstance(token, str):
            problems.append(f"{where}: x-mcp-header must be a string, not {type(token).__name__}")
            continue
        if token == "":
            problems.append(f"{where}: x-mcp-header is empty")
        elif not _TOKEN.fullmatch(token):
            bad = "".join(sorted({ch for ch in token if not _TOKEN.fullmatch(ch)}))
            problems.append(
                f"{where}: x-mcp-header {token!r} is not an HTTP header name token (bad characters: {bad!r})"
            )
        prop_type = position.schema.get("type")
        if prop_type not in _HEADER_TYPES:
            shown = "no type" if prop_type is None else f"type {prop_type!r}"
            problems.append(f"{where}: x-mcp-header needs a string, integer or boolean property, this one has {shown}")
        if token:
            first = names.setdefault(token.lower(), where)
            if first != where:
                problems.append(f"{where}: x-mcp-header {token!r} repeats the header name used by {first}")
    return problems


class _Position:
    """One subschema: its ``properties`` path from the root (None once off that chain) and a readable location."""

    __slots__ = ("off_chain_keyword", "path", "schema", "where")

    def __init__(
        self,
        schema: dict[str, Any],
        path: tuple[str, ...] | None,
        where: str,
        off_chain_keyword: str | None,
    ) -> None:
        self.schema = schema
        self.path = path
        self.where = where
        self.off_chain_keyword = off_chain_keyword


def _positions(root: Mapping[str, Any]) -> Iterator[_Position]:
    """Every subschema of ``root`` in document order, without following ``$ref`` (an explicit stack: no recursion)."""
    stack: list[tuple[Any, tuple[str, ...] | None, str, str | None]] = [(root, (), "inputSchema", None)]
    while stack:
        node, path, where, crossed = stack.pop()
        if not isinstance(node, dict):
            continue
        schema = cast("dict[str, Any]", node)
        yield _Position(schema, path, where, crossed)
        children: list[tuple[Any, tuple[str, ...] | None, str, str | None]] = []
        for keyword, value in schema.items():
            if keyword == "properties" and isinstance(value, dict):
                for name, sub in cast("dict[str, Any]", value).items():
                    sub_path = (*path, name) if path is not None else None
                    children.append((sub, sub_path, f"{where}.properties.{name}", crossed))
            elif keyword in _SUBSCHEMA:
                children.append((value, None, f"{where}.{keyword}", crossed or keyword))
            elif keyword in _SUBSCHEMA_LISTS and isinstance(value, list):
                for index, sub in enumerate(value):
                    children.append((sub, None, f"{where}.{keyword}[{index}]", crossed or keyword))
            elif keyword in _SUBSCHEMA_MAPS and isinstance(value, dict):
                for name, sub in cast("dict[str, Any]", value).items():
                    children.append((sub, None, f"{where}.{keyword}.{name}", crossed or keyword))
        stack.extend(reversed(children))


def _value_at(arguments: Mapping[str, Any], path: tuple[str, ...]) -> object:
    node: object = arguments
    for key in path:
        if not isinstance(node, Mapping):
            return None
        node = cast("Mapping[str, Any]", node).get(key)
    return node
