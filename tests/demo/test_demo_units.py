"""The demo server's pieces without a subprocess: schemas, requestState encoding, HTTP host policy, tool list."""

from __future__ import annotations

import base64
import json

import pytest
from mcp_types._v2026_07_28 import PrimitiveSchemaDefinition  # the SDK's own per-version schema models
from pydantic import TypeAdapter

from inspector.demo.era_vocabulary import encode_state
from inspector.demo.schemas import MEETING_SCHEMA, RESOLUTION_SCHEMA, RESOLUTIONS
from inspector.demo.server import build_server, run_http

PRIMITIVE = TypeAdapter(PrimitiveSchemaDefinition)


def test_meeting_form_uses_every_primitive_schema_shape() -> None:
    properties = MEETING_SCHEMA["properties"]
    shapes = {type(PRIMITIVE.validate_python(schema)).__name__ for schema in properties.values()}
    assert shapes == {
        "StringSchema",
        "NumberSchema",
        "BooleanSchema",
        "UntitledSingleSelectEnumSchema",
        "TitledSingleSelectEnumSchema",
        "UntitledMultiSelectEnumSchema",
        "TitledMultiSelectEnumSchema",
    }
    assert {schema.get("format") for schema in properties.values()} >= {"email", "date", "uri", "date-time"}
    assert {schema["type"] for schema in properties.values()} == {"string", "integer", "number", "boolean", "array"}
    assert sum("default" in schema for schema in properties.values()) >= 5
    assert set(MEETING_SCHEMA["required"]) <= set(properties)


def test_resolution_enum_is_the_sep_example() -> None:
    assert RESOLUTION_SCHEMA["properties"]["resolution"]["enum"] == ["Fixed", "Won't Fix", "Duplicate", "By Design"]
    assert RESOLUTIONS == ("Fixed", "Won't Fix", "Duplicate", "By Design")


def test_state_is_unpadded_base64url_json() -> None:
    state = encode_state({"location": "New York"})
    assert "=" not in state
    assert json.loads(base64.urlsafe_b64decode(state + "=" * (-len(state) % 4))) == {"location": "New York"}


@pytest.mark.parametrize("host", ["0.0.0.0", "localhost", "::1", "192.168.1.10"])
def test_http_only_on_loopback_ip(host: str) -> None:
    with pytest.raises(ValueError, match=r"only listens on 127\.0\.0\.1"):
        run_http(0, host)


async def test_tool_output_schemas_hide_input_required() -> None:
    tools = {tool.name: tool for tool in await build_server().list_tools()}
    assert tools["get_weather"].output_schema is not None
    assert tools["get_weather"].output_schema["properties"] == {"result": {"title": "Result", "type": "string"}}
    assert set(tools["update_work_item"].input_schema["properties"]) == {"workItemId", "fields"}
