"""How the TUI commands hand their options over: ``replay FILE`` opens the TUI (a terminal, or ``--tui``) or prints
(``--print``, pipes), and ``--no-record`` on ``demo`` and ``connect``. The TUI itself is replaced by a recorder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_support import invoke

import inspector.cli.tui as tui
from inspector.timeline import records


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any, dict[str, Any]]]:
    """Every TUI the command would open: ("replay", loaded, options) or ("tui", target, options); exit code 0."""
    seen: list[tuple[str, Any, dict[str, Any]]] = []

    def replay(loaded: Any, **options: Any) -> int:
        seen.append(("replay", loaded, options))
        return 0

    def live(target: Any, **options: Any) -> int:
        seen.append(("tui", target, options))
        return 0

    monkeypatch.setattr(tui, "open_replay_tui", replay)
    monkeypatch.setattr(tui, "open_tui", live)
    return seen


def recording(tmp_path: Path) -> Path:
    path = tmp_path / "r.jsonl"
    lines = [
        records.header(
            "python -m inspector.demo", "stdio", "auto", started="2026-07-28T00:00:00", inspector_version="t"
        ),
        records.call_started(0.1, 1, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}),
        records.wire(0.1, "c2s", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}}), call=1),
        records.wire(0.2, "s2c", json.dumps({"jsonrpc": "2.0", "id": 1, "result": {"content": []}})),
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def test_replay_tui_and_step(opened: list[tuple[str, Any, dict[str, Any]]], tmp_path: Path) -> None:
    path = recording(tmp_path)
    result = invoke("replay", str(path), "--tui", "--step", "--theme", "inspector-light")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""  # nothing printed: the TUI shows it
    [(kind, loaded, options)] = opened
    assert kind == "replay" and loaded.path == path and len(loaded.records) == 3
    assert options == {"step": True, "theme": "inspector-light"}


def test_replay_prints_when_not_a_terminal_or_asked(
    opened: list[tuple[str, Any, dict[str, Any]]], tmp_path: Path
) -> None:
    path = recording(tmp_path)
    piped = invoke("replay", str(path))  # CliRunner's stdout is not a terminal
    printed = invoke("replay", str(path), "--print")
    as_json = invoke("replay", str(path), "--tui", "--json")  # --json always prints
    assert opened == []
    assert "#1 tools/call add" in piped.stdout and piped.stdout == printed.stdout
    assert json.loads(as_json.stdout)["calls"][0]["method"] == "tools/call"


def test_replay_help_documents_the_choice() -> None:
    result = invoke("replay", "--help")
    assert "--tui" in result.stdout and "--print" in result.stdout
    assert "terminals" in result.stdout


@pytest.mark.parametrize("command", [["demo"], ["connect", "python -m inspector.demo"]])
def test_no_record_reaches_the_tui(opened: list[tuple[str, Any, dict[str, Any]]], command: list[str]) -> None:
    assert invoke(*command, "--no-record").exit_code == 0
    assert invoke(*command).exit_code == 0
    assert [options["record"] is None for _, _, options in opened] == [True, False]
