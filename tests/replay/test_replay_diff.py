"""The structural diff the re-run uses: paths, JSON inside text, requestState, _meta, ignore patterns."""

from __future__ import annotations

import json

import pytest

from inspector.replay.diff import JsonPath, PatternError, diff, format_path, parse_pattern


def _paths(
    recorded: object, live: object, *, ignore: list[JsonPath] | None = None, compare_meta: bool = False
) -> list[tuple[str, str]]:
    return [(d.path, d.kind) for d in diff(recorded, live, ignore=ignore, compare_meta=compare_meta)]


def test_equal_values_have_no_differences() -> None:
    value = {"content": [{"type": "text", "text": "5"}], "structuredContent": {"result": 5}, "isError": False}
    assert diff(value, json.loads(json.dumps(value))) == []


def test_paths_name_the_place() -> None:
    recorded = {"content": [{"type": "text", "text": "5"}], "structuredContent": {"result": 5}}
    live = {"content": [{"type": "text", "text": "6"}, {"type": "text", "text": "extra"}], "structuredContent": {}}
    found = diff(recorded, live)
    assert [(d.path, d.kind, d.recorded, d.live) for d in found] == [
        ("content[0].text", "changed", "5", "6"),
        ("content[1]", "added", None, {"type": "text", "text": "extra"}),
        ("structuredContent.result", "removed", 5, None),
    ]
    assert found[1].to_json() == {"path": "content[1]", "kind": "added", "live": {"type": "text", "text": "extra"}}


def test_json_inside_text_is_compared_structurally() -> None:
    recorded = {"content": [{"type": "text", "text": '{"temp": 22, "sky": "clear", "at": "10:00"}'}]}
    reordered = {"content": [{"type": "text", "text": '{"at": "10:00", "sky": "clear",  "temp": 22}'}]}
    warmer = {"content": [{"type": "text", "text": '{"at": "10:00", "sky": "clear", "temp": 23}'}]}
    assert diff(recorded, reordered) == []
    assert _paths(recorded, warmer) == [("content[0].text.temp", "changed")]


def test_types_are_not_confused() -> None:
    assert _paths({"a": True}, {"a": 1}) == [("a", "type")]
    assert _paths({"a": 1}, {"a": 1.0}) == []
    assert _paths({"a": None}, {"a": "x"}) == [("a", "type")]
    assert _paths("5", "6") == [("(result)", "changed")]


def test_request_state_is_never_compared_and_meta_only_when_asked() -> None:
    recorded = {"requestState": "aaa", "_meta": {"x": 1}, "inner": {"_meta": {"y": 1}, "requestState": "b"}}
    live = {"requestState": "zzz", "_meta": {"x": 2}, "inner": {"_meta": {"y": 2}}}
    assert diff(recorded, live) == []
    assert _paths(recorded, live, compare_meta=True) == [("_meta.x", "changed"), ("inner._meta.y", "changed")]


def test_ignore_patterns_with_wildcards() -> None:
    recorded = {"content": [{"text": "a", "id": 1}, {"text": "b", "id": 2}], "stamp": {"at": 1}}
    live = {"content": [{"text": "A", "id": 1}, {"text": "B", "id": 3}], "stamp": {"at": 2}}
    assert _paths(recorded, live, ignore=[parse_pattern("content[*].text"), parse_pattern("stamp")]) == [
        ("content[1].id", "changed")
    ]
    assert _paths(recorded, live, ignore=[parse_pattern("content[0].text"), parse_pattern("*.at")]) == [
        ("content[1].text", "changed"),
        ("content[1].id", "changed"),
    ]


def test_pattern_syntax() -> None:
    assert parse_pattern("content[0].text") == ("content", 0, "text")
    assert parse_pattern("content[*].text") == ("content", "*", "text")
    assert parse_pattern('structuredContent["odd key"].x') == ("structuredContent", "odd key", "x")
    assert format_path(("structuredContent", "odd key", 0, "x-y")) == 'structuredContent["odd key"][0].x-y'
    for bad in ("", ".a", "a[", "a.b*", "a[x]"):
        with pytest.raises(PatternError):
            parse_pattern(bad)
