"""The roots the user chose to share, answering ``roots/list`` with ``{"roots": [...]}``.

Roots are ``file://`` URIs (the spec allows no other scheme). They are built from paths (made absolute, then
``Path.as_uri()``) or taken as ``file://`` URIs as given.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Final, NotRequired, TypedDict
from urllib.parse import urlsplit

from inspector.answers.source import Answer, NotAsked, Skip, describe_request
from inspector.protocol.methods import ROOTS

if TYPE_CHECKING:
    from collections.abc import Iterable

    from inspector.answers.source import InputRequest, InputResponse

SOURCE: Final = "roots list"
NO_ROOTS: Final = "no roots given (--root DIR offers one)"
"""Who answered a roots/list when no roots were configured, as every face shows it: how to give some."""


class Root(TypedDict):
    """One root as sent on the wire."""

    uri: str
    """A ``file://`` URI."""
    name: NotRequired[str]
    """A human-readable name (defaults to the directory's name when built from a path)."""


def root_from_uri(uri: str, name: str | None = None) -> Root:
    """A root for a ``file://`` URI; ``ValueError`` (saying what to pass instead) for any other URI."""
    parts = urlsplit(uri)
    if parts.scheme.lower() != "file" or not parts.path:
        raise ValueError(
            f"root {uri!r} is not a file:// URI: roots must be file:// URIs or local paths (e.g. file:///home/me/src "
            "or ./src)"
        )
    root: Root = {"uri": uri}
    if name is not None:
        root["name"] = name
    return root


def root_from_path(path: str | Path, name: str | None = None) -> Root:
    """A root for a local path: made absolute and turned into a ``file://`` URI; named after its last part."""
    absolute = Path(path).expanduser().absolute()
    return {"uri": absolute.as_uri(), "name": name if name is not None else (absolute.name or str(absolute))}


def parse_root(value: str | Path | Root) -> Root:
    """A root from what a user typed: a ``file://`` URI, any other ``scheme://`` (``ValueError``), or a path."""
    if isinstance(value, dict):
        return root_from_uri(value["uri"], value.get("name"))
    if isinstance(value, str) and "://" in value:
        return root_from_uri(value)
    return root_from_path(value)


class ConfiguredRoots:
    """Answers ``roots/list`` with the configured roots; every other request is ``Skip``."""

    def __init__(self, roots: Iterable[str | Path | Root] = ()) -> None:
        self.roots: list[Root] = [parse_root(root) for root in roots]

    def result(self) -> InputResponse:
        """The ListRootsResult ``{"roots": [...]}``, a fresh copy each time."""
        return {"roots": [dict(root) for root in self.roots]}

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """Answer a roots/list request; ``Skip`` anything else."""
        if request.get("method") != ROOTS:
            raise Skip(f"the configured roots only answer roots/list, not {describe_request(key, request)}")
        return Answer(self.result(), SOURCE)


class NoRootsGiven:
    """Answers ``roots/list`` with no roots when the user gave none: a server never learns a path the user did not
    give (not the current folder, not a guess), and the answer's source says how to give one. Every other request
    is ``Skip``."""

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """``{"roots": []}`` for roots/list; ``Skip`` anything else."""
        if request.get("method") != ROOTS:
            raise NotAsked(f"no roots were given, which only answers roots/list, not {describe_request(key, request)}")
        return no_roots_given()


def no_roots_given() -> Answer:
    """What a roots/list gets when no roots were configured: none, said by ``NO_ROOTS``."""
    return Answer({"roots": []}, NO_ROOTS)
