"""Skills (SEP-2640) over a session: list them, and load one only when asked, verifying what was fetched."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.skills import (
    SKILLS_GET,
    SKILLS_LIST,
    declares_skills,
    file_problems,
    frontmatter_problems,
    skill_entries,
)
from inspector.timeline import findings as lint
from inspector.timeline.outcome import Outcome

if TYPE_CHECKING:
    from collections.abc import Callable

    from inspector.session.ledger import CallLedger
    from inspector.timeline.model import Timeline

MAX_PAGES = 50
"""A server whose cursors never end is not followed past this many pages of skills/list."""


@dataclass(frozen=True, slots=True)
class SkillLoad:
    """A skill's ``SKILL.md``, fetched and checked: ``problems`` empty means it may be used."""

    uri: str
    outcome: Outcome
    problems: list[str] = field(default_factory=list)
    text: str | None = None

    @property
    def verified(self) -> bool:
        return self.outcome.ok and self.text is not None and not self.problems


class SkillSession(Protocol):
    """What the shelf needs of a session (``InspectorSession``; the TUI's ``SessionPort`` includes it)."""

    @property
    def timeline(self) -> Timeline: ...

    @property
    def ledger(self) -> CallLedger: ...

    async def request(self, method: str, params: JsonObject) -> Outcome: ...

    async def read_resource(self, uri: str, *, started: Callable[[int], object] | None = None) -> Outcome: ...


class SkillShelf:
    """The session's skills: ``list`` asks for the entries (no file is read); ``load`` fetches one skill's
    SKILL.md and verifies its size, digest and frontmatter against the entry, a mismatch an error finding."""

    def __init__(self, session: SkillSession) -> None:
        self._session = session

    def offered(self) -> bool:
        """Did the server declare the Skills extension?"""
        return declares_skills(self._session.timeline.server_capabilities)

    async def list_all(self) -> tuple[list[JsonObject], Outcome | None]:
        """Every entry of ``skills/list``, page by page; the first failed page's outcome, if one failed."""
        outcome = await self.listed()
        return skill_entries(outcome.result), None if outcome.ok else outcome

    async def listed(self) -> Outcome:
        """``skills/list``, every page (each a call), as one outcome: the last page's, its result holding every
        page's entries under ``skills`` (a failed page's outcome as it is: the entries before it are lost)."""
        entries: list[JsonObject] = []
        cursor: str | None = None
        for _ in range(MAX_PAGES):
            outcome = await self._session.request(SKILLS_LIST, {"cursor": cursor} if cursor else {})
            if not outcome.ok or outcome.result is None:
                return outcome
            entries.extend(skill_entries(outcome.result))
            following = outcome.result.get("nextCursor")
            if not isinstance(following, str) or not following:
                break
            cursor = following
        joined = {key: value for key, value in (outcome.result or {}).items() if key != "nextCursor"}
        return replace(outcome, result={**joined, "skills": entries})

    async def get(self, uri: str) -> Outcome:
        """``skills/get``: one entry by its uri (no file is read)."""
        return await self._session.request(SKILLS_GET, {"uri": uri})

    async def load(self, entry: JsonObject, started: Callable[[int], object] | None = None) -> SkillLoad:
        """Fetch the entry's SKILL.md and check it against the entry (its listed size and digest, its frontmatter);
        ``started`` is told the read's call number before it is sent (a face that lets a person cancel it)."""
        uri = str(entry.get("uri", ""))
        outcome = await self._session.read_resource(uri, started=started)
        text = _text_of(outcome.result, uri) if outcome.ok else None
        if text is None:
            return SkillLoad(uri, outcome, ["the read returned no text"] if outcome.ok else [])
        listed = _listed_file(entry, uri)
        problems = file_problems(text, listed) if listed is not None else []
        entry_frontmatter = entry.get("frontmatter")
        if isinstance(entry_frontmatter, dict):
            problems.extend(frontmatter_problems(text, entry_frontmatter))
        if problems:
            message = f"skill {uri} failed verification, so it is not used: {'; '.join(problems)}"
            self._session.ledger.finding(lint.make("skill-unverified", message, call=outcome.call_index))
        return SkillLoad(uri, outcome, problems, text)


def _listed_file(entry: JsonObject, uri: str) -> dict[str, Any] | None:
    resources = entry.get("resources")
    for item in resources if isinstance(resources, list) else []:
        if isinstance(item, dict) and item.get("uri") == uri:
            return item
    return None


def _text_of(result: JsonObject | None, uri: str) -> str | None:
    contents = (result or {}).get("contents")
    texts = [c for c in (contents if isinstance(contents, list) else []) if isinstance(c, dict)]
    for content in sorted(texts, key=lambda c: c.get("uri") != uri):
        if isinstance(content.get("text"), str):
            return str(content["text"])
    return None
