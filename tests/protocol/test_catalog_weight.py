"""The catalog's weight (seed 004, "Progressive Discovery"): what a host hands a model of each tool, prompt and
template, in bytes of compact JSON and in tokens estimated from them (no tokenizer offline, and every face says so)."""

from __future__ import annotations

import json

from inspector.protocol.catalog_weight import (
    ESTIMATED,
    item_weight,
    tokens_said,
    total,
    weighed,
    weight_said,
    weights,
)

TOOL = {
    "name": "get_weather",
    "title": "Weather",  # (shown to people by hosts, not handed to the model)
    "description": "Weather for a location.",
    "inputSchema": {"type": "object", "properties": {"location": {"type": "string"}}},
    "annotations": {"readOnlyHint": True},
}


def test_a_tools_weight_is_its_name_description_and_schemas_as_compact_json() -> None:
    handed = {key: TOOL[key] for key in ("name", "description", "inputSchema")}
    weight = item_weight("tools", TOOL)
    assert weight.name == "get_weather"
    assert weight.bytes == len(json.dumps(handed, separators=(",", ":")).encode())
    assert weight.tokens == -(-weight.bytes // 4), "four bytes a token, rounded up"
    with_output = item_weight("tools", {**TOOL, "outputSchema": {"type": "object"}})
    assert with_output.bytes == weight.bytes + len(',"outputSchema":{"type":"object"}')


def test_prompts_and_templates_are_weighed_and_resources_are_not() -> None:
    prompt = {"name": "review", "description": "Review code", "arguments": [{"name": "code", "required": True}]}
    template = {"uriTemplate": "file:///{path}", "name": "files", "mimeType": "text/plain", "title": "Files"}
    assert item_weight("prompts", prompt).bytes == len(json.dumps(prompt, separators=(",", ":")))
    assert item_weight("templates", template).name == "file:///{path}"
    assert item_weight("templates", template).bytes == len(
        json.dumps({k: template[k] for k in ("uriTemplate", "name", "mimeType")}, separators=(",", ":"))
    )
    assert [weighed(kind) for kind in ("tools", "prompts", "resources", "templates")] == [True, True, False, True]


def test_non_ascii_text_counts_its_utf8_bytes() -> None:
    assert item_weight("tools", {"name": "é"}).bytes == len('{"name":"é"}'.encode())


def test_totals_and_their_words_say_the_estimate() -> None:
    found = weights("tools", [TOOL, {"name": "add"}])
    assert total(found).bytes == sum(w.bytes for w in found)
    assert [tokens_said(n) for n in (35, 2345, 45_678, 3_210_000)] == ["≈35", "≈2.3k", "≈46k", "≈3.2M"]
    assert weight_said(total(weights("tools", [{"name": "x" * 4000}]))) == "4,011 bytes, ≈1.0k tokens"
    assert "estimated" in ESTIMATED and "no tokenizer" in ESTIMATED
