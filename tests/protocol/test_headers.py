"""Header encoding and x-mcp-header rules, checked against the official conformance scenarios and the SDK.

The cases mirror modelcontextprotocol/conformance `http-standard-headers`, `http-custom-headers` and
`http-invalid-tool-headers`, and the spec's encoding table (streamable-http.mdx, "Value Encoding").
"""

from __future__ import annotations

import base64
from typing import Any

import pytest
from mcp.shared import inbound

from inspector.protocol.headers import (
    decode_header_value,
    encode_header_value,
    protocol_headers,
    render_param_value,
    x_mcp_header_problems,
)

SPEC_TABLE = [
    ("us-west1", "us-west1"),
    ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
    (" padded ", "=?base64?IHBhZGRlZCA=?="),
    ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="),
    ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
]


@pytest.mark.parametrize(("value", "encoded"), SPEC_TABLE)
def test_spec_encoding_table(value: str, encoded: str) -> None:
    assert encode_header_value(value) == encoded
    assert decode_header_value(encoded) == value


# The http-custom-headers argument set: which need the sentinel per the scenario's needsBase64Encoding().
CONFORMANCE_VALUES = {
    "us-west1": False,
    "": False,
    "test-method": False,
    "Hello, 世界": True,
    " padded ": True,
    " us-west1": True,
    "us-west1 ": True,
    "us west 1": False,
    "line1\nline2": True,
    "line1\r\nline2": True,
    "\tindented": True,
    "in\tside": True,
    "SELECT * FROM users": False,
    "~!@#$%^&*()_+{}|:<>?": False,
    "\x7f": True,
}


@pytest.mark.parametrize(("value", "encoded"), CONFORMANCE_VALUES.items())
def test_conformance_encoding_decisions(value: str, encoded: bool) -> None:
    header = encode_header_value(value)
    assert header.startswith("=?base64?") is encoded
    assert decode_header_value(header) == value
    # Same verdict and bytes as the official Python SDK's codec.
    assert header == inbound.encode_header_value(value)


def test_decode_rejects_a_corrupt_sentinel_and_passes_plain_values() -> None:
    assert decode_header_value("=?base64?!!!?=") is None
    assert decode_header_value("=?base64?" + base64.b64encode(b"\xff").decode() + "?=") is None
    assert decode_header_value("plain value") == "plain value"


def test_rendering_of_argument_values() -> None:
    assert render_param_value("x") == "x"
    assert render_param_value(42) == "42"
    assert render_param_value(-7) == "-7"
    assert render_param_value(42.0) == "42"
    assert render_param_value(True) == "true"
    assert render_param_value(False) == "false"
    assert render_param_value(None) is None
    assert render_param_value({"a": 1}) is None
    assert render_param_value([1]) is None


def test_standard_headers_per_method() -> None:
    assert protocol_headers("tools/list", {}, "2026-07-28", None) == {
        "Mcp-Method": "tools/list",
        "MCP-Protocol-Version": "2026-07-28",
    }
    assert protocol_headers("tools/call", {"name": "get_weather"}, None, None) == {
        "Mcp-Method": "tools/call",
        "Mcp-Name": "get_weather",
    }
    assert protocol_headers("prompts/get", {"name": "greet"}, None, None)["Mcp-Name"] == "greet"
    uri = "file:///projects/myapp/config.json"
    assert protocol_headers("resources/read", {"uri": uri}, None, None)["Mcp-Name"] == uri
    for method in ("tasks/get", "tasks/update", "tasks/cancel"):
        assert protocol_headers(method, {"taskId": "t-1"}, None, None)["Mcp-Name"] == "t-1"
    assert "Mcp-Name" not in protocol_headers("tasks/list", {"taskId": "t-1"}, None, None)
    assert "Mcp-Name" not in protocol_headers("tools/call", {"name": 3}, None, None)
    assert "Mcp-Name" not in protocol_headers("tools/call", None, None, None)


def test_non_ascii_names_and_uris_use_the_sentinel() -> None:
    headers = protocol_headers("resources/read", {"uri": "file:///données/é.txt"}, "2026-07-28", None)
    assert headers["Mcp-Name"].startswith("=?base64?")
    assert decode_header_value(headers["Mcp-Name"]) == "file:///données/é.txt"


