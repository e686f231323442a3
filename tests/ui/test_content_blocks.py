"""A call's result in the detail pane by content type: markdown rendered (``m`` its source), an image, audio and an
embedded resource as labelled blocks, a resource link read with one key, ``structuredContent`` as a tree and a table
beside the tool's ``outputSchema``, the raw JSON one key away (``j``); hostile markdown shown literally. Pilot tests
and SVG snapshots on the real session over the memory transport to ``content_peers``'s scripted server, and the
document's folding checked without a screen (a 5 MB text or table costs its first lines until unfolded)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import pytest
from content_peers import FORECAST, LINK_URI, STRUCTURED, content_server
from scripted import Script
from textual.pilot import Pilot
from textual.strip import Strip
from ui_support import SIZE, finished_call, footer, make_app, wait_for

from inspector.protocol.sanitize import has_hidden
from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline
from inspector.ui.app import InspectorApp
from inspector.ui.detail.call_document import call_document
from inspector.ui.detail.content_blocks import ResultView
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.detail.lines import Document
from inspector.ui.detail.markdown_lines import looks_like_markdown
from inspector.ui.main.main_screen import MainScreen

SnapCompare = Callable[..., bool]
SMALL: Final = (80, 24)


def app_on(script: Script, tmp_path: Path) -> InspectorApp:
    return make_app(tmp_path, peer=script.peer)


async def forecast(pilot: Pilot[Any]) -> tuple[MainScreen, DetailView]:
    """Call ``forecast`` and give the detail pane the focus (its keys are the pane's)."""
    screen = await finished_call(pilot, "forecast", {})
    detail = screen.query_one(DetailView)
    detail.focus()
    await pilot.pause()
    return screen, detail


def from_line(lines: list[str], start: str) -> list[str]:
    """``lines`` from the first that starts with ``start``."""
    return lines[next(at for at, line in enumerate(lines) if line.startswith(start)) :]


def strip_text(strip: Strip) -> str:
    return "".join(segment.text for segment in strip)


# ---------------------------------------------------------------------------------------------------- pilot tests
async def test_a_result_shows_each_content_block_as_what_it_is(tmp_path: Path) -> None:
    async with app_on(content_server(), tmp_path).run_test(size=SIZE) as pilot:
        _, detail = await forecast(pilot)
        lines = from_line(detail.plain_lines, "─ result")
        assert lines[:2] == [
            "─ result (by content type) ",
            "keys here: j raw JSON · m markdown source · 1 reads the link",
        ]
        # The markdown rendered: no "#", no "**", the link's address spelled out after its text.
        assert lines[2] == "▍text · markdown (m shows the source)"
        assert lines[3] == "Forecast for Lisbon"
        prose = " ".join(lines)  # (the paragraphs wrap at the pane's width)
        assert "Mostly sunny, a light breeze from the north-west." in prose
        assert " • Tue: 19 °C, showers" in lines
        assert "See the station (https://weather.example/lisbon) for more." in prose
        assert "▍image · image/png · 88 bytes · 64×32 px" in lines
        assert "▍resource link · 1 reads it" in lines
        link = lines.index("▍resource link · 1 reads it")
        assert lines[link + 1 : link + 4] == [LINK_URI, "Lisbon, hour by hour · text/markdown", "The next 24 hours"]
        station = lines.index("▍embedded resource · memo://station · text/plain")
        assert lines[station + 1 : station + 3] == ["LIS-1", "10:00"]  # its text as text, unfolded
        assert "▍audio · audio/wav · 844 bytes" in lines
        tree = from_line(lines, "▍structuredContent")
        assert tree[0] == "▍structuredContent · beside the tool's outputSchema"
        assert tree[1].startswith('├─ city: "Lisbon"') and tree[1].endswith("string · required · City name")
        assert tree[2].startswith("├─ temperature: 21.5") and tree[2].endswith("number · required · °C now")
        assert tree[3].startswith("├─ sunny: true") and tree[3].endswith("boolean")
        assert tree[4].startswith("└─ days (2 rows)") and tree[4].endswith("array · required")
        assert [line.strip() for line in tree[5:9]] == [
            "day  high  low",
            "───  ────  ───",
            "Mon    22   15",
            "Tue    19   14",
        ]
        assert detail.document.links == [LINK_URI]


async def test_the_markdown_is_styled_and_nothing_is_a_hyperlink(tmp_path: Path) -> None:
    async with app_on(content_server(), tmp_path).run_test(size=SIZE) as pilot:
        _, detail = await forecast(pilot)
        shown = [detail.render_line(y) for y in range(detail.size.height)]
        heading = next(strip for strip in shown if strip_text(strip).startswith("Forecast for Lisbon"))
        assert any(segment.style is not None and segment.style.bold for segment in heading)
        for strip in shown:
            for segment in strip:
                assert segment.style is None or (segment.style.link is None and not segment.style.meta), strip


async def test_j_shows_the_raw_json_and_j_again_the_content(tmp_path: Path) -> None:
    async with app_on(content_server(), tmp_path).run_test(size=SIZE) as pilot:
        _, detail = await forecast(pilot)
        assert ("j", "raw JSON") in footer(pilot.app)  # the footer says so
        await pilot.press("j")
        await wait_for(pilot, lambda: "─ result (raw JSON) " in detail.plain_lines)
        lines = from_line(detail.plain_lines, "─ result (raw JSON)")
        assert lines[1] == "keys here: j shows it by content type"
        assert json.loads("\n".join(lines[2:])) == FORECAST  # the result exactly, pretty-printed
        assert ("j", "by type") in footer(pilot.app) and ("m", "md source") not in footer(pilot.app)
        await pilot.press("j")
        await wait_for(pilot, lambda: "─ result (by content type) " in detail.plain_lines)


async def test_m_shows_the_markdown_source_and_m_again_renders_it(tmp_path: Path) -> None:
    async with app_on(content_server(), tmp_path).run_test(size=SIZE) as pilot:
        _, detail = await forecast(pilot)
        await pilot.press("m")
        await wait_for(pilot, lambda: "# Forecast for Lisbon" in detail.plain_lines)
        assert "Mostly **sunny**, a light breeze from the *north-west*." in detail.plain_lines
        assert "▍text · markdown source (m renders it)" in detail.plain_lines
        assert ("m", "md rendered") in footer(pilot.app)
        await pilot.press("m")
        await wait_for(pilot, lambda: "Forecast for Lisbon" in detail.plain_lines)


async def test_the_link_key_reads_the_resource_and_shows_what_it_read(tmp_path: Path) -> None:
    script = content_server()
    async with app_on(script, tmp_path).run_test(size=SIZE) as pilot:
        screen, _ = await forecast(pilot)
        assert ("1", "read link") in footer(pilot.app)
        before = len(screen.timeline.calls)
        await pilot.press("1")
        await wait_for(pilot, lambda: len(screen.timeline.calls) > before and screen.timeline.calls[-1].ended)
        read = screen.timeline.calls[-1]
        assert (read.method, read.params, read.status) == ("resources/read", {"uri": LINK_URI}, "complete")
        assert [m["params"]["uri"] for m in script.received if m.get("method") == "resources/read"] == [LINK_URI]
        # The timeline highlights the read, and the detail shows its contents by type: the markdown table rendered.
        detail = screen.query_one(DetailView)
        await wait_for(
            pilot, lambda: screen.selected == (read.index, 0) and "Lisbon, hour by hour" in detail.plain_lines
        )
        lines = from_line(detail.plain_lines, "─ result")
        assert lines[2] == f"▍contents · {LINK_URI} · text/markdown · markdown (m shows the source)"
        assert any(line.split() == ["10:00", "19"] for line in lines)


async def test_at_80x24_the_result_reads_the_same(tmp_path: Path) -> None:
    async with app_on(content_server(), tmp_path).run_test(size=SMALL) as pilot:
        _, detail = await forecast(pilot)
        lines = from_line(detail.plain_lines, "─ result")
        assert "Forecast for Lisbon" in lines and "▍image · image/png · 88 bytes · 64×32 px" in lines
        width = detail.scrollable_content_region.width
        assert all(len(line) <= width for line in lines[3:12]), lines[3:12]  # the markdown laid out at the pane's width


async def test_hostile_markdown_and_structured_content_are_shown_literally(tmp_path: Path) -> None:
    async with app_on(content_server(), tmp_path).run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "hostile_markdown", {})
        detail = screen.query_one(DetailView)
        lines = from_line(detail.plain_lines, "─ result")
        text = "\n".join(lines)
        assert not has_hidden(text.replace("\n", "")), text
        assert "Title␛[2J␛[31m red" in lines  # the escape sequence as visible characters, and the heading kept
        assert "abc⟨U+202E⟩dcba" in text and "ad⟨U+200B⟩d" in text and "⟨U+FEFF⟩bom" in text and "⟨U+009B⟩2J" in text
        assert "[safe](javascript:alert(1))" in text  # not a link: its source, literally
        # The target spelled out, its override made visible (and percent-encoded by the parser, as any URL).
        assert "docs(https://evil.example/%E2%9F%A8U+202E%E2%9F%A9gpj.exe)" in "".join(text.split())
        assert "⟨U+202E⟩ ⟨U+200B⟩" in text  # entities decoded by the parser are made visible again
        flat = text.replace("\n", " ")
        assert "<!-- hidden -->" in flat and "[bold red]markup[/]" in flat  # HTML and Rich markup as text
        assert "[image: pic] (https://evil.example/x.png)" in flat
        assert '├─ na⟨U+202E⟩me: "x\\u001b[31my"' in text and '└─ [bold]k[/]: "⟨U+200B⟩z"' in text
        for y in range(detail.size.height):
            for segment in detail.render_line(y):
                assert not has_hidden(segment.text) and (segment.style is None or segment.style.link is None)
                assert segment.style is None or not segment.style.meta


