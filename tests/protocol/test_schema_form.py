"""JSON Schema -> form spec: every shape the composer and the elicitation form render, and every fallback."""

from __future__ import annotations

from typing import Any

import pytest

from inspector.demo.schemas import MEETING_SCHEMA
from inspector.protocol.form_values import matches_kind, parse_text, placeholder, typing_error, value_text
from inspector.protocol.schema_form import (
    MISSING,
    FieldSpec,
    elicitation_spec,
    form_spec,
    prompt_spec,
    unsupported_reason,
)

NESTED: dict[str, Any] = {
    "type": "object",
    "$defs": {
        "Address": {
            "type": "object",
            "title": "Address",
            "properties": {"city": {"type": "string"}, "zip": {"type": ["string", "null"]}},
            "required": ["city"],
        },
        "Node": {"type": "object", "properties": {"label": {"type": "string"}, "next": {"$ref": "#/$defs/Node"}}},
    },
    "properties": {
        "address": {"$ref": "#/$defs/Address"},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 4},
        "stops": {"type": "array", "items": {"$ref": "#/$defs/Address"}},
        "who": {"anyOf": [{"type": "string", "title": "Name"}, {"type": "integer", "title": "Id"}]},
        "maybe": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}], "default": None},
        "node": {"$ref": "#/$defs/Node"},
        "remote": {"$ref": "https://example.com/schema.json"},
        "colour": {"enum": ["red", "green"]},
        "free": {"type": "object"},
        "anything": {},
    },
    "required": ["address"],
}


def by_name(spec: FieldSpec) -> dict[str, FieldSpec]:
    return {f.name: f for f in spec.fields}


def test_nested_schema_resolves_local_refs_and_marks_required() -> None:
    fields = by_name(form_spec(NESTED))
    address = fields["address"]
    assert address.kind == "object" and address.required and address.title == "Address"
    city, zip_code = address.fields
    assert (city.name, city.kind, city.required) == ("city", "string", True)
    assert (zip_code.kind, zip_code.nullable, zip_code.required) == ("string", True, False)
    assert fields["tags"].kind == "array" and fields["tags"].item is not None
    assert fields["tags"].item.kind == "string" and fields["tags"].schema["maxItems"] == 4
    stops = fields["stops"]
    assert stops.kind == "array" and stops.item is not None and stops.item.kind == "object"


def test_anyof_of_shapes_is_a_choice_and_null_branch_is_nullable() -> None:
    fields = by_name(form_spec(NESTED))
    who = fields["who"]
    assert who.kind == "choice"
    assert [(v.kind, v.title) for v in who.variants] == [("string", "Name"), ("integer", "Id")]
    maybe = fields["maybe"]
    assert (maybe.kind, maybe.nullable, maybe.default) == ("object", True, None)


def test_ref_cycle_remote_ref_and_free_form_fall_back_to_json() -> None:
    fields = by_name(form_spec(NESTED))
    next_node = by_name(fields["node"])["next"]
    assert next_node.kind == "json" and "refers to itself" in next_node.reason
    assert fields["remote"].kind == "json" and "not fetched" in fields["remote"].reason
    assert fields["free"].kind == "json" and "free-form" in fields["free"].reason
    assert fields["anything"].kind == "json"
    assert fields["colour"].kind == "enum"


def test_no_properties_means_no_arguments_at_the_root() -> None:
    for schema in ({"type": "object"}, {"type": "object", "properties": {}}):
        spec = form_spec(schema)
        assert (spec.kind, spec.fields) == ("object", ())
    nested = form_spec({"type": "object", "properties": {"opts": {"type": "object", "properties": {}}}})
    assert nested.fields[0].kind == "object"
    assert form_spec({"type": "object", "additionalProperties": {"type": "integer"}}).kind == "json"


def test_non_object_input_schema_is_a_json_editor() -> None:
    assert form_spec({"type": "string"}).kind == "json"
    assert form_spec(None).kind == "json"
    assert form_spec({"type": "object", "allOf": [{}, {}]}).kind == "json"


