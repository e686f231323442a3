"""Validating what a form shows against its JSON Schema, error by field path, worded for a person.

The validator is the answers' own (``answers.validation.offline_validator``): the same formats, and the registry of
the JSON Schema meta-schemas alone, so a server's schema never makes the inspector fetch anything (a remote ``$ref``
is reported as not checked, never retrieved), and a form refuses exactly what the answer check would refuse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from jsonschema.exceptions import ValidationError, best_match
from referencing.exceptions import Unresolvable

from inspector.answers.validation import offline_validator

if TYPE_CHECKING:
    from collections.abc import Mapping

    from inspector.protocol.schema_form import Path

REQUIRED: Final = "required"
"""The message shown under a required field left empty."""

TYPES: Final = {
    "string": "text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object",
    "null": "null",
}
FORMATS: Final = {
    "email": "not an email address",
    "date": "not a date (2026-08-03)",
    "date-time": "not a date and time (2026-08-03T10:00:00Z)",
    "time": "not a time (10:00:00)",
    "uri": "not a URI (https://example.com/...)",
    "uri-reference": "not a URI reference",
    "ipv4": "not an IPv4 address",
    "ipv6": "not an IPv6 address",
    "hostname": "not a host name",
    "uuid": "not a UUID",
}
"""What a person is told when a value is not in a ``format``."""


WORDS: Final = {
    "minLength": "at least {value} characters",
    "maxLength": "at most {value} characters",
    "minimum": "at least {value}",
    "maximum": "at most {value}",
    "exclusiveMinimum": "more than {value}",
    "exclusiveMaximum": "less than {value}",
    "multipleOf": "a multiple of {value}",
    "minItems": "choose at least {value}",
    "maxItems": "choose at most {value}",
    "uniqueItems": "the same item is chosen twice",
    "const": "must be {value}",
    "pattern": "must match {value}",
}
"""The other messages, by keyword (``{value}`` is the schema's bound)."""


def humane(error: ValidationError) -> str:
    """The message under a field, in words a person uses ("not an email address", "at most 50"), rather than
    jsonschema's (``'x' is not a 'email'``); what has no plain wording keeps jsonschema's."""
    value, kind = error.validator_value, str(error.validator)
    if kind == "type":
        names = value if isinstance(value, list) else [value]
        return "must be " + " or ".join(TYPES.get(str(name), str(name)) for name in names)
    if kind == "format":
        return FORMATS.get(str(value), f"not a valid {value}")
    if kind == "enum" and isinstance(value, list):
        return "one of: " + ", ".join(str(option) for option in value)
    if kind in WORDS:
        worded = WORDS[kind].format(value=value)
        return worded.replace(" characters", " character") if value == 1 else worded
    return error.message


def schema_errors(schema: Mapping[str, Any], value: Any) -> dict[Path, str]:
    """Each path in ``value`` that fails ``schema``, with its first message; {} when valid.

    A missing required property is reported at its own path. An ``anyOf``/``oneOf`` failure is reported where the
    best-matching branch failed, so the message lands on the field the user can fix. A schema that is itself
    invalid judges nothing (the server's bug, not the user's); an unresolvable ``$ref`` stops the check there.
    """
    validator = offline_validator(schema)
    if validator is None:
        return {}
    errors: dict[Path, str] = {}
    found = validator.iter_errors(value)
    while True:
        try:
            error = next(found)
        except StopIteration:
            break
        except Unresolvable as exc:
            errors.setdefault((), f"not fully checked: {exc} is not fetched")
            break
        _record(_leaf(error), errors)
    return errors


@dataclass(frozen=True, slots=True)
class ObjectCheck:
    """A form's check (``FormView``'s ``check``): the value must be a JSON object that passes ``schema``, with the
    same checker as the answer's before it is sent, each error worded for a person and put under its field."""

    schema: Mapping[str, Any]
    what: str
    """What the object is, for the message when the value is not one ("the arguments")."""

    def __call__(self, value: Any) -> dict[Path, str]:
        if not isinstance(value, dict):
            return {(): f"{self.what} must be a JSON object"}
        return schema_errors(self.schema, value)


def sub_schema(root: Mapping[str, Any], node: Mapping[str, Any]) -> dict[str, Any]:
    """``node`` made checkable on its own: the root's ``$defs``/``definitions`` carried along for its ``$ref``s."""
    carried = {key: root[key] for key in ("$defs", "definitions") if key in root and key not in node}
    return {**node, **carried}


def _leaf(error: ValidationError) -> ValidationError:
    while error.context:
        chosen = best_match(error.context)
        if chosen is None:
            break
        error = chosen
    return error


def _record(error: ValidationError, errors: dict[Path, str]) -> None:
    path: Path = tuple(error.absolute_path)
    if error.validator == "required" and isinstance(error.instance, dict):
        names = error.validator_value if isinstance(error.validator_value, list) else []
        for name in names:
            if name not in error.instance:
                errors.setdefault((*path, str(name)), REQUIRED)
        return
    errors.setdefault(path, humane(error))
