"""The official result models, kept on disk as pydantic-core schemas (``inspector/timeline/result_models.py``), judge
a result exactly as the models themselves: the same errors, word for word, for every result of every version."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Union, get_args

import pytest
from mcp_types.methods import SERVER_RESULTS
from pydantic import TypeAdapter, ValidationError

from inspector.paths import CACHE_ENV
from inspector.timeline import result_models
from inspector.timeline.result_models import result_validator

SAMPLES: list[Any] = [
    {"resultType": "complete", "content": [{"type": "text", "text": "ok"}], "isError": False},
    {"resultType": "complete", "content": "not a list"},
    {"resultType": "complete", "content": [{"type": "image", "data": 1, "mimeType": 2}], "structuredContent": 5},
    {"content": [{"type": "resource", "resource": {"uri": 3}}], "isError": "yes", "_meta": []},
    {"resultType": "input_required", "inputRequests": 5, "requestState": 7},
    {"resultType": "complete", "supportedVersions": "2026-07-28", "capabilities": [], "ttlMs": "x"},
    {"protocolVersion": 1, "capabilities": {}, "serverInfo": {}},
    {"tools": [{"name": 1, "inputSchema": {"type": "string"}}], "nextCursor": 3},
    {"messages": [{"role": "robot", "content": {}}], "contents": [{"uri": "a"}], "resources": [{}]},
    {"task": {"taskId": 1, "status": "nope"}, "completion": {"values": "a"}},
    {},
    [],
    "done",
    None,
]
"""Results good and bad: each key of every model, wrong in a different way, and no object at all."""


def official_errors(method: str, version: str, input_required: bool, result: Any) -> list[tuple[Any, ...]]:
    """The errors of the official model itself, as ``findings`` used to ask it (the member the result claims)."""
    surface: Any = SERVER_RESULTS[(method, version)]
    members = get_args(surface)
    if members:
        chosen = [m for m in members if (m.__name__ == "InputRequiredResult") == input_required]
        if len(chosen) == 1:
            surface = chosen[0]
        elif chosen:
            surface = Union[tuple(chosen)]  # noqa: UP007  (a union built at run time)
    try:
        TypeAdapter(surface).validate_python(result, by_name=False)
    except ValidationError as exc:
        return [(e["loc"], e["msg"], e["type"]) for e in exc.errors()]
    return []


def cached_errors(method: str, version: str, input_required: bool, result: Any) -> list[tuple[Any, ...]]:
    validator = result_validator(method, version, input_required)
    assert validator is not None
    try:
        validator.validate_python(result, by_name=False)
    except ValidationError as exc:
        return [(e["loc"], e["msg"], e["type"]) for e in exc.errors()]
    return []


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache folder of this test's own, empty; the process's validators and folder are forgotten before and
    after (the next test finds the run's folder again)."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    result_validator.cache_clear()
    result_models._folder.cache_clear()
    yield tmp_path
    result_validator.cache_clear()
    result_models._folder.cache_clear()


def test_every_result_model_read_from_the_cache_gives_the_official_errors(own_cache: Path) -> None:
    keys = [(method, version, ir) for (method, version) in SERVER_RESULTS for ir in (False, True)]
    for key in keys:
        result_validator(*key)  # built from the official models, and written
    result_validator.cache_clear()  # (what a later process does: read the files)
    files = list(own_cache.rglob("*.json"))
    assert len(files) == len(keys)
    for method, version, ir in keys:
        for result in SAMPLES:
            assert cached_errors(method, version, ir, result) == official_errors(method, version, ir, result), (
                method,
                version,
                ir,
                result,
            )


def test_a_method_the_models_do_not_know_is_remembered_as_none(own_cache: Path) -> None:
    assert result_validator("tools/call", "1999-01-01", False) is None
    result_validator.cache_clear()
    assert result_validator("tools/call", "1999-01-01", False) is None
    (kept,) = own_cache.rglob("*.json")
    assert json.loads(kept.read_text(encoding="utf-8"))["schema"] is None


def test_a_damaged_cache_file_is_built_again_from_the_official_models(own_cache: Path) -> None:
    result_validator("tools/call", "2026-07-28", False)
    (kept,) = own_cache.rglob("*.json")
    kept.write_text('{"schema": {"type": "no-such-schema"', encoding="utf-8")
    result_validator.cache_clear()
    bad = {"resultType": "complete", "content": "not a list"}
    assert cached_errors("tools/call", "2026-07-28", False, bad) == official_errors(
        "tools/call", "2026-07-28", False, bad
    )
    assert json.loads(kept.read_text(encoding="utf-8"))["method"] == "tools/call"  # written whole again
