"""The demo's Skills extension (SEP-2640) on its wire, spoken to by hand over stdio, in both eras: declared where each
era's client looks for it, ``skills/list`` entries whose every file reads back with the listed size and sha256 (worked
out here with hashlib, not with the inspector's own check), ``skills/get`` by uri and -32602 for an unknown one, and
the 2026 results complete with their caching hints, in one order on every call."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from raw_support import SKILLS_EXTENSION, RawStdio, raw_demo

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

LEGACY_INIT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw-test", "version": "0"}}


async def files_read_back(raw: RawStdio, entries: list[dict[str, Any]], *, legacy: bool) -> None:
    """Every listed file, read: its bytes are the listed size and hash to the listed digest; a SKILL.md's frontmatter
    block names the entry's name and description."""
    meta = {"meta": None} if legacy else {}
    for entry in entries:
        for listed in entry["resources"]:
            _, read = await raw.request("resources/read", {"uri": listed["uri"]}, **meta)
            [content] = read["result"]["contents"]
            data = content["text"].encode()
            assert (len(data), f"sha256:{hashlib.sha256(data).hexdigest()}") == (listed["size"], listed["digest"])
            if listed["uri"] == entry["uri"]:
                block = re.match(r"---\n(.*?)\n---\n", content["text"], re.DOTALL)
                assert block is not None and content["mimeType"] == "text/markdown"
                fields = dict(line.split(": ", 1) for line in block.group(1).splitlines())
                assert fields == entry["frontmatter"]


async def test_the_demo_offers_two_skills_that_verify_in_the_2026_era() -> None:
    async with raw_demo() as raw:
        _, discovered = await raw.request("server/discover", {})
        assert SKILLS_EXTENSION in discovered["result"]["capabilities"]["extensions"]
        _, listed = await raw.request("skills/list", {})
        result = listed["result"]
        assert (result["resultType"], result["ttlMs"], result["cacheScope"]) == ("complete", 60_000, "public")
        entries = result["skills"]
        assert [e["uri"] for e in entries] == ["skill://incident-triage/SKILL.md", "skill://release-notes/SKILL.md"]
        assert all(e["uri"] == e["resources"][0]["uri"] for e in entries), "each skill's SKILL.md listed first"
        _, again = await raw.request("skills/list", {})
        assert again["result"]["skills"] == entries, "the same entries in the same order"
        await files_read_back(raw, entries, legacy=False)

        _, got = await raw.request("skills/get", {"uri": "skill://release-notes/SKILL.md"})
        assert got["result"]["skill"] == entries[1] and "nextCursor" not in got["result"]
        _, unknown = await raw.request("skills/get", {"uri": "skill://no-such-skill/SKILL.md"})
        assert unknown["error"]["code"] == -32602


async def test_a_2025_client_finds_the_extension_in_initialize_and_the_same_skills() -> None:
    async with raw_demo() as raw:
        _, initialized = await raw.request("initialize", LEGACY_INIT, meta=None)
        assert initialized["result"]["capabilities"]["extensions"] == {SKILLS_EXTENSION: {}}
        await raw.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        _, listed = await raw.request("skills/list", {}, meta=None)
        assert "ttlMs" not in listed["result"], "2025-11-25 has no caching hints"
        assert [e["frontmatter"]["name"] for e in listed["result"]["skills"]] == ["incident-triage", "release-notes"]
        await files_read_back(raw, listed["result"]["skills"], legacy=True)