async def test_the_raw_text_of_a_hostile_markdown_is_still_literal(tmp_path: Path) -> None:
    async with app_on(content_server(), tmp_path).run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "hostile_markdown", {})
        detail = screen.query_one(DetailView)
        detail.focus()
        await pilot.press("m")
        await wait_for(
            pilot, lambda: "# Title␛[2J␛[31m red" in [strip_text(detail.render_line(y)).rstrip() for y in range(40)]
        )
        for y in range(detail.size.height):
            assert not has_hidden(strip_text(detail.render_line(y)))


# ---------------------------------------------------------------------------------------------------- documents
def call_with(result: dict[str, Any], method: str = "tools/call") -> Any:
    """A call that ended with ``result``, built from records as the session builds it."""
    reply = json.dumps({"jsonrpc": "2.0", "id": 1, "result": result})
    timeline = build_timeline(
        [
            records.call_started(0.0, 1, method, {"name": "t"}),
            records.wire(0.1, "c2s", json.dumps({"jsonrpc": "2.0", "id": 1, "method": method}), call=1),
            records.wire(0.2, "s2c", reply),
            records.call_ended(0.3, 1, "complete", ""),
        ]
    )
    call = timeline.call(1)
    assert call is not None
    return call


def result_lines(doc: Document) -> list[str]:
    return [text for _, text in from_line_entries(doc)]