CUSTOM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "priority": {"type": "integer", "x-mcp-header": "Priority"},
        "verbose": {"type": "boolean", "x-mcp-header": "Verbose"},
        "debug": {"type": "boolean", "x-mcp-header": "Debug"},
        "empty_val": {"type": "string", "x-mcp-header": "EmptyVal"},
        "method_val": {"type": "string", "x-mcp-header": "Method"},
        "float_val": {"type": "number"},
        "non_ascii_val": {"type": "string", "x-mcp-header": "NonAscii"},
        "whitespace_val": {"type": "string", "x-mcp-header": "Whitespace"},
        "internal_space_val": {"type": "string", "x-mcp-header": "InternalSpace"},
        "control_char_val": {"type": "string", "x-mcp-header": "ControlChar"},
        "crlf_val": {"type": "string", "x-mcp-header": "CrLf"},
        "tab_val": {"type": "string", "x-mcp-header": "Tab"},
        "query": {"type": "string"},
    },
    "required": ["region", "priority", "query"],
}


def test_custom_headers_like_the_conformance_scenario() -> None:
    arguments = {
        "region": "us-west1",
        "priority": 42,
        "verbose": False,
        "debug": True,
        "empty_val": "",
        "method_val": "test-method",
        "float_val": 3.14159,
        "non_ascii_val": "Hello, 世界",
        "whitespace_val": " padded ",
        "internal_space_val": "us west 1",
        "control_char_val": "line1\nline2",
        "crlf_val": "line1\r\nline2",
        "tab_val": "\tindented",
        "query": "SELECT * FROM users",
    }
    assert x_mcp_header_problems(CUSTOM_SCHEMA) == []
    headers = protocol_headers(
        "tools/call", {"name": "test_custom_headers", "arguments": arguments}, "2026-07-28", CUSTOM_SCHEMA
    )
    assert headers["Mcp-Method"] == "tools/call"
    assert headers["Mcp-Name"] == "test_custom_headers"
    assert headers["Mcp-Param-Region"] == "us-west1"
    assert headers["Mcp-Param-Priority"] == "42"
    assert headers["Mcp-Param-Verbose"] == "false"
    assert headers["Mcp-Param-Debug"] == "true"
    assert headers["Mcp-Param-EmptyVal"] == ""
    assert headers["Mcp-Param-Method"] == "test-method"
    assert headers["Mcp-Param-InternalSpace"] == "us west 1"
    for name, value in [
        ("NonAscii", "Hello, 世界"),
        ("Whitespace", " padded "),
        ("ControlChar", "line1\nline2"),
        ("CrLf", "line1\r\nline2"),
        ("Tab", "\tindented"),
    ]:
        assert headers[f"Mcp-Param-{name}"].startswith("=?base64?")
        assert decode_header_value(headers[f"Mcp-Param-{name}"]) == value
    # An unannotated number and an unannotated string are never mirrored.
    assert not any(key.lower() in {"mcp-param-floatval", "mcp-param-query"} for key in headers)
    # Same header set as the official SDK builds.
    sdk = inbound.mcp_param_headers(inbound.x_mcp_header_map(CUSTOM_SCHEMA), arguments)
    assert {k: v for k, v in headers.items() if k.startswith("Mcp-Param-")} == sdk


def test_null_and_absent_values_omit_the_header() -> None:
    headers = protocol_headers(
        "tools/call",
        {"name": "test_custom_headers_null", "arguments": {"region": "us-east1", "priority": 1, "verbose": None}},
        "2026-07-28",
        CUSTOM_SCHEMA,
    )
    assert "Mcp-Param-Verbose" not in headers
    assert "Mcp-Param-Debug" not in headers
    assert headers["Mcp-Param-Priority"] == "1"


def test_nested_properties_chain_is_followed() -> None:
    schema = {
        "type": "object",
        "properties": {
            "options": {
                "type": "object",
                "properties": {"limit": {"type": "integer", "x-mcp-header": "Limit"}},
            }
        },
    }
    assert x_mcp_header_problems(schema) == []
    headers = protocol_headers("tools/call", {"name": "t", "arguments": {"options": {"limit": 5}}}, None, schema)
    assert headers["Mcp-Param-Limit"] == "5"
    headers = protocol_headers("tools/call", {"name": "t", "arguments": {"options": 3}}, None, schema)
    assert "Mcp-Param-Limit" not in headers


def _tool(properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, **extra}


