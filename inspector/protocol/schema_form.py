"""JSON Schema -> form spec: what a form can show for a schema, and what it must leave to a JSON editor.

Pure data, no textual: the call composer and the elicitation modal render a ``FieldSpec`` tree built here, and the
tests read it without a screen. ``$ref`` is resolved locally only (``#/$defs/...``, ``#/definitions/...`` and any
other JSON pointer into the same document); a remote ``$ref`` is never fetched and, like a ``$ref`` cycle or any
schema a form cannot express, becomes a ``json`` field: a JSON editor validated against the schema.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal
from urllib.parse import unquote

from inspector.protocol.elicitation_schema import unsupported_reason
from inspector.protocol.json_values import json_int, json_number

Kind = Literal["string", "number", "integer", "boolean", "enum", "multi", "object", "array", "choice", "json"]
"""What a field is rendered as. ``enum``: pick one of ``options``; ``multi``: pick several; ``choice``: pick one
of ``variants`` (an ``anyOf``/``oneOf`` of different shapes) and fill it in; ``json``: edit the value as JSON."""

Path = tuple[str | int, ...]
"""Where a value sits in the arguments: property names and array indexes."""

MAX_DEPTH: Final = 8
"""Deeper schemas are edited as JSON: a form nested further than this is not readable in a terminal."""

_PRIMITIVE_TYPES: Final = ("string", "number", "integer", "boolean")


class _Missing:
    """The value of a field that is left empty and so omitted from the arguments."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Final = _Missing()
"""Sentinel: no value (an empty optional field, or a schema with no default)."""


@dataclass(frozen=True, slots=True)
class Option:
    """One choice of an ``enum`` or ``multi`` field: the JSON value sent and the label shown."""

    value: Any
    label: str


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One field of a form, built from one (sub)schema. An ``object`` field holds the others in ``fields``."""

    kind: Kind
    name: str = ""
    """The property name ("" for the root and for array items)."""
    title: str = ""
    """The label: the schema's ``title``, else the property name."""
    description: str = ""
    required: bool = False
    nullable: bool = False
    """The schema also allows ``null`` (``type: [..., "null"]`` or an ``anyOf`` branch); the form offers it."""
    default: Any = MISSING
    format: str | None = None
    min_length: int | None = None
    max_length: int | None = None
    minimum: float | None = None
    maximum: float | None = None
    options: tuple[Option, ...] = ()
    fields: tuple[FieldSpec, ...] = ()
    item: FieldSpec | None = None
    variants: tuple[FieldSpec, ...] = ()
    schema: Mapping[str, Any] = field(default_factory=dict)
    """The (ref-resolved at this level) schema the field was built from."""
    reason: str = ""
    """For a ``json`` field: why the form cannot express it, shown above the editor."""

    @property
    def label(self) -> str:
        """The title if there is one, else the name, else the kind."""
        return self.title or self.name or self.kind


# --------------------------------------------------------------------------------------------- public builders
def elicitation_spec(requested_schema: object) -> FieldSpec:
    """The form for an elicitation ``requestedSchema``; the whole answer is a JSON editor when the spec forbids it."""
    reason = unsupported_reason(requested_schema)
    if reason is not None:
        root = requested_schema if isinstance(requested_schema, Mapping) else {}
        return FieldSpec("json", schema=root, required=True, reason=reason)
    assert isinstance(requested_schema, Mapping)
    return form_spec(requested_schema)


def form_spec(schema: object) -> FieldSpec:
    """The form for a tool's ``inputSchema``: an ``object`` field, or a ``json`` field when it cannot be a form."""
    root = schema if isinstance(schema, Mapping) else {}
    spec = _Builder(root).build(root, name="", required=True, depth=0)
    if spec.kind not in ("object", "json"):
        return FieldSpec("json", schema=root, required=True, reason="the input schema is not an object")
    return spec


def prompt_spec(prompt: Mapping[str, Any]) -> FieldSpec:
    """The form for a prompt: one string field per declared argument (prompt arguments are always strings)."""
    fields = []
    arguments = prompt.get("arguments")
    for argument in arguments if isinstance(arguments, list) else []:
        if not isinstance(argument, Mapping) or not isinstance(argument.get("name"), str):
            continue
        name = str(argument["name"])
        fields.append(
            FieldSpec(
                "string",
                name=name,
                title=_text(argument.get("title")) or name,
                description=_text(argument.get("description")),
                required=argument.get("required") is True,
                schema={"type": "string"},
            )
        )
    required = [f.name for f in fields if f.required]
    schema = {"type": "object", "properties": {f.name: {"type": "string"} for f in fields}, "required": required}
    return FieldSpec("object", fields=tuple(fields), required=True, schema=schema)