def from_line_entries(doc: Document) -> list[tuple[str, str]]:
    start = next(at for at, (_, text) in enumerate(doc.lines) if text.startswith("─ result"))
    return [(kind, text) for kind, text in doc.lines[start:]]


def test_a_long_text_folds_after_200_lines_and_unfolds_whole() -> None:
    text = "\n".join(f"line {i}" for i in range(100_000))
    call = call_with({"content": [{"type": "text", "text": text}]})
    folded = call_document(call)
    lines = result_lines(folded)
    assert folded.folded and lines[-1] == "⋯ folded after 199 of 100,000 lines · press x to unfold"
    assert len(lines) < 210
    unfolded = call_document(call, unfold=True)
    assert not unfolded.folded and "line 99999" in result_lines(unfolded)


def test_a_large_table_folds_and_unfolds_a_line_a_row() -> None:
    rows = [{"row": i, "value": f"item-{i:06d}", "ok": i % 3 != 0} for i in range(120_000)]
    call = call_with({"content": [], "structuredContent": {"rows": rows}})
    folded = call_document(call)
    assert folded.folded and len(folded.lines) < 250
    assert result_lines(folded)[-1] == "⋯ folded after 200 lines of 6.3 MB · press x to unfold"
    unfolded = call_document(call, unfold=True)
    table = [text.strip() for _, text in unfolded.lines if text.strip().startswith(("row", "119999"))]
    assert table[0].split() == ["row", "value", "ok"] and table[-1].split() == ["119999", "item-119999", "true"]


def test_a_long_markdown_renders_its_first_part_folded_and_all_of_it_unfolded() -> None:
    text = "\n\n".join(f"Paragraph **{i}** of a long document." for i in range(2_000))
    call = call_with({"content": [{"type": "text", "text": text}]})
    folded = call_document(call)
    markdown = [text for kind, text in folded.lines if kind == "markdown"]
    assert len(markdown) == 1 and markdown[0].endswith("Paragraph **98** of a long document.")  # at a blank line
    assert folded.lines[-1] == ("fold", "⋯ folded after 197 of 3,999 lines · press x to unfold")
    unfolded = call_document(call, unfold=True)
    assert [text for kind, text in unfolded.lines if kind == "markdown"] == [text] and not unfolded.folded