INVALID_TOOLS: dict[str, dict[str, Any]] = {
    # The http-invalid-tool-headers scenario's tools, verbatim.
    "invalid_empty_header": _tool({"value": {"type": "string", "x-mcp-header": ""}}),
    "invalid_object_header": _tool({"data": {"type": "object", "x-mcp-header": "Data"}}),
    "invalid_array_header": _tool({"items": {"type": "array", "items": {"type": "string"}, "x-mcp-header": "Items"}}),
    "invalid_null_header": _tool({"nil": {"type": "null", "x-mcp-header": "Nil"}}),
    "invalid_duplicate_same_case": _tool(
        {"field1": {"type": "string", "x-mcp-header": "Region"}, "field2": {"type": "string", "x-mcp-header": "Region"}}
    ),
    "invalid_duplicate_diff_case": _tool(
        {
            "field1": {"type": "string", "x-mcp-header": "MyField"},
            "field2": {"type": "string", "x-mcp-header": "myfield"},
        }
    ),
    "invalid_space_in_name": _tool({"value": {"type": "string", "x-mcp-header": "My Region"}}),
    "invalid_colon_in_name": _tool({"value": {"type": "string", "x-mcp-header": "Region:Primary"}}),
    "invalid_non_ascii_name": _tool({"value": {"type": "string", "x-mcp-header": "Région"}}),
    "invalid_control_char_name": _tool({"value": {"type": "string", "x-mcp-header": "Region\t1"}}),
    # Spec rules the scenario does not cover.
    "number_type": _tool({"n": {"type": "number", "x-mcp-header": "N"}}),
    "no_type": _tool({"n": {"x-mcp-header": "N"}}),
    "ref_type": _tool({"r": {"$ref": "#/$defs/R", "x-mcp-header": "R"}}, **{"$defs": {"R": {"type": "string"}}}),
    "inside_items": _tool({"list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}}}),
    "inside_anyof": _tool({"a": {"anyOf": [{"type": "string", "x-mcp-header": "A"}]}}),
    "inside_oneof": _tool({"a": {"oneOf": [{"type": "string", "x-mcp-header": "A"}]}}),
    "inside_allof": _tool({"a": {"allOf": [{"type": "string", "x-mcp-header": "A"}]}}),
    "inside_defs": _tool({}, **{"$defs": {"R": {"type": "string", "x-mcp-header": "R"}}}),
    "on_root": {"type": "object", "x-mcp-header": "Root", "properties": {}},
    "non_string_name": _tool({"n": {"type": "string", "x-mcp-header": 7}}),
}


@pytest.mark.parametrize("name", INVALID_TOOLS)
def test_invalid_tools_are_reported(name: str) -> None:
    schema = INVALID_TOOLS[name]
    problems = x_mcp_header_problems(schema)
    assert problems, name
    assert all(isinstance(p, str) and "x-mcp-header" in p for p in problems)
    # The official SDK rejects the same tools.
    assert inbound.find_invalid_x_mcp_header(schema) is not None


def test_valid_tool_from_the_invalid_scenario_is_kept() -> None:
    assert x_mcp_header_problems(_tool({"region": {"type": "string", "x-mcp-header": "Region"}})) == []
    assert x_mcp_header_problems({"type": "object"}) == []
    assert x_mcp_header_problems({}) == []


def test_problem_messages_name_the_place_and_the_reason() -> None:
    problems = x_mcp_header_problems(INVALID_TOOLS["invalid_duplicate_diff_case"])
    assert problems == [
        "inputSchema.properties.field2: x-mcp-header 'myfield' repeats the header name used by "
        "inputSchema.properties.field1"
    ]
    (problem,) = x_mcp_header_problems(INVALID_TOOLS["inside_items"])
    assert "inputSchema.properties.list.items" in problem and "inside items" in problem
    (problem,) = x_mcp_header_problems(INVALID_TOOLS["number_type"])
    assert "type 'number'" in problem
    (problem,) = x_mcp_header_problems(INVALID_TOOLS["invalid_space_in_name"])
    assert "' '" in problem


def test_several_problems_are_all_listed() -> None:
    schema = _tool(
        {
            "a": {"type": "number", "x-mcp-header": "A"},
            "b": {"type": "string", "x-mcp-header": "a"},
            "c": {"type": "string", "x-mcp-header": ""},
        }
    )
    assert len(x_mcp_header_problems(schema)) == 3