# --------------------------------------------------------------------------------------------- the builder
class _Builder:
    """Turns one root schema into a FieldSpec tree, resolving local ``$ref``s against that root."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root
        self.stack: list[str] = []

    def build(self, schema: object, *, name: str, required: bool, depth: int) -> FieldSpec:
        if schema is True or schema == {}:
            return self._json(schema, name, required, "any JSON value is accepted")
        if not isinstance(schema, Mapping):
            return self._json({}, name, required, "the schema is not an object")
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return self._ref(schema, ref, name=name, required=required, depth=depth)
        if depth > MAX_DEPTH:
            return self._json(schema, name, required, f"nested deeper than {MAX_DEPTH} levels")
        stripped, nullable = _without_null(schema)
        if nullable:
            return replace(self.build(stripped, name=name, required=required, depth=depth), nullable=True)
        base = FieldSpec(
            "json",
            name=name,
            title=_text(schema.get("title")) or name,
            description=_text(schema.get("description")),
            required=required,
            default=schema.get("default", MISSING),
            schema=schema,
        )
        return self._shape(schema, base, depth)

    def _ref(self, schema: Mapping[str, Any], ref: str, *, name: str, required: bool, depth: int) -> FieldSpec:
        if not ref.startswith("#"):
            return self._json(schema, name, required, f"remote $ref {ref!r} is not fetched")
        if ref in self.stack:
            return self._json(schema, name, required, f"$ref {ref!r} refers to itself (a recursive schema)")
        target = _pointer(self.root, ref[1:])
        if not isinstance(target, Mapping):
            return self._json(schema, name, required, f"$ref {ref!r} does not resolve in this schema")
        merged = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        self.stack.append(ref)
        try:
            return self.build(merged, name=name, required=required, depth=depth)
        finally:
            self.stack.pop()

    def _shape(self, schema: Mapping[str, Any], base: FieldSpec, depth: int) -> FieldSpec:
        if "const" in schema:
            return replace(base, kind="enum", options=(Option(schema["const"], _value_label(schema["const"])),))
        if isinstance(schema.get("enum"), list) and schema["enum"]:
            return replace(base, kind="enum", options=_enum_options(schema))
        for keyword in ("oneOf", "anyOf"):
            branches = schema.get(keyword)
            if isinstance(branches, list) and branches:
                consts = _const_options(branches)
                if consts is not None:
                    return replace(base, kind="enum", options=consts)
                return self._choice(base, branches, depth)
        if "allOf" in schema or "not" in schema or "if" in schema:
            return replace(base, reason="allOf/not/if combinations cannot be shown as a form")
        kind = schema.get("type")
        if kind is None and "properties" in schema:
            kind = "object"
        if isinstance(kind, list):
            if len(kind) == 1:
                kind = kind[0]
            else:
                variants = [{**schema, "type": one, "title": one} for one in kind]
                return self._choice(base, variants, depth)
        if kind in _PRIMITIVE_TYPES:
            return _primitive(base, schema, str(kind))
        if kind == "null":
            return replace(base, kind="enum", options=(Option(None, "null"),))
        if kind == "object":
            return self._object(base, schema, depth)
        if kind == "array":
            return self._array(base, schema, depth)
        if kind is None:
            return replace(base, reason="the schema does not say what type the value has")
        return replace(base, reason=f"unknown type {kind!r}")

    def _choice(self, base: FieldSpec, branches: list[Any], depth: int) -> FieldSpec:
        variants = []
        for number, branch in enumerate(branches, start=1):
            spec = self.build(branch, name=base.name, required=True, depth=depth + 1)
            title = spec.title if spec.title and spec.title != base.name else ""
            variants.append(replace(spec, title=title or _kind_label(spec) or f"option {number}"))
        return replace(base, kind="choice", variants=tuple(variants))

    def _object(self, base: FieldSpec, schema: Mapping[str, Any], depth: int) -> FieldSpec:
        properties = schema.get("properties")
        if not isinstance(properties, Mapping) or not properties:
            # No declared properties: "no arguments" for a tool (the root) or an explicit empty "properties";
            # a free-form map (nested, or with an additionalProperties schema) is edited as JSON.
            free_form = isinstance(schema.get("additionalProperties"), Mapping) or "patternProperties" in schema
            if not free_form and (depth == 0 or isinstance(properties, Mapping)):
                return replace(base, kind="object")
            return replace(base, reason="an object with free-form keys")
        required = schema.get("required")
        required_names = {n for n in required if isinstance(n, str)} if isinstance(required, list) else set()
        fields = tuple(
            self.build(prop, name=str(key), required=key in required_names, depth=depth + 1)
            for key, prop in properties.items()
        )
        return replace(base, kind="object", fields=fields)

    def _array(self, base: FieldSpec, schema: Mapping[str, Any], depth: int) -> FieldSpec:
        items = schema.get("items")
        if "prefixItems" in schema or not isinstance(items, Mapping) or not items:
            return replace(base, reason="an array whose items have no single schema")
        item = self.build(items, name="", required=True, depth=depth + 1)
        if item.kind == "enum" and not item.nullable and schema.get("uniqueItems") is not False:
            return replace(base, kind="multi", options=item.options)
        return replace(base, kind="array", item=item)

    @staticmethod
    def _json(schema: object, name: str, required: bool, reason: str) -> FieldSpec:
        mapping = schema if isinstance(schema, Mapping) else {}
        title = _text(mapping.get("title")) or name
        description = _text(mapping.get("description"))
        default = mapping.get("default", MISSING)
        return FieldSpec(
            "json",
            name=name,
            title=title,
            description=description,
            required=required,
            default=default,
            schema=mapping,
            reason=reason,
        )


# --------------------------------------------------------------------------------------------- helpers
def _primitive(base: FieldSpec, schema: Mapping[str, Any], kind: str) -> FieldSpec:
    if kind == "string":
        fmt = schema.get("format")
        return replace(
            base,
            kind="string",
            format=fmt if isinstance(fmt, str) else None,
            min_length=json_int(schema.get("minLength")),
            max_length=json_int(schema.get("maxLength")),
        )
    if kind in ("number", "integer"):
        return replace(
            base,
            kind="integer" if kind == "integer" else "number",
            minimum=_number(schema.get("minimum")),
            maximum=_number(schema.get("maximum")),
        )
    return replace(base, kind="boolean")


def _without_null(schema: Mapping[str, Any]) -> tuple[Mapping[str, Any], bool]:
    """The schema with its ``null`` alternative removed, and whether it had one."""
    kind = schema.get("type")
    if isinstance(kind, list) and "null" in kind and len(kind) > 1:
        rest = [k for k in kind if k != "null"]
        return {**schema, "type": rest[0] if len(rest) == 1 else rest}, True
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if not isinstance(branches, list):
            continue
        nulls = [b for b in branches if isinstance(b, Mapping) and (b.get("type") == "null" or b == {"const": None})]
        if not nulls or len(nulls) == len(branches):
            continue
        rest = [b for b in branches if b not in nulls]
        outer = {k: v for k, v in schema.items() if k != keyword}
        if len(rest) == 1 and isinstance(rest[0], Mapping):
            return {**rest[0], **outer}, True
        return {**outer, keyword: rest}, True
    return schema, False


def _enum_options(schema: Mapping[str, Any]) -> tuple[Option, ...]:
    values = schema["enum"]
    names = schema.get("enumNames")
    labels = names if isinstance(names, list) and len(names) == len(values) else None
    return tuple(
        Option(value, _text(labels[i]) if labels is not None else _value_label(value)) for i, value in enumerate(values)
    )


def _const_options(branches: list[Any]) -> tuple[Option, ...] | None:
    """Options when every branch is ``{"const": ..., "title"?: ...}``; None otherwise."""
    options = []
    for branch in branches:
        if not isinstance(branch, Mapping) or "const" not in branch:
            return None
        options.append(Option(branch["const"], _text(branch.get("title")) or _value_label(branch["const"])))
    return tuple(options)


def _kind_label(spec: FieldSpec) -> str:
    return {"object": "object", "array": "list", "multi": "list", "json": "JSON"}.get(spec.kind, spec.kind)


def _value_label(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _number(value: object) -> float | None:
    number = json_number(value)
    return float(number) if number is not None else None


def _pointer(document: object, pointer: str) -> object:
    """Resolve a JSON pointer (RFC 6901, URI-fragment encoded) inside ``document``; None when it does not."""
    node = document
    for raw in unquote(pointer).split("/")[1:] if pointer else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


__all__ = [
    "MISSING",
    "FieldSpec",
    "Kind",
    "Option",
    "Path",
    "elicitation_spec",
    "form_spec",
    "prompt_spec",
    "unsupported_reason",
]
