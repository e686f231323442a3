"""The catalog's Skills section (SEP-2640) on the real session over the memory transport: the demo's skills listed
with the catalog (``skills/list``, no file read), a skill's entry on the detail pane, ``v`` loading it (its SKILL.md
read as a call of its own, verified); a tampered skill (``tests/fixtures/skills_server.py``) refused, with an error
finding on the read's call, its problems on the detail, the server's text drawn literally; and no section at all
for a server that does not declare the extension."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from peers import with_skills
from textual.pilot import Pilot
from ui_support import SIZE, connected, footer, wait_for

from inspector.demo.in_process import serve
from inspector.ui.app import InspectorApp
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.widgets.catalog import Catalog, CatalogList

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
import skills_server  # (the fixture: the demo's skills, one tampered)

SnapCompare = Callable[..., bool]


def detail_text(screen: MainScreen) -> str:
    return "\n".join(line for _, line in screen.query_one(DetailView).document.lines)


def methods(screen: MainScreen) -> list[str]:
    return [call.method for call in screen.timeline.calls]


async def on_skill(pilot: Pilot[Any], screen: MainScreen, name: str) -> None:
    """Highlight the skill ``name`` in the catalog (the focus on the list), and wait for its entry on the detail."""
    catalog = screen.query_one(Catalog)
    listing = screen.query_one(CatalogList)
    listing.focus()
    await wait_for(pilot, lambda: listing.has_focus)
    listing.highlighted = listing.get_option_index(f"skills:{catalog.visible_skills.index(name)}")
    catalog.preview_highlighted()  # (highlighted already: the read's call took the detail meanwhile)
    await wait_for(pilot, lambda: detail_text(screen).startswith(f"skill: {name}"))


async def loaded(pilot: Pilot[Any], screen: MainScreen, name: str) -> int:
    """Press ``v`` on the highlighted skill; wait until its read ended and the detail shows that call (the timeline
    highlights it, as any call sent from the catalog), then show the skill again; the read's call number."""
    before = len(screen.timeline.calls)
    await pilot.press("v")
    await wait_for(pilot, lambda: len(screen.timeline.calls) > before and screen.timeline.calls[-1].ended)
    call = screen.timeline.calls[-1].index
    await wait_for(pilot, lambda: screen.selected == (call, 0))
    await on_skill(pilot, screen, name)
    return call


async def test_the_demos_skills_are_listed_and_loaded_only_when_asked(app_factory: Callable[..., InspectorApp]) -> None:
    app = app_factory(peer=with_skills)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        catalog = screen.query_one(Catalog)
        assert catalog.visible_skills == ["incident-triage", "release-notes"]
        assert "skills/list" in methods(screen) and "resources/read" not in methods(screen), "nothing was read"

        await on_skill(pilot, screen, "release-notes")
        entry = detail_text(screen)
        assert "skill://release-notes/SKILL.md" in entry and "description: Write release notes" in entry
        assert "files (2 · 375 bytes as listed)" in entry and "skill://release-notes/references/STYLE.md" in entry
        assert "not loaded: nothing of it was read" in entry
        assert ("v", "load skill") in footer(app), "the key is offered on a skill"
        assert "resources/read" not in methods(screen), "highlighting reads nothing either"

        call = await loaded(pilot, screen, "release-notes")
        read = screen.timeline.calls[-1]
        assert (read.method, read.params) == ("resources/read", {"uri": "skill://release-notes/SKILL.md"})
        assert read.status == "complete" and not read.all_findings()
        shown = detail_text(screen)
        assert f"✓ loaded (#{call}): its size, digest and frontmatter match the entry" in shown
        assert "─ SKILL.md (verified)" in shown and "1. Group the changes under Added, Changed and Fixed." in shown
        assert methods(screen).count("resources/read") == 1, "only the SKILL.md: its other file is read on need"

        listing = screen.query_one(CatalogList)
        listing.highlighted = listing.get_option_index("tools:0")
        await wait_for(pilot, lambda: ("v", "load skill") not in footer(app))


async def test_a_tampered_skill_is_refused_with_an_error_finding(app_factory: Callable[..., InspectorApp]) -> None:
    app = app_factory(peer=lambda: serve(skills_server.build))
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        await on_skill(pilot, screen, "incident-triage")
        call = await loaded(pilot, screen, "incident-triage")
        [finding] = screen.timeline.calls[-1].all_findings()
        assert (finding.code, finding.severity) == ("skill-unverified", "error")
        assert "failed verification, so it is not used" in finding.message and "digest" in finding.message
        shown = detail_text(screen)
        assert f"✗ failed verification, so not used (#{call}):" in shown
        assert "size 287 bytes, the entry says 252" in shown
        assert "SKILL.md (verified)" not in shown and "evil.example" not in shown, "its text is not the skill's"

        screen.timeline_view.focus()
        screen.timeline_view.select_call(call)
        await wait_for(pilot, lambda: screen.selected == (call, 0))
        on_call = detail_text(screen)
        assert "skill-unverified" in on_call, "the finding is on the read's call"
        assert "[red]evil.example[/red]" in on_call, "the server's text as it came, markup and all"


async def test_a_server_without_the_extension_has_no_skills_section(app_factory: Callable[..., InspectorApp]) -> None:
    app = app_factory(peer=lambda: serve(lambda: MCPServer("no-skills")))
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        catalog = screen.query_one(Catalog)
        assert catalog.skills is None and catalog.visible_skills == []
        assert "skills/list" not in methods(screen), "an extension the server did not declare is not asked for"
        listing = screen.query_one(CatalogList)
        headings = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert not any(heading.startswith("Skills") for heading in headings)


def test_a_loaded_skill_at_100x30(app_factory: Callable[..., InspectorApp], snap_compare: SnapCompare) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = await connected(pilot)
        await on_skill(pilot, screen, "release-notes")
        await loaded(pilot, screen, "release-notes")
        await pilot.pause()

    assert snap_compare(app_factory(peer=with_skills), terminal_size=(100, 30), run_before=run_before)
