"""The hostile strings of every class (tests_hostile.HOSTILE, shared with the sanitizer's tests and the headless
faces' tests) reach the TUI only through the one sanitizer: as tool names in the catalog, as a call's row on the
timeline, as its result in the detail pane and as stderr lines in the console, every hidden or controlling
character shows as a visible stand-in and nothing styles, moves or hides anything."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.server.mcpserver import MCPServer
from peers import logging_first, stable_states
from rich.style import Style
from tests_hostile import HOSTILE
from textual.strip import Strip
from ui_support import SIZE, connected, finished_call, make_app

from inspector.demo.in_process import serve
from inspector.demo.server import build_server
from inspector.protocol.sanitize import clean, has_hidden
from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline
from inspector.transport.memory import Peer
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.widgets.catalog import CatalogList
from inspector.ui.widgets.console import Console
from inspector.ui.widgets.timeline_rows import STYLE_NAMES, Row, RowLook, render_row
from inspector.ui.widgets.timeline_view import TimelineView

NAMES = [f"t{i} {text}" for i, text in enumerate(HOSTILE.values())]
"""One tool per hostile string, its name holding the string."""


def _visible(text: str) -> bool:
    return not has_hidden(text.replace("\n", ""))


def _stand_ins_of(text: str) -> list[str]:
    """The visible stand-in of each hidden character of ``text`` (what the sanitizer shows for it)."""
    return [c for c in clean(text) if c not in text]


def _plain(strip: Strip) -> str:
    return "".join(segment.text for segment in strip)


def _hostile_peer() -> Peer:
    def server() -> MCPServer[Any]:
        built = stable_states(build_server(skills=False))
        for name, text in zip(NAMES, HOSTILE.values(), strict=True):

            async def answer(said: str = text) -> str:
                return f"result: {said}"

            built.add_tool(answer, name=name, description=text)
        return built

    return logging_first(list(HOSTILE.values()), serve(server))


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_timeline_row_shows_hostile_text_through_the_sanitizer(text: str) -> None:
    result = {"content": [{"type": "text", "text": text}]}
    timeline = build_timeline(
        [
            records.call_started(0.0, 1, "tools/call", {"name": text}),
            records.wire(0.1, "c2s", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}), call=1),
            records.wire(0.2, "s2c", json.dumps({"jsonrpc": "2.0", "id": 1, "result": result})),
            records.call_ended(0.3, 1, "failed", text),
        ]
    )
    palette = {name: Style() for name in STYLE_NAMES}
    for row in (Row(1, 0, 0), Row(1, 1, 0)):
        shown = render_row(row, timeline, {1}, RowLook(200, palette)).plain
        assert _visible(shown), repr(shown)
    header = render_row(Row(1, 0, 0), timeline, {1}, RowLook(200, palette)).plain
    assert all(stand_in in header for stand_in in _stand_ins_of(text)[:1]), header


async def test_catalog_console_timeline_and_detail_show_every_hostile_string_literally(tmp_path: Path) -> None:
    app = make_app(tmp_path, peer=_hostile_peer)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        catalog = screen.query_one(CatalogList)
        prompts = [str(catalog.get_option_at_index(i).prompt) for i in range(catalog.option_count)]
        for text in HOSTILE.values():
            shown = [p for p in prompts if clean(text).split("\n")[0][:8] in p]
            assert shown, f"no catalog entry shows {text!r}"
        assert all(_visible(p) for p in prompts), [p for p in prompts if not _visible(p)]
        console = screen.query_one(Console)
        assert all(_visible(line) for line in console.plain), console.plain
        assert "\x1b" not in "".join(console.plain)

        screen = await finished_call(pilot, NAMES[0], {})
        timeline = screen.query_one(TimelineView)
        rows = [_plain(timeline.render_line(y)) for y in range(timeline.size.height)]
        assert all(_visible(row) for row in rows), rows
        detail = screen.query_one(DetailView)
        shown = [_plain(detail.render_line(y)) for y in range(detail.size.height)]
        assert any("t0 a␛[2Jb" in line for line in shown), shown
        assert all(_visible(line) for line in shown), shown
