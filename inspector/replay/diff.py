"""Structural JSON diff of two results, with paths like ``content[0].text`` and ignore patterns.

Rules: objects are compared key by key, arrays item by item; a string that holds JSON (an object or an array) on
both sides is compared structurally, its inner paths continuing the string's path (``content[0].text.temp``);
``requestState`` is never compared (it is opaque); ``_meta`` is left out unless asked for; ``true`` is not ``1``.
Ignore patterns use the same path syntax, with ``*`` (or ``[*]``) matching any one key or index, and ignore the
whole subtree under a match.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final, Literal

from inspector.protocol.json_input import json_type

Segment = str | int
JsonPath = tuple[Segment, ...]
WILDCARD: Final = "*"
NEVER_COMPARED: Final = frozenset({"requestState"})
META: Final = "_meta"
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$-]*\Z")
_TOKEN = re.compile(r'\.?([A-Za-z_$*][A-Za-z0-9_$*-]*)|\[(\d+|\*)\]|\[("(?:[^"\\]|\\.)*")\]')

Kind = Literal["changed", "added", "removed", "type"]


class PatternError(ValueError):
    """An --ignore pattern that does not parse."""


@dataclass(frozen=True, slots=True)
class Difference:
    """One place where the live result differs from the recorded one."""

    path: str
    kind: Kind
    recorded: Any = None
    live: Any = None

    def to_json(self) -> dict[str, Any]:
        """As JSON (values left out when absent on that side)."""
        out: dict[str, Any] = {"path": self.path, "kind": self.kind}
        if self.kind != "added":
            out["recorded"] = self.recorded
        if self.kind != "removed":
            out["live"] = self.live
        return out


def format_path(path: JsonPath) -> str:
    """``("content", 0, "text")`` -> ``content[0].text``; odd keys are quoted: ``a["b c"]``."""
    out = ""
    for segment in path:
        if isinstance(segment, int):
            out += f"[{segment}]"
        elif _IDENT.match(segment):
            out += f".{segment}" if out else segment
        else:
            out += f"[{json.dumps(segment, ensure_ascii=False)}]"
    return out or "(result)"


def parse_pattern(text: str) -> JsonPath:
    """``content[*].text`` -> ``("content", "*", "text")``; raises ``PatternError`` naming the bad part."""
    segments: list[Segment] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or (position == 0 and text.startswith(".")):
            raise PatternError(
                f"--ignore {text!r}: cannot read the path at {text[position:]!r}; write e.g. content[0].text"
            )
        name, index, quoted = match.groups()
        if name is not None:
            if WILDCARD in name and name != WILDCARD:
                raise PatternError(f"--ignore {text!r}: '*' must be a whole segment (e.g. content[*].text)")
            segments.append(name)
        elif index is not None:
            segments.append(WILDCARD if index == WILDCARD else int(index))
        else:
            segments.append(json.loads(quoted))
        position = match.end()
    if not segments:
        raise PatternError("--ignore needs a path, e.g. content[0].text")
    return tuple(segments)


def _matches(pattern: JsonPath, path: JsonPath) -> bool:
    if len(pattern) > len(path):
        return False
    return all(p in (WILDCARD, s) for p, s in zip(pattern, path, strict=False))


def _embedded(text: str) -> Any:
    """The JSON object or array a string holds, or None."""
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[":
        return None
    try:
        value = json.loads(stripped)
    except ValueError:
        return None
    return value if isinstance(value, dict | list) else None


class _Differ:
    def __init__(self, ignore: list[JsonPath], compare_meta: bool) -> None:
        self.ignore = ignore
        self.compare_meta = compare_meta
        self.found: list[Difference] = []

    def skipped(self, path: JsonPath) -> bool:
        last = path[-1] if path else None
        if isinstance(last, str) and (last in NEVER_COMPARED or (last == META and not self.compare_meta)):
            return True
        return any(_matches(pattern, path) for pattern in self.ignore)

    def add(self, path: JsonPath, kind: Kind, recorded: Any = None, live: Any = None) -> None:
        self.found.append(Difference(format_path(path), kind, recorded, live))

    def compare(self, recorded: Any, live: Any, path: JsonPath) -> None:
        if self.skipped(path):
            return
        kind_recorded, kind_live = json_type(recorded), json_type(live)
        if isinstance(recorded, str) and isinstance(live, str):
            if recorded == live:
                return
            inner_recorded, inner_live = _embedded(recorded), _embedded(live)
            if inner_recorded is not None and inner_live is not None:
                self.compare(inner_recorded, inner_live, path)
                return
            self.add(path, "changed", recorded, live)
        elif kind_recorded != kind_live:
            self.add(path, "type", recorded, live)
        elif isinstance(recorded, dict) and isinstance(live, dict):
            for key in recorded:
                if key in live:
                    self.compare(recorded[key], live[key], (*path, key))
                elif not self.skipped((*path, key)):
                    self.add((*path, key), "removed", recorded[key])
            for key in live:
                if key not in recorded and not self.skipped((*path, key)):
                    self.add((*path, key), "added", live=live[key])
        elif isinstance(recorded, list) and isinstance(live, list):
            for index in range(max(len(recorded), len(live))):
                here = (*path, index)
                if index >= len(live):
                    if not self.skipped(here):
                        self.add(here, "removed", recorded[index])
                elif index >= len(recorded):
                    if not self.skipped(here):
                        self.add(here, "added", live=live[index])
                else:
                    self.compare(recorded[index], live[index], here)
        elif recorded != live:
            self.add(path, "changed", recorded, live)


def diff(
    recorded: Any, live: Any, *, ignore: list[JsonPath] | None = None, compare_meta: bool = False
) -> list[Difference]:
    """Every difference between ``recorded`` and ``live``, in document order (empty: they match)."""
    differ = _Differ(list(ignore or []), compare_meta)
    differ.compare(recorded, live, ())
    return differ.found
