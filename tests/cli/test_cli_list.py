"""``inspector list KIND`` as a real process: it prints what it listed (a table with every name whole, whatever the
width), and asks nothing of a server that did not declare the kind (exit 7, saying what the server declared); the
same for ``list skills`` and the Skills extension (SEP-2640), whose files are never read by a listing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import BAD_SERVER, DEMO_TOOLS, ENTRY
from printed_text import says

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)


def inspector(*args: str, columns: int = 80, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``inspector ARGS`` as a real process printing to a terminal ``columns`` wide."""
    return subprocess.run(
        [sys.executable, "-c", ENTRY, *args, "--no-record"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "COLUMNS": str(columns), **(env or {})},
    )


@pytest.mark.parametrize("columns", [80, 160])
def test_list_tools_prints_every_tool_by_its_whole_name(columns: int) -> None:
    done = inspector("list", "tools", "--demo", columns=columns)
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines() if line.split()}
    assert set(DEMO_TOOLS) <= set(rows), done.stdout
    assert rows["add"].split()[1:3] == ["a,", "b"], "the required arguments follow the name"
    assert all(len(line) <= columns for line in done.stdout.splitlines()), "the table fits the terminal"
    assert f"{len(DEMO_TOOLS) + 2} tools" in done.stdout, "with the two task tools, and counted"


def test_list_resources_shows_the_uri_and_type_and_json_keeps_the_items() -> None:
    done = inspector("list", "resources", "--demo")
    assert done.returncode == 0, done.stderr
    assert "demo://about" in done.stdout and "text/markdown" in done.stdout and "4 resources" in done.stdout
    doc = json.loads(inspector("list", "resources", "--demo", "--json").stdout)
    assert [item["uri"] for item in doc["result"]["resources"]] == [*SKILL_FILES, "demo://about"]


SKILL_FILES = (
    "skill://incident-triage/SKILL.md",
    "skill://release-notes/SKILL.md",
    "skill://release-notes/references/STYLE.md",
)
"""The demo's skills' files, which it lists among its resources (and ``list skills`` never reads)."""


@pytest.mark.parametrize("columns", [80, 160])
def test_list_skills_prints_each_skill_its_files_and_bytes_and_reads_none(columns: int) -> None:
    done = inspector("list", "skills", "--demo", columns=columns)
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line.split() for line in done.stdout.splitlines() if line.startswith(("incident", "rel"))}
    assert rows["incident-triage"][-3:] == ["1", "252", "skill://incident-triage/SKILL.md"], done.stdout
    assert rows["release-notes"][-3:] == ["2", "375", "skill://release-notes/SKILL.md"], done.stdout
    assert "2 skills" in done.stdout and says(done.stdout, "cache: 60 s, public (any login may share it)")
    assert all(len(line) <= columns for line in done.stdout.splitlines()), "the table fits the terminal"
    assert "skills/list" in done.stdout and "resources/read" not in done.stdout, "listing reads no skill file"
    doc = json.loads(inspector("list", "skills", "--demo", "--json").stdout)
    [_, notes] = doc["result"]["skills"]
    assert notes["frontmatter"] == {
        "name": "release-notes",
        "description": "Write release notes from a list of merged changes",
    }
    assert [file["uri"] for file in notes["resources"]] == list(SKILL_FILES[1:])
    assert (doc["result"]["ttlMs"], doc["result"]["cacheScope"]) == (60000, "public")


@pytest.mark.parametrize(("kind", "capability"), [("prompts", "prompts"), ("skills", "io.modelcontextprotocol/skills")])
def test_a_kind_the_server_did_not_declare_is_not_asked_for(tmp_path: Path, kind: str, capability: str) -> None:
    transcript = tmp_path / "transcript.jsonl"
    server = f"{sys.executable} {BAD_SERVER} ok"
    env = {"BAD_SERVER_TRANSCRIPT": str(transcript)}
    refused = inspector("list", kind, "--server", server, env=env)
    assert refused.returncode == 7, refused.stderr
    said = f"did not declare '{capability}', so {kind}/list was not sent (it declared: tools)"
    assert says(refused.stderr, said)
    assert says(refused.stderr, "--force")
    sent = [json.loads(line["raw"]).get("method") for line in map(json.loads, transcript.read_text().splitlines())]
    assert f"{kind}/list" not in sent and "server/discover" in sent
    forced = inspector("list", kind, "--server", server, "--force", env=env)
    assert forced.returncode == 4 and "-32601" in forced.stdout, "asked anyway, the server's error is shown"
    document = json.loads(inspector("list", kind, "--server", server, "--json").stdout)
    assert document["status"] == "not-offered" and document["declared"] == ["tools"]
    assert document["capability"] == capability


def test_list_and_read_keep_the_caching_hints_the_demo_sent() -> None:
    listed = inspector("list", "tools", "--demo")
    assert listed.returncode == 0, listed.stderr
    assert says(listed.stdout, "cache: 60 s, public (any login may share it)"), listed.stdout
    doc = json.loads(inspector("list", "tools", "--demo", "--json").stdout)
    assert (doc["result"]["ttlMs"], doc["result"]["cacheScope"]) == (60000, "public"), "as the server sent them"
    read = inspector("read", "demo://about", "--demo")
    assert read.returncode == 0, read.stderr
    assert says(read.stdout, "cache: 5 s, private (this login only)"), read.stdout
    doc = json.loads(inspector("read", "demo://about", "--demo", "--json").stdout)
    assert (doc["result"]["ttlMs"], doc["result"]["cacheScope"]) == (5000, "private")


def test_list_says_what_a_model_is_handed_and_by_weight_puts_the_heaviest_first() -> None:
    done = inspector("list", "tools", "--demo", "--by-weight", columns=120)
    assert done.returncode == 0, done.stderr
    table = [line.split() for line in done.stdout.splitlines() if line.split() and line.split()[0] in DEMO_TOOLS]
    weights = [next(int(cell.replace(",", "")) for cell in row[1:] if cell.replace(",", "").isdigit()) for row in table]
    assert len(weights) == len(DEMO_TOOLS) and weights == sorted(weights, reverse=True), "heaviest first"
    assert says(done.stdout, "handed to a model:") and says(done.stdout, "no tokenizer offline"), done.stdout
    doc = json.loads(inspector("list", "tools", "--demo", "--json").stdout)
    assert doc["weight"]["bytes"] == sum(item["bytes"] for item in doc["weight"]["items"]) > 0
    assert [item["name"] for item in doc["weight"]["items"]] == [tool["name"] for tool in doc["result"]["tools"]]
