"""Configured roots: file:// URIs only, built from paths or URIs, answering roots/list."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from answer_requests import form, roots

from inspector.answers import ConfiguredRoots, Skip, parse_root, root_from_path, root_from_uri

if TYPE_CHECKING:
    from pathlib import Path


def test_path_becomes_absolute_file_uri_named_after_the_directory(tmp_path: Path) -> None:
    project = tmp_path / "my project"

    root = root_from_path(project)

    assert root == {"uri": project.absolute().as_uri(), "name": "my project"}
    assert root["uri"].startswith("file:///")
    assert "%20" in root["uri"]


def test_relative_path_is_made_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)

    assert root_from_path("src", name="sources") == {"uri": (tmp_path / "src").as_uri(), "name": "sources"}


def test_file_uri_is_kept_as_written() -> None:
    assert root_from_uri("file:///home/me/src", "src") == {"uri": "file:///home/me/src", "name": "src"}
    assert parse_root("file:///home/me/src") == {"uri": "file:///home/me/src"}


@pytest.mark.parametrize("uri", ["https://example.com/repo", "s3://bucket/key", "file://"])
def test_non_file_uri_is_rejected_with_what_to_pass(uri: str) -> None:
    with pytest.raises(ValueError, match=r"is not a file:// URI: roots must be file:// URIs or local paths"):
        parse_root(uri)


async def test_answers_roots_list_with_the_configured_roots(tmp_path: Path) -> None:
    configured = ConfiguredRoots([tmp_path / "a", "file:///srv/b", {"uri": "file:///srv/c", "name": "c"}])

    answer = await configured.answer("roots", roots())

    assert answer.response == {
        "roots": [
            {"uri": (tmp_path / "a").as_uri(), "name": "a"},
            {"uri": "file:///srv/b"},
            {"uri": "file:///srv/c", "name": "c"},
        ]
    }
    assert answer.source == "roots list"


async def test_each_answer_is_a_fresh_copy() -> None:
    configured = ConfiguredRoots(["file:///srv/b"])
    first = await configured.answer(None, roots())
    first.response["roots"].clear()

    second = await configured.answer(None, roots())

    assert second.response == {"roots": [{"uri": "file:///srv/b"}]}


async def test_other_methods_are_skipped() -> None:
    with pytest.raises(Skip):
        await ConfiguredRoots().answer("k", form())