def test_a_markdown_too_long_to_lay_out_shows_as_its_text_unfolded() -> None:
    text = "\n\n".join(f"Paragraph **{i}** of a long document." for i in range(5_000))
    unfolded = call_document(call_with({"content": [{"type": "text", "text": text}]}), unfold=True)
    lines = result_lines(unfolded)
    assert "(markdown of 198,888 characters, too long to lay out: its text)" in lines
    assert "Paragraph **4999** of a long document." in lines
    assert all(kind != "markdown" for kind, _ in unfolded.lines)


def test_structured_content_that_breaks_its_schema_says_where() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["n", "id"],
        "additionalProperties": False,
    }
    call = call_with({"content": [], "structuredContent": {"n": "7", "tags": ["a", 2], "extra": None}})
    doc = call_document(call, tool={"name": "t", "outputSchema": schema})
    lines = result_lines(doc)
    assert any(line.startswith('├─ n: "7"') and line.endswith("integer · required  ✗ not integer") for line in lines)
    assert any(line.startswith("├─ tags: [") for line in lines)  # a short array of scalars, inline
    assert any(line.startswith("├─ extra: null") and "✗ not in the outputSchema" in line for line in lines)
    assert any(
        line.startswith("└─ id: (missing)") and line.endswith("✗ required by the outputSchema") for line in lines
    )


def test_a_tool_that_promised_structured_content_and_sent_none_is_said() -> None:
    call = call_with({"content": [{"type": "text", "text": "hi"}]})
    doc = call_document(call, tool={"name": "t", "outputSchema": {"type": "object"}})
    assert "✗ the tool declares an outputSchema, and the result has no structuredContent" in result_lines(doc)
    unknown = call_document(call_with({"content": [], "structuredContent": STRUCTURED}))
    assert any("outputSchema is unknown" in line for line in result_lines(unknown))


def test_blocks_the_inspector_does_not_know_show_their_json() -> None:
    call = call_with({"content": [{"type": "hologram", "data": 1}, "text"], "isError": True})
    lines = result_lines(call_document(call))
    assert "✗ the tool reports an error (isError: true)" in lines
    assert "▍hologram (a content type this inspector does not draw: its JSON)" in lines and '  "data": 1' in lines
    assert "▍not a content block: str" in lines


def test_the_raw_view_is_the_result_json() -> None:
    result = {"content": [{"type": "text", "text": "# hi"}], "resultType": "complete"}
    doc = call_document(call_with(result), view=ResultView(raw_json=True))
    lines = result_lines(doc)
    assert lines[0] == "─ result (raw JSON) " and json.loads("\n".join(lines[2:])) == result
    assert doc.views == {"json"} and doc.links == []


def test_a_prompt_and_a_resource_read_show_their_blocks() -> None:
    prompt = {"description": "Review", "messages": [{"role": "user", "content": {"type": "text", "text": "Look"}}]}
    lines = result_lines(call_document(call_with(prompt, "prompts/get")))
    assert lines[2:6] == ["Review", "  user", "▍text", "Look"]
    blob = {"contents": [{"uri": "file:///a.pdf", "mimeType": "application/pdf", "blob": "JVBERi0xLjQ="}]}
    lines = result_lines(call_document(call_with(blob, "resources/read")))
    assert lines[2] == "▍contents · file:///a.pdf · application/pdf · 8 bytes"


@pytest.mark.parametrize(
    ("text", "markdown"),
    [
        ("Counted to 5.", False),
        ("The client shared 2 root(s):\n- file:///a", False),  # one dash line is no list
        ("2 * 3 = 6, and a_b_c", False),
        ("# Title", True),
        ("- one\n- two", True),
        ("see **this**", True),
        ("[docs](https://x.example)", True),
        ("| a | b |\n|---|---|", True),
        ("```\ncode\n```", True),
    ],
)
def test_a_text_block_is_markdown_only_when_it_uses_markdown(text: str, markdown: bool) -> None:
    assert looks_like_markdown(text) is markdown


@pytest.mark.parametrize("result", [{"content": "not a list"}, {"other": 1}])
def test_a_result_of_another_shape_stays_json(result: dict[str, Any]) -> None:
    lines = result_lines(call_document(call_with(result)))
    assert lines[0] == "─ result " and json.loads("\n".join(lines[1:])) == result


