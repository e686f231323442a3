"""A skill (SEP-2640) on the detail pane: its entry as listed, and once loaded, its SKILL.md or why it is not used.

Before a load nothing of the skill has been read, so the pane shows only what ``skills/list`` said: the uri, the
frontmatter field by field, and every file with its size and digest. After ``v`` the load's outcome follows: the
SKILL.md's text when it matched its entry, or the problems (size, digest, frontmatter) when it did not; the text of a
file that failed verification is not shown as the skill's (a host MUST NOT use it), only named as refused. Every
string is the server's, drawn literally by the pane (never markup).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspector.protocol.skills import skill_bytes, skill_files
from inspector.ui.detail.lines import Document

if TYPE_CHECKING:
    from inspector.session.skill_shelf import SkillLoad

LOAD_KEY = "v"
"""The catalog's key that loads the highlighted skill (``CatalogList``'s binding)."""


def skill_document(entry: dict[str, Any], loaded: SkillLoad | None = None) -> Document:
    """The skill's entry, its last load's verdict first; with a verified load, its SKILL.md last (see the module
    docstring)."""
    doc = Document()
    frontmatter = entry.get("frontmatter")
    fields = frontmatter if isinstance(frontmatter, dict) else {}
    name = fields.get("name")
    doc.add("heading", f"skill: {name if isinstance(name, str) and name else entry.get('uri', '?')}")
    doc.add("text", str(entry.get("uri", "")))
    _verdict(doc, loaded)
    doc.heading("frontmatter (as listed)")
    for key, value in fields.items():
        doc.pieces("text", (f"{key}: ", "dim"), (value if isinstance(value, str) else repr(value), ""))
    files = skill_files(entry)
    doc.heading(f"files ({len(files)} · {skill_bytes(entry):,} bytes as listed)")
    for item in files:
        size = item.get("size")
        said = f"{size:,} bytes" if type(size) is int else "no size"
        doc.pieces("text", (str(item.get("uri", "?")), ""), (f"  {said}", "dim"))
        doc.pieces("dim", ("  ", ""), (str(item.get("digest", "no digest")), "dim"))
    if loaded is not None and loaded.verified and loaded.text is not None:
        doc.heading("SKILL.md (verified)")
        doc.add("text", loaded.text)
    return doc


def _verdict(doc: Document, loaded: SkillLoad | None) -> None:
    """Whether the skill was loaded, and if so what came of it (the read's call number, to find it)."""
    if loaded is None:
        doc.add("dim", f"not loaded: nothing of it was read. {LOAD_KEY} loads it: its SKILL.md read, then checked")
        doc.add("dim", "against this entry (size, digest, frontmatter)")
        return
    outcome = loaded.outcome
    if not outcome.ok:
        doc.add("error", f"✗ the read failed (#{outcome.call_index}, {outcome.status}): {outcome.detail}")
    elif loaded.verified:
        doc.add("text", f"✓ loaded (#{outcome.call_index}): its size, digest and frontmatter match the entry")
    else:
        doc.add("error", f"✗ failed verification, so not used (#{outcome.call_index}):")
        for problem in loaded.problems:
            doc.add("error", f"  {problem}")
