"""Opens the Textual TUI (imported lazily so headless commands never load textual)."""

from __future__ import annotations

from pathlib import Path

from inspector.cli.compose import TargetOptions
from inspector.session.client import EraMode


def open_tui(
    target: TargetOptions | None, *, era: EraMode, record: Path | None, demo: bool = False, theme: str | None = None
) -> int:
    """Run the TUI on ``target`` (None: the connect screen); returns the exit code."""
    raise NotImplementedError("the TUI is being wired in")