# ---------------------------------------------------------------------------------------------------- snapshots
def scroll_to_result(detail: DetailView, start: str = "─ result") -> None:
    """Scroll the detail pane so that the first line starting with ``start`` is its first row."""
    line = next(at for at, text in enumerate(detail.plain_lines) if text.startswith(start))
    row = next(y for y, (shown, begin, _) in enumerate(detail.rows) if shown == line and begin == 0)
    detail.scroll_to(0, row, animate=False, immediate=True)


async def _forecast_result_on_screen(pilot: Pilot[Any]) -> None:
    """The forecast called, the detail pane focused and scrolled to its result."""
    _, detail = await forecast(pilot)
    scroll_to_result(detail)
    await pilot.pause()


def forecast_scrolled_to(start: str) -> Callable[[Pilot[Any]], Any]:
    """Steps: the forecast called, the detail pane focused and scrolled to the line starting with ``start``."""

    async def steps(pilot: Pilot[Any]) -> None:
        _, detail = await forecast(pilot)
        scroll_to_result(detail, start)
        await pilot.pause()

    return steps


def test_a_result_by_content_type_at_160x45(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The detail pane has the focus and heads "─ result (by content type)", "keys here: j raw JSON · m markdown
    source · 1 reads the link"; "▍text · markdown (m shows the source)" in the label colour, then the markdown
    rendered: "Forecast for Lisbon" bold and underlined (no "#"), "Mostly sunny, ..." with "sunny" bold and
    "north-west" italic, two bullets " • ", "See the station (https://weather.example/lisbon) for more." with the
    address spelled out; "▍image · image/png · 121 bytes · 64×32 px" and its base64's length; "▍resource link · 1
    reads it", its URI, "Lisbon, hour by hour · text/markdown"; the embedded resource's two lines; the audio's
    label; then "▍structuredContent · beside the tool's outputSchema" and the tree, the schema's words in a dim
    column. The footer offers "j raw JSON", "m md source" and "1 read link"."""
    assert snap_compare(app_on(content_server(), tmp_path), terminal_size=SIZE, run_before=_forecast_result_on_screen)


def test_structured_content_at_160x45(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Scrolled down the same result: "▍audio · audio/wav · 844 bytes" in the label colour and its base64's length;
    then "▍structuredContent · beside the tool's outputSchema" and the tree: ├─ city: "Lisbon" (the key in the key
    colour, the value in the string colour), temperature: 21.5 (number colour), sunny: true (literal colour), └─ days
    (2 rows), each with the schema's words in a column after it ("string · required · City name", wrapped in this
    narrow pane); under days a table: day, high, low, a rule, "Mon 22 15" and "Tue 19 14", the numbers
    right-aligned; last "also in the result: ..." is not there (resultType complete is not repeated)."""
    app = app_on(content_server(), tmp_path)
    assert snap_compare(app, terminal_size=SIZE, run_before=forecast_scrolled_to("▍audio"))


def test_a_resource_link_at_80x24(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """At 80x24, scrolled to the resource link: "▍resource link · 1 reads it", its URI, "Lisbon, hour by hour ·
    text/markdown", "The next 24 hours", then the embedded resource's label (the pane is seven rows high); the footer
    offers "1 read link"."""
    app = app_on(content_server(), tmp_path)
    assert snap_compare(app, terminal_size=SMALL, run_before=forecast_scrolled_to("▍resource link"))


def test_a_result_by_content_type_at_80x24(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """At 80x24 the detail pane is below the timeline, full width, focused and scrolled to the result: the same
    heading and keys line, the markdown laid out at the pane's width (nothing cut), the image's label; the footer
    offers j, m and 1 among the pane keys."""
    assert snap_compare(app_on(content_server(), tmp_path), terminal_size=SMALL, run_before=_forecast_result_on_screen)


def test_the_raw_json_at_160x45(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """After j: "─ result (raw JSON)", "keys here: j shows it by content type", then the result as coloured JSON
    (the image's base64 a long string); the footer offers "j by type" and no m or 1."""

    async def steps(pilot: Pilot[Any]) -> None:
        await _forecast_result_on_screen(pilot)
        detail = pilot.app.screen.query_one(DetailView)
        await pilot.press("j")
        await wait_for(pilot, lambda: "─ result (raw JSON) " in detail.plain_lines)
        scroll_to_result(detail)
        await pilot.pause()

    assert snap_compare(app_on(content_server(), tmp_path), terminal_size=SIZE, run_before=steps)
