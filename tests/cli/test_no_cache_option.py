"""``--no-cache`` on the commands that open the TUI: without it the TUI's sessions keep lists and reads (one cache a
server for the run, ``cli/tui.make_session_factory``), with it they have none. The TUI itself is not opened: its
entry point is replaced by one that keeps what it was asked."""

from __future__ import annotations

from typing import Any

import pytest
from typer.testing import CliRunner

from inspector.cli import app
from inspector.cli import tui as tui_module


@pytest.mark.parametrize(
    ("args", "cache"),
    [
        (["connect", "python -m my_server"], True),
        (["connect", "python -m my_server", "--no-cache"], False),
        (["demo"], True),
        (["demo", "--no-cache"], False),
    ],
)
def test_no_cache_reaches_the_tui(monkeypatch: pytest.MonkeyPatch, args: list[str], cache: bool) -> None:
    asked: dict[str, Any] = {}

    def open_tui(target: object, **options: Any) -> int:
        asked.update(options)
        return 0

    monkeypatch.setattr(tui_module, "open_tui", open_tui)
    result = CliRunner().invoke(app, [*args, "--no-record"])
    assert result.exit_code == 0, result.output
    assert asked["cache"] is cache
