"""Where recordings are kept by default, how many, and what is in them (``inspector sessions``).

Every session records to ``<data dir>/recordings/session-<start time>.jsonl`` unless told otherwise. The data dir is
``$INSPECTOR_DATA_DIR`` when set (tests set it, so they never touch the user's folder), else the platform's user data
folder (platformdirs). Old recordings are pruned oldest first beyond a count and a total size, from
``$INSPECTOR_KEEP_RECORDINGS`` / ``$INSPECTOR_KEEP_MB``, else ``[recordings] keep`` / ``keep_mb`` in
``<config dir>/config.toml`` (``$INSPECTOR_CONFIG_DIR`` or the platform's user config folder), else 200 files / 500 MB.
Only files named ``session-*.jsonl`` in that folder are ever pruned: a file given with ``--record`` is the user's.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from inspector.paths import config_dir, data_dir

KEEP_ENV: Final = "INSPECTOR_KEEP_RECORDINGS"
KEEP_MB_ENV: Final = "INSPECTOR_KEEP_MB"
DEFAULT_KEEP: Final = 200
DEFAULT_KEEP_MB: Final = 500
PATTERN: Final = "session-*.jsonl"
_CALL_MARK: Final = b'"dir":"event","event":"call"'
_HEAD_LINES: Final = 64


@dataclass(frozen=True, slots=True)
class Limits:
    """How many recordings to keep, and how many bytes in total."""

    files: int = DEFAULT_KEEP
    bytes: int = DEFAULT_KEEP_MB * 1024 * 1024


def recordings_dir() -> Path:
    """Where default recordings go."""
    return data_dir() / "recordings"


def _positive(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            return None
    return value if isinstance(value, int) and value > 0 else None


def limits(warnings: list[str] | None = None) -> Limits:
    """The configured limits; a bad value is left out (and explained in ``warnings``), never fatal."""
    notes = warnings if warnings is not None else []
    files: int | None = None
    megabytes: int | None = None
    config = config_dir() / "config.toml"
    if config.is_file():
        try:
            section = tomllib.loads(config.read_text(encoding="utf-8")).get("recordings", {})
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            notes.append(f"{config}: {exc}; using the defaults")
            section = {}
        if isinstance(section, dict):
            files = _positive(section.get("keep")) if "keep" in section else None
            megabytes = _positive(section.get("keep_mb")) if "keep_mb" in section else None
            for key in ("keep", "keep_mb"):
                if key in section and _positive(section[key]) is None:
                    notes.append(f"{config}: [recordings] {key} must be a positive integer")
    for env, name in ((KEEP_ENV, "files"), (KEEP_MB_ENV, "mb")):
        raw = os.environ.get(env)
        if raw is None:
            continue
        value = _positive(raw)
        if value is None:
            notes.append(f"${env}={raw!r} is not a positive integer; ignored")
        elif name == "files":
            files = value
        else:
            megabytes = value
    return Limits(files or DEFAULT_KEEP, (megabytes or DEFAULT_KEEP_MB) * 1024 * 1024)


def kept_recordings(folder: Path | None = None) -> list[Path]:
    """Default recordings in ``folder``, oldest first (by start time in the name)."""
    folder = folder if folder is not None else recordings_dir()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob(PATTERN) if p.is_file())


def prune(folder: Path | None = None, keep: Limits | None = None, *, room_for: int = 0) -> list[Path]:
    """Delete the oldest default recordings beyond the limits; ``room_for`` files about to be made count too.

    Returns the files deleted. A file that cannot be deleted is left alone.
    """
    keep = keep if keep is not None else limits()
    files = kept_recordings(folder)
    sizes = {}
    for path in files:
        try:
            sizes[path] = path.stat().st_size
        except OSError:
            sizes[path] = 0
    total = sum(sizes.values())
    deleted: list[Path] = []
    while files and (len(files) + room_for > keep.files or total > keep.bytes):
        oldest = files.pop(0)
        try:
            oldest.unlink()
        except OSError:
            continue
        total -= sizes[oldest]
        deleted.append(oldest)
    return deleted


def new_recording_path(folder: Path | None = None, now: dt.datetime | None = None) -> Path:
    """A fresh default recording path (named by the local start time); prunes old ones to make room first."""
    folder = folder if folder is not None else recordings_dir()
    prune(folder, room_for=1)
    stamp = (now or dt.datetime.now()).strftime("%Y%m%d-%H%M%S-%f")
    return folder / f"session-{stamp}.jsonl"


@dataclass(frozen=True, slots=True)
class Summary:
    """One line of ``inspector sessions``."""

    path: Path
    started: str | None
    target: str | None
    transport: str | None
    era: str | None
    calls: int
    size: int
    readable: bool = True

    def to_json(self) -> dict[str, Any]:
        """As JSON."""
        return {
            "path": str(self.path),
            "started": self.started,
            "target": self.target,
            "transport": self.transport,
            "era": self.era,
            "calls": self.calls,
            "bytes": self.size,
            "readable": self.readable,
        }


def summarize(path: Path) -> Summary:
    """Header facts, the era decided, the number of calls and the size, without building the timeline."""
    header: dict[str, Any] = {}
    era: str | None = None
    calls = 0
    size = 0
    readable = True
    try:
        size = path.stat().st_size
        with path.open("rb") as file:
            for number, line in enumerate(file):
                calls += line.count(_CALL_MARK)
                if number >= _HEAD_LINES or (era is not None and header):
                    continue
                try:
                    value = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(value, dict):
                    continue
                if number == 0 and "recording" in value:
                    header = value
                elif value.get("event") == "era" and value.get("dir") == "event":
                    era = f"{value.get('era')} {value.get('version')}"
    except OSError:
        readable = False
    if era is None and header.get("era") in ("modern", "legacy"):
        era = str(header["era"])
    started = header.get("started")
    if not isinstance(started, str):
        try:
            started = dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC).isoformat(timespec="seconds")
        except OSError:
            started = None
    target = header.get("target")
    transport = header.get("transport")
    return Summary(
        path,
        started,
        target if isinstance(target, str) else None,
        transport if isinstance(transport, str) else None,
        era,
        calls,
        size,
        readable and bool(header),
    )


def list_sessions(folder: Path | None = None) -> list[Summary]:
    """Every default recording, newest first."""
    return [summarize(path) for path in reversed(kept_recordings(folder))]
