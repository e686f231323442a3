"""The Skills extension of the demo server (SEP-2640) on the official SDK: `io.modelcontextprotocol/skills`.

An `mcp.server.extension.Extension`: the SDK advertises it under `capabilities.extensions` of `server/discover`
(``LegacySkillsDeclaration`` adds it to `initialize`'s, which the SDK leaves without), routes `skills/list` and
`skills/get` to the methods bound here (every version: the extension is the same in both eras), and lists the
skills' files among the resources, where `resources/read` serves them. An entry is `{uri, frontmatter, resources}`:
`uri` the skill's `skill://<name>/SKILL.md`, `frontmatter` that file's own (field for field), `resources` every file
of the skill with its `sha256:` digest and its size in bytes, the SKILL.md first. The results carry the demo's
caching hints (2026-07-28: `ttlMs`, `cacheScope`) and come in one stable order.

``served`` replaces what `resources/read` answers for some files while the entries still describe the originals: a
server whose skill fails verification (the tests' `skills_server.py`), which a host must refuse to use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.extension import Extension, MethodBinding, ResourceBinding
from mcp.server.mcpserver.resources import TextResource
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, PaginatedRequestParams, RequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel

from inspector.protocol.skills import SKILL_FILE, SKILLS_EXTENSION, SKILLS_GET, SKILLS_LIST, digest_of

SKILL_SCHEME: Final = "skill://"
MARKDOWN: Final = "text/markdown"
SKILLS_TTL_MS: Final = 60_000
"""The skills are the same for everyone for a minute, like the rest of the demo's catalog (``server.CACHE_HINTS``)."""


@dataclass(frozen=True, slots=True)
class DemoSkill:
    """One skill: its name and description (its SKILL.md's frontmatter), the SKILL.md's body, and its other files."""

    name: str
    description: str
    body: str
    files: tuple[tuple[str, str], ...] = ()
    """(path under the skill, text) of each supporting file."""

    @property
    def uri(self) -> str:
        return f"{SKILL_SCHEME}{self.name}/{SKILL_FILE}"

    @property
    def frontmatter(self) -> dict[str, str]:
        return {"name": self.name, "description": self.description}

    def skill_md(self) -> str:
        return f"---\nname: {self.name}\ndescription: {self.description}\n---\n\n{self.body}"

    def texts(self) -> list[tuple[str, str]]:
        """(uri, text) of every file, the SKILL.md first."""
        return [(self.uri, self.skill_md())] + [(f"{SKILL_SCHEME}{self.name}/{p}", t) for p, t in self.files]

    def entry(self) -> dict[str, Any]:
        """The skill's `skills/list` entry."""
        files = [{"uri": uri, "digest": digest_of(text), "size": len(text.encode())} for uri, text in self.texts()]
        return {"uri": self.uri, "frontmatter": self.frontmatter, "resources": files}


SKILLS: Final = (
    DemoSkill(
        "incident-triage",
        "Sort an incident report by severity and name the next step",
        "# Incident triage\n\n"
        "Ask for the service, the first error seen and when it started; then give a severity (SEV1 to SEV3)\n"
        "and one next step, never more.\n",
    ),
    DemoSkill(
        "release-notes",
        "Write release notes from a list of merged changes",
        "# Release notes\n\n"
        "1. Group the changes under Added, Changed and Fixed.\n"
        "2. One line each, in the imperative, with its pull request.\n"
        "3. Follow references/STYLE.md.\n",
        (
            (
                "references/STYLE.md",
                "# House style\n\n- Sentence-case headings.\n- No marketing words.\n"
                "- The version and the date first: `## 1.4.0 (2026-07-28)`.\n",
            ),
        ),
    ),
)
"""The demo's skills, in the order they are listed (by name: stable on every call and every instance)."""

MODERN: Final = frozenset(MODERN_PROTOCOL_VERSIONS)


class GetSkillRequestParams(RequestParams):
    """`skills/get` params: the skill's uri (its SKILL.md's)."""

    uri: str


class DemoSkills(Extension):
    """`skills/list`, `skills/get` and the skills' files as resources (see the module docstring)."""

    identifier = SKILLS_EXTENSION

    def __init__(self, skills: Sequence[DemoSkill] = SKILLS, *, served: Mapping[str, str] | None = None) -> None:
        self.skills = tuple(skills)
        self.served = dict(served or {})
        """uri -> the text `resources/read` answers instead of the file the entry describes."""

    def methods(self) -> Sequence[MethodBinding]:
        return (
            MethodBinding(SKILLS_LIST, PaginatedRequestParams, self._list),
            MethodBinding(SKILLS_GET, GetSkillRequestParams, self._get),
        )

    def resources(self) -> Sequence[ResourceBinding]:
        bindings: list[ResourceBinding] = []
        for skill in self.skills:
            for uri, text in skill.texts():
                manifest = uri == skill.uri  # (its name and description SHOULD be the frontmatter's)
                resource = TextResource(
                    uri=uri,
                    name=skill.name if manifest else uri.removeprefix(SKILL_SCHEME),
                    description=skill.description if manifest else None,
                    mime_type=MARKDOWN,
                    text=self.served.get(uri, text),
                )
                bindings.append(ResourceBinding(resource))
        return bindings

    async def _list(self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams) -> dict[str, Any]:
        if params.cursor is not None:
            raise MCPError(code=INVALID_PARAMS, message=f"Unknown cursor {params.cursor!r}: skills/list has one page")
        return _cacheable(ctx, {"skills": [skill.entry() for skill in self.skills]})

    async def _get(self, ctx: ServerRequestContext[Any, Any], params: GetSkillRequestParams) -> dict[str, Any]:
        for skill in self.skills:
            if skill.uri == params.uri:
                return _cacheable(ctx, {"skill": skill.entry()})
        raise MCPError(code=INVALID_PARAMS, message=f"No skill at {params.uri!r}")


def _cacheable(ctx: ServerRequestContext[Any, Any], result: dict[str, Any]) -> dict[str, Any]:
    """2026-07-28: the result is complete and carries its caching hints (2025-11-25 has neither field)."""
    if ctx.protocol_version not in MODERN:
        return result
    return {"resultType": "complete", **result, "ttlMs": SKILLS_TTL_MS, "cacheScope": "public"}


class LegacySkillsDeclaration:
    """`Server.middleware`: the extension declared in `initialize`'s `capabilities.extensions` too (the SDK declares
    extensions on `server/discover` only), where a handshake client (2025-11-25 and older) looks for it."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method != "initialize":
            return result
        wire = (
            result.model_dump(by_alias=True, mode="json", exclude_none=True)
            if isinstance(result, BaseModel)
            else result
        )
        capabilities = wire.get("capabilities") if isinstance(wire, dict) else None
        if not isinstance(wire, dict) or not isinstance(capabilities, dict):
            return result
        extensions = capabilities.get("extensions")
        declared = {**(extensions if isinstance(extensions, dict) else {}), SKILLS_EXTENSION: {}}
        return {**wire, "capabilities": {**capabilities, "extensions": declared}}
