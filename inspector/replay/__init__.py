"""Recordings read back: offline replay, step mode, re-run against a live server with a diff, export, the store.

The faces use these entry points (the TUI among them; none of them imports textual or httpx):

- ``timeline_from_recording(path) -> (Timeline, list[Problem])``: the exact timeline of a recording, read-only;
- ``load_recording(path) -> Loaded`` / ``build_loaded(loaded) -> Timeline``: the same in two steps (header, records);
- ``steps(records)``: the message-by-message walk of step mode;
- ``export_call(timeline, call_index, fmt, round=None) -> str``: curl, json or python for one call;
- ``ReplayAnswers`` + ``rerun(...)`` -> ``RerunReport``: re-drive the recorded calls on a live session and diff;
- ``store``: where default recordings go, pruning, ``list_sessions()``.
"""

from typing import TYPE_CHECKING

from inspector.lazy import lazy_exports

if TYPE_CHECKING:
    from inspector.replay.export import ExportError, export_call
    from inspector.replay.loader import (
        Loaded,
        Problem,
        RecordingError,
        build_loaded,
        load_recording,
        timeline_from_recording,
    )

# Imported on first use (PEP 562): export pulls in the answer sources and their validators, which opening the TUI
# (it imports the loader for replay) should not wait for.
__getattr__ = lazy_exports(
    __name__,
    {
        "inspector.replay.export": ("ExportError", "export_call"),
        "inspector.replay.loader": (
            "Loaded",
            "Problem",
            "RecordingError",
            "build_loaded",
            "load_recording",
            "timeline_from_recording",
        ),
    },
)


__all__ = [
    "ExportError",
    "Loaded",
    "Problem",
    "RecordingError",
    "build_loaded",
    "export_call",
    "load_recording",
    "timeline_from_recording",
]
