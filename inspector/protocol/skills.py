"""The Skills extension (SEP-2640): its id, methods, and the checks a host makes on a skill file it fetched.

A server that declares ``io.modelcontextprotocol/skills`` under ``capabilities.extensions`` answers ``skills/list``
(paged entries: ``uri`` of the skill's ``SKILL.md``, its ``frontmatter``, and ``resources``, each file with a
``digest`` ``sha256:<hex>`` and a ``size`` in bytes) and ``skills/get`` (one entry by uri). The files themselves are
read with ``resources/read``, and only when the skill is loaded: never on connection, listing or approval. A fetched
file MUST match its entry's size and digest, and a fetched ``SKILL.md``'s frontmatter MUST equal the entry's field by
field; unverified content MUST NOT be used (so nothing more of that skill is read).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any, Final

SKILLS_EXTENSION: Final = "io.modelcontextprotocol/skills"
SKILLS_LIST: Final = "skills/list"
SKILLS_GET: Final = "skills/get"
SKILL_FILE: Final = "SKILL.md"
"""The file at a skill's root; its uri is the skill's uri."""
DIGEST_PREFIX: Final = "sha256:"

_FRONTMATTER = re.compile(r"^---\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|$)", re.DOTALL)


def declares_skills(capabilities: Mapping[str, Any] | None) -> bool:
    """Do these (server) capabilities declare the Skills extension?"""
    extensions = (capabilities or {}).get("extensions")
    return isinstance(extensions, dict) and SKILLS_EXTENSION in extensions


def skill_entries(result: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The entries of a ``skills/list`` result (those that are objects; a hostile server's others are left out)."""
    skills = (result or {}).get("skills")
    return [entry for entry in skills if isinstance(entry, dict)] if isinstance(skills, list) else []


def skill_files(entry: Mapping[str, Any]) -> list[dict[str, Any]]:
    """An entry's ``resources``: every file of the skill with its ``uri``, ``digest`` and ``size`` (none when the
    entry says ``"dynamic"`` or nothing usable)."""
    files = entry.get("resources")
    return [item for item in files if isinstance(item, dict)] if isinstance(files, list) else []


def skill_bytes(entry: Mapping[str, Any]) -> int:
    """A skill's size as its entry lists it: the sum of its files' ``size`` (what loading all of it would read)."""
    return sum(item["size"] for item in skill_files(entry) if type(item.get("size")) is int)


def digest_of(text: str) -> str:
    """A file's digest as entries spell it: ``sha256:`` and the hex sha256 of its UTF-8 bytes."""
    return DIGEST_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()


def file_problems(text: str, listed: Mapping[str, Any]) -> list[str]:
    """Why ``text`` fails its listed ``resources`` entry (size first: a size mismatch is a failure by itself)."""
    problems: list[str] = []
    size = len(text.encode("utf-8"))
    if isinstance(listed.get("size"), int) and listed["size"] != size:
        problems.append(f"size {size} bytes, the entry says {listed['size']}")
    digest = listed.get("digest")
    if isinstance(digest, str) and digest != digest_of(text):
        problems.append(f"digest {digest_of(text)}, the entry says {digest}")
    return problems


def frontmatter(text: str) -> dict[str, str] | None:
    """A SKILL.md's leading ``---`` frontmatter as top-level ``key: value`` strings (None: no such block).

    A flat reading, not a YAML parser (none is a dependency): nested blocks keep their first line's value, which
    is enough to tell the fields an entry carries (name, description, ...) apart from the file's.
    """
    found = _FRONTMATTER.match(text.removeprefix("\ufeff"))
    if found is None:
        return None
    fields: dict[str, str] = {}
    for line in found.group(1).splitlines():
        if not line or line[0] in " \t#" or ":" not in line:
            continue
        key, _, value = line.partition(":")
        fields[key.strip()] = _unquote(value.strip())
    return fields


def frontmatter_problems(text: str, entry_frontmatter: Mapping[str, Any]) -> list[str]:
    """Fields where the fetched SKILL.md's frontmatter differs from the entry's (compared as strings)."""
    found = frontmatter(text)
    if found is None:
        return ["the file has no leading --- frontmatter block"]
    problems: list[str] = []
    for key in sorted({*found, *entry_frontmatter}):
        listed = entry_frontmatter.get(key)
        if isinstance(listed, dict | list):
            continue  # (a nested value: the flat reading cannot compare it)
        if found.get(key) != _as_text(listed):
            problems.append(f"{key}: file {found.get(key)!r}, entry {listed!r}")
    return problems


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _as_text(value: Any) -> str | None:
    """An entry's scalar as the flat reading spells it (YAML's ``true``, not Python's ``True``)."""
    if value is None or isinstance(value, str):
        return value
    return str(value).lower() if isinstance(value, bool) else str(value)
