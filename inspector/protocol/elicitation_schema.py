"""Which elicitation ``requestedSchema``s the spec allows (``schema_form.elicitation_spec`` builds the form).

The spec allows a flat object whose properties are each a ``PrimitiveSchemaDefinition``; anything else is answered in
a JSON editor and reported as a finding by the caller. A schema with any ``$ref`` is refused here so that no
validator is ever handed a reference to resolve (jsonschema would fetch a remote one).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

_FORMATS: Final = ("email", "uri", "date", "date-time")
_REF_KEYWORDS: Final = ("$ref", "$dynamicRef", "$recursiveRef")


def unsupported_reason(requested_schema: object) -> str | None:
    """Why an elicitation ``requestedSchema`` is not one the spec allows, or None when it is.

    The spec allows a flat object whose properties are each a ``PrimitiveSchemaDefinition``: a string (optionally
    with an ``email``/``uri``/``date``/``date-time`` format, an ``enum``, a titled ``oneOf`` of ``const``s, or legacy
    ``enumNames``), a number or integer, a boolean, or an array of strings picked from ``items.enum`` /
    ``items.anyOf``. Anything else (nested objects, ``$ref``, unknown types) gets the JSON editor and a finding.
    """
    if not isinstance(requested_schema, Mapping):
        return "requestedSchema is not a JSON object"
    if requested_schema.get("type") != "object":
        return 'requestedSchema must have "type": "object"'
    if "$defs" in requested_schema or "definitions" in requested_schema or _has_ref(requested_schema):
        return "requestedSchema uses $ref/$defs; the spec allows only a flat object of primitive properties"
    properties = requested_schema.get("properties", {})
    if not isinstance(properties, Mapping):
        return '"properties" is not a JSON object'
    required = requested_schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(name, str) for name in required):
        return '"required" is not a list of property names'
    for name, prop in properties.items():
        problem = _primitive_problem(prop)
        if problem is not None:
            return f"property {name!r}: {problem}"
    return None


def _has_ref(node: object) -> bool:
    """Whether any ``$ref``-like keyword appears anywhere (a validator would try to resolve, even fetch, it)."""
    if isinstance(node, Mapping):
        return any(key in node for key in _REF_KEYWORDS) or any(_has_ref(value) for value in node.values())
    if isinstance(node, list):
        return any(_has_ref(value) for value in node)
    return False


def _primitive_problem(prop: object) -> str | None:
    """Why one property is not a ``PrimitiveSchemaDefinition`` (None when it is)."""
    if not isinstance(prop, Mapping):
        return "is not a schema object"
    if "$ref" in prop:
        return "uses $ref"
    kind = prop.get("type")
    if kind == "string":
        fmt = prop.get("format")
        if fmt is not None and fmt not in _FORMATS:
            return f"unknown string format {fmt!r}"
        one_of = prop.get("oneOf")
        if one_of is not None and (not isinstance(one_of, list) or not _all_consts(one_of)):
            return "oneOf must list {const, title} options"
        return None
    if kind in ("number", "integer", "boolean"):
        return None
    if kind == "array":
        items = prop.get("items")
        if not isinstance(items, Mapping):
            return "an array needs items with enum or anyOf"
        if items.get("type") == "string" and isinstance(items.get("enum"), list):
            return None
        if isinstance(items.get("anyOf"), list) and _all_consts(items["anyOf"]):
            return None
        return "only arrays of enum strings (multi-select) are allowed"
    if kind == "object":
        return "nested objects are not allowed"
    return f"unknown type {kind!r}" if kind is not None else "has no type"


def _all_consts(branches: list[object]) -> bool:
    """Every branch is a ``{"const": ..., "title"?: ...}`` option."""
    return all(isinstance(branch, Mapping) and "const" in branch for branch in branches)