def test_meeting_schema_every_elicitation_type() -> None:
    spec = elicitation_spec(MEETING_SCHEMA)
    assert spec.kind == "object"
    fields = by_name(spec)
    assert {n: f.kind for n, f in fields.items()} == {
        "title": "string",
        "organizer": "string",
        "day": "string",
        "starts_at": "string",
        "agenda_url": "string",
        "attendees": "integer",
        "duration_hours": "number",
        "remote": "boolean",
        "room": "enum",
        "priority": "enum",
        "equipment": "multi",
        "teams": "multi",
    }
    assert fields["title"].default == "Sprint review" and fields["title"].min_length == 3
    assert fields["organizer"].format == "email" and fields["organizer"].required
    assert (fields["attendees"].minimum, fields["attendees"].maximum) == (1, 50)
    assert (fields["priority"].options[0].value, fields["priority"].options[0].label) == ("p0", "Urgent")
    assert [o.label for o in fields["teams"].options] == ["Engineering", "Design", "Sales"]
    assert fields["equipment"].schema["minItems"] == 1 and fields["equipment"].default == ["whiteboard"]


def test_legacy_enum_names_label_the_options() -> None:
    schema = {
        "type": "object",
        "properties": {"size": {"type": "string", "enum": ["s", "l"], "enumNames": ["Small", "Large"]}},
    }
    assert unsupported_reason(schema) is None
    (size,) = elicitation_spec(schema).fields
    assert [(o.value, o.label) for o in size.options] == [("s", "Small"), ("l", "Large")]


@pytest.mark.parametrize(
    ("schema", "fragment"),
    [
        ({"type": "object", "properties": {"a": {"type": "object", "properties": {}}}}, "nested objects"),
        ({"type": "object", "properties": {"a": {"type": "date"}}}, "unknown type"),
        ({"type": "object", "properties": {"a": {"type": "array", "items": {"type": "object"}}}}, "arrays of enum"),
        ({"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}}}, "$ref"),
        ({"type": "object", "properties": {"a": {"type": "string", "allOf": [{"$ref": "https://x.test/s"}]}}}, "$ref"),
        ({"type": "object", "properties": {"a": {"type": "string", "format": "ipv4"}}}, "format"),
        ({"type": "array"}, '"type": "object"'),
        ("nope", "not a JSON object"),
    ],
)
def test_unsupported_requested_schemas_get_a_reason_and_a_json_editor(schema: object, fragment: str) -> None:
    reason = unsupported_reason(schema)
    assert reason is not None and fragment in reason
    assert elicitation_spec(schema).kind == "json"


def test_prompt_arguments_are_strings() -> None:
    spec = prompt_spec({"name": "p", "arguments": [{"name": "topic", "required": True}, {"name": "tone"}]})
    assert [(f.name, f.kind, f.required) for f in spec.fields] == [("topic", "string", True), ("tone", "string", False)]
    assert spec.schema["required"] == ["topic"]


def test_parse_text_by_kind() -> None:
    integer = FieldSpec("integer")
    number = FieldSpec("number")
    assert parse_text(FieldSpec("string"), "") is MISSING
    assert parse_text(FieldSpec("string"), " a ") == " a "
    assert parse_text(integer, " 42 ") == 42
    assert parse_text(number, "2") == 2 and isinstance(parse_text(number, "2"), int)
    assert parse_text(number, "0.25") == 0.25
    assert parse_text(number, "") is MISSING
    for bad, spec in (("4.5", integer), ("abc", number), ("inf", number), ("nan", number)):
        with pytest.raises(ValueError):
            parse_text(spec, bad)


def test_an_integer_field_names_a_fraction_as_it_is_typed() -> None:
    integer = FieldSpec("integer")
    with pytest.raises(ValueError, match=r"^3\.5 is not an integer \(a whole number\)$"):
        parse_text(integer, "3.5")
    with pytest.raises(ValueError, match=r"^must be a whole number$"):
        parse_text(integer, "abc")
    assert typing_error(integer, "3.5") == "3.5 is not an integer (a whole number)"
    assert typing_error(integer, "1e3") == "1e3 is not an integer (a whole number)"
    # Half typed, or right: nothing to say yet.
    assert typing_error(integer, "-") is None and typing_error(integer, "35") is None
    assert typing_error(FieldSpec("number"), "3.5") is None


def test_text_helpers() -> None:
    assert value_text(MISSING) == "" and value_text(3) == "3" and value_text("x") == "x"
    assert placeholder(FieldSpec("string", format="date")) == "YYYY-MM-DD"
    assert placeholder(FieldSpec("integer", minimum=1, maximum=50)) == "whole number 1…50"
    assert matches_kind(FieldSpec("integer"), 3) and not matches_kind(FieldSpec("integer"), 3.5)
    assert not matches_kind(FieldSpec("number"), True)
