"""Helpers for the headless face's tests: timelines from real captures, printed to a recording console."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from inspector.headless.printed_timeline import print_timeline
from inspector.timeline.build.builder import build_timeline
from inspector.timeline.capture_import import records_from_capture
from inspector.timeline.model import Timeline

CAPTURES = Path(__file__).resolve().parents[2].parent / "shared" / "captures"
if not CAPTURES.is_dir():  # a worktree sits one folder deeper than the checkout shared/ is beside
    CAPTURES = Path(__file__).resolve().parents[3].parent / "shared" / "captures"


def capture_timeline(name: str) -> Timeline:
    """The timeline of a real capture in ../shared/captures (traffic of the official SDKs' servers)."""
    return build_timeline(records_from_capture((CAPTURES / name).read_text(encoding="utf-8").splitlines()))


def printed(timeline: Timeline) -> str:
    """What ``inspector call`` prints for the timeline, as plain text (styles dropped, every character kept)."""
    console = Console(record=True, width=200, color_system=None, force_terminal=False)
    print_timeline(console, timeline)
    return console.export_text()
