"""Pure helpers of the TUI: safe text, targets, config discovery, themes, timeline rows, requestState looks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.style import Style

from inspector.protocol.jsonrpc import JsonObject
from inspector.targets import known as known_targets
from inspector.targets.target import Target
from inspector.timeline import records
from inspector.timeline.build.builder import TimelineBuilder
from inspector.timeline.model import RequestState, Timeline
from inspector.ui.main.pane_layout import PaneLayout, Panes
from inspector.ui.safe_text import clean, one_line, safe
from inspector.ui.themes import VARIABLE_DEFAULTS, ThemeFile, load_themes, shipped_themes_dir
from inspector.ui.widgets.call_filter import CallFilter
from inspector.ui.widgets.request_state import echo_line, looks_like
from inspector.ui.widgets.timeline_rows import STYLE_NAMES, Row, RowLook, build_rows, render_row


def test_clean_makes_escape_sequences_and_controls_visible() -> None:
    assert clean("\x1b[2J\x1b[31mred\r\x07") == "␛[2J␛[31mred␍␇"
    assert clean("tab\tand\nnewline kept") == "tab\tand\nnewline kept"
    assert clean("\u202eevil") == "⟨U+202E⟩evil"
    assert one_line("a\nb", 10) == "a⏎b"
    assert one_line("x" * 20, 5) == "xxxx…"


def test_safe_never_parses_markup() -> None:
    text = safe("[bold red]x[/] [link=https://evil.example]click[/link]")
    assert text.plain == "[bold red]x[/] [link=https://evil.example]click[/link]"
    assert text.spans == []


def test_target_from_spec() -> None:
    stdio = Target.from_spec("python -m inspector.demo --flag 'a b'")
    assert stdio.kind == "stdio" and stdio.command == ("python", "-m", "inspector.demo", "--flag", "a b")
    http = Target.from_spec("https://example.com/mcp", headers={"Authorization": "Bearer x"})
    assert http.kind == "http" and http.url == "https://example.com/mcp"
    assert "header_names" in http.to_json() and "Bearer x" not in json.dumps(http.to_json())
    assert Target.from_json(stdio.to_json()) == Target("stdio", command=stdio.command, name=stdio.name, source="recent")
    with pytest.raises(ValueError):
        Target.from_spec("   ")


def test_recent_targets_round_trip_newest_first_and_capped(tmp_path: Path) -> None:
    for i in range(known_targets.RECENT_LIMIT + 3):
        known_targets.remember(tmp_path, Target.from_spec(f"server-{i}"))
    known_targets.remember(tmp_path, Target.from_spec("server-5"))
    recent = known_targets.load_recent(tmp_path)
    assert len(recent) == known_targets.RECENT_LIMIT
    assert recent[0].spec == "server-5" and [t.spec for t in recent].count("server-5") == 1
    (tmp_path / "recent.json").write_text("{broken")
    assert known_targets.load_recent(tmp_path) == []


def test_discover_reads_every_client_config(tmp_path: Path) -> None:
    home, cwd = tmp_path / "home", tmp_path / "project"
    (home / ".config" / "Claude").mkdir(parents=True)
    (home / ".cursor").mkdir()
    (cwd / ".vscode").mkdir(parents=True)
    desktop = {"mcpServers": {"files": {"command": "npx", "args": ["-y", "server-files"], "env": {"ROOT": "/tmp"}}}}
    (home / ".config" / "Claude" / "claude_desktop_config.json").write_text(json.dumps(desktop))
    (cwd / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"remote": {"url": "https://mcp.example/mcp", "headers": {"X": "1"}}}})
    )
    (cwd / ".vscode" / "mcp.json").write_text(
        json.dumps({"servers": {"vs": {"type": "stdio", "command": "uvx", "args": ["vs-server"]}}})
    )
    (home / ".cursor" / "mcp.json").write_text("{not json")
    found = known_targets.discover(home, cwd)
    by_name = {t.name: t for t in found.targets}
    assert set(by_name) == {"files (claude_desktop_config.json)", "remote (.mcp.json)", "vs (.vscode/mcp.json)"}
    assert by_name["files (claude_desktop_config.json)"].command == ("npx", "-y", "server-files")
    assert by_name["files (claude_desktop_config.json)"].env == {"ROOT": "/tmp"}
    assert by_name["remote (.mcp.json)"].kind == "http" and by_name["remote (.mcp.json)"].headers == {"X": "1"}
    assert len(found.problems) == 1 and "~/.cursor/mcp.json" in found.problems[0]


def test_shipped_themes_validate_and_define_every_variable() -> None:
    loaded = load_themes(shipped_themes_dir())
    assert loaded.problems == []
    assert {"inspector-dark", "inspector-light", "inspector-contrast"} <= set(loaded.themes)
    for theme in loaded.themes.values():
        assert set(VARIABLE_DEFAULTS) <= set(theme.variables)


def test_theme_variables_default_from_base_colours() -> None:
    theme = ThemeFile.model_validate({"name": "mini", "primary": "#112233", "error": "#ff0000"})
    variables = theme.variables()
    assert variables["timeline-error"] == "#ff0000" and variables["json-key"] == "#112233"
    assert set(variables) == set(VARIABLE_DEFAULTS)


def test_bad_theme_files_are_reported_and_skipped(tmp_path: Path) -> None:
    (tmp_path / "a-broken.toml").write_text("name = [unclosed")
    (tmp_path / "b-colour.toml").write_text('name = "b"\nprimary = "not-a-colour"\n')
    (tmp_path / "c-extra.toml").write_text('name = "c"\nprimary = "#123456"\nsparkles = true\n')
    (tmp_path / "d-good.toml").write_text('name = "d"\nprimary = "#123456"\n')
    loaded = load_themes(tmp_path)
    assert list(loaded.themes) == ["d"]
    assert [problem.split(" skipped")[0] for problem in loaded.problems] == [
        "theme a-broken.toml",
        "theme b-colour.toml",
        "theme c-extra.toml",
    ]
    assert "primary" in loaded.problems[1] and "sparkles" in loaded.problems[2]


def test_looks_like_names_without_decoding() -> None:
    assert looks_like("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl") == "JWT (three base64url parts)"
    assert looks_like('{"step": 1}') == "JSON"
    assert looks_like("eyJyZXNvbHV0aW9uIjoiRHVwbGljYXRlIn0=") == "base64 (of JSON)"
    assert looks_like("aGVsbG8gd29ybGQh") == "base64"
    assert looks_like("not base64 at all!") == "opaque"


def test_echo_line_ticks_only_when_echoed() -> None:
    assert echo_line(RequestState("x", echoed=True))[0].startswith("✓")
    assert echo_line(RequestState("x", echoed=False))[0].startswith("✗")
    assert "✓" not in echo_line(RequestState("x"))[0]


def recorded_timeline(calls: int) -> Timeline:
    """A timeline of ``calls`` finished ``add`` calls, every fifth one in three rounds, each retry echoing the
    requestState (built from records)."""
    builder = TimelineBuilder()
    next_id = 1
    for index in range(1, calls + 1):
        builder.apply(records.call_started(index, index, "tools/call", {"name": "add", "arguments": {"a": index}}))
        rounds = 3 if index % 5 == 0 else 1
        for round_ in range(rounds):
            params: JsonObject = {"name": "add"} if round_ == 0 else {"name": "add", "requestState": f"r{round_ - 1}"}
            request = {"jsonrpc": "2.0", "id": next_id, "method": "tools/call", "params": params}
            builder.apply(records.wire(index, "c2s", json.dumps(request), call=index))
            last = round_ == rounds - 1
            result: JsonObject = (
                {"resultType": "complete", "content": [{"type": "text", "text": str(index + 1)}]}
                if last
                else {"resultType": "input_required", "requestState": f"r{round_}"}
            )
            builder.apply(records.wire(index, "s2c", json.dumps({"jsonrpc": "2.0", "id": next_id, "result": result})))
            next_id += 1
        builder.apply(records.call_ended(index, index, "complete"))
    return builder.timeline


def test_rows_newest_first_and_filter_terms() -> None:
    timeline = recorded_timeline(10)
    rows = build_rows(timeline, set(), CallFilter())
    assert rows[0] == Row(10, 0, 0) and len(rows) == 10
    expanded = build_rows(timeline, {10}, CallFilter())
    assert expanded[:4] == [Row(10, 0, 0), Row(10, 1, 0), Row(10, 2, 0), Row(10, 3, 0)]
    assert build_rows(timeline, set(), CallFilter("status:error")) == []
    assert len(build_rows(timeline, set(), CallFilter("method:tools/call name:add"))) == 10
    assert build_rows(timeline, set(), CallFilter("nothing-matches")) == []


def test_a_row_whose_detail_line_is_gone_draws_blank() -> None:
    """The timeline widget's rows are built from the timeline as it last heard of it, and the timeline changes first
    (a legacy round's answer line goes once the call's task exists): a row for a detail line that is gone draws
    blank until the rows are rebuilt, never an IndexError in a repaint (it crashed the app)."""
    timeline = recorded_timeline(5)
    look = RowLook(80, {name: Style() for name in STYLE_NAMES})
    for gone in (Row(5, 1, 3), Row(5, 0, 4)):  # a line under round 1, a line under the call itself
        assert render_row(gone, timeline, {5}, look).plain == " " * 80


def test_the_panes_follow_the_size_and_a_toggle_holds_until_a_threshold_is_crossed() -> None:
    layout = PaneLayout()
    assert layout.resized(160, 45) == Panes(True, True, True, stacked=False, drawer=False)
    assert layout.resized(100, 30) == Panes(True, True, False, stacked=True, drawer=False)
    small = layout.resized(80, 24)
    assert small == Panes(False, True, False, stacked=True, drawer=True)
    assert small.classes() == {"-stacked", "-drawer", "-no-catalog", "-no-console"}
    assert layout.toggle("catalog").catalog and layout.resized(82, 24).catalog  # same band: the toggle holds
    assert layout.resized(80, 24).catalog and layout.chosen == {"catalog": True}
    zoomed = layout.zoom()
    assert not (zoomed.catalog or zoomed.detail or zoomed.console)
    assert layout.zoom() == Panes(False, True, False, stacked=True, drawer=True)  # again: as the size gives
    layout.toggle("console")
    assert layout.resized(160, 45).console and layout.chosen == {}  # a threshold crossed: adapts again
