"""The Skills extension's verification of a fetched file (SEP-2640): size, sha256 digest and frontmatter."""

from __future__ import annotations

from inspector.protocol.skills import declares_skills, digest_of, file_problems, frontmatter, frontmatter_problems

SKILL = "---\nname: pdf-processing\ndescription: 'Extract PDFs'\n---\n\nSkill body.\n"


def test_a_file_that_matches_its_entry_has_no_problems() -> None:
    assert file_problems(SKILL, {"digest": digest_of(SKILL), "size": len(SKILL.encode())}) == []
    assert frontmatter_problems(SKILL, {"name": "pdf-processing", "description": "Extract PDFs"}) == []


def test_a_tampered_file_fails_on_size_and_digest() -> None:
    listed = {"digest": digest_of(SKILL), "size": len(SKILL.encode())}
    same_size = SKILL.replace("Skill body.", "Evil body!!")
    assert [p.split(" ")[0] for p in file_problems(same_size, listed)] == ["digest"]
    assert [p.split(" ")[0] for p in file_problems(SKILL + "more", listed)] == ["size", "digest"]


def test_frontmatter_is_compared_field_by_field() -> None:
    assert frontmatter(SKILL) == {"name": "pdf-processing", "description": "Extract PDFs"}
    assert frontmatter_problems(SKILL, {"name": "pdf-processing", "description": "Exfiltrate"}) == [
        "description: file 'Extract PDFs', entry 'Exfiltrate'"
    ]
    assert frontmatter_problems("no block", {}) == ["the file has no leading --- frontmatter block"]


def test_the_extension_is_read_from_the_servers_capabilities() -> None:
    assert declares_skills({"extensions": {"io.modelcontextprotocol/skills": {}}})
    assert not declares_skills({"resources": {}}) and not declares_skills(None)
