"""Reads a recording back, whatever state it is in, and rebuilds its Timeline with the live session's builder.

A recording can be damaged or newer than this inspector: the last line cut when the process was killed, a line that
is not JSON, an unknown format version, record kinds a newer inspector writes. ``load_recording`` keeps every record
it can read, and says for each line it could not use which line it was and why. It never raises for the content and
never writes to the file (it is opened read-only, once).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from inspector.protocol.hinted import HintedError
from inspector.protocol.json_values import json_int, json_number
from inspector.timeline.build.builder import TimelineBuilder
from inspector.timeline.model import Timeline
from inspector.timeline.records import FORMAT, FORMAT_VERSION, Record, raw_text

if TYPE_CHECKING:
    from inspector.timeline.model import TimelineListener

KNOWN_DIRS: Final = frozenset({"c2s", "s2c", "stderr", "event", "auth"})
KNOWN_EVENTS: Final = frozenset({"call", "answer", "end", "finding", "era", "fault", "closed", "instance", "cached"})
EXCERPT: Final = 80


class RecordingError(HintedError):
    """The file itself cannot be read (missing, a directory, no permission); ``hint`` says what to try."""


@dataclass(frozen=True, slots=True)
class Problem:
    """A line of the recording that could not be used as written: where, why, and what was done about it."""

    line: int
    """1-based line number in the file (0: the file as a whole)."""
    why: str
    severity: Literal["error", "warning"] = "error"
    """error: the line is damaged and was skipped; warning: the line was read, or skipped because a newer format
    wrote it, or the file as a whole is not quite what this inspector expects."""

    def describe(self) -> str:
        """'line 7: not JSON (...)' for humans."""
        where = f"line {self.line}" if self.line else "recording"
        return f"{where}: {self.why}"

    def to_json(self) -> dict[str, Any]:
        """As JSON, for --json documents."""
        return {"line": self.line, "severity": self.severity, "why": self.why}


@dataclass(slots=True)
class Loaded:
    """A recording as read: its header (None when missing), its records in order, and the problems found."""

    path: Path
    header: Record | None
    records: list[Record] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    """The line number of each record (same order as ``records``), so later problems can name their line."""
    problems: list[Problem] = field(default_factory=list)

    @property
    def version(self) -> object:
        """The header's format version as written (None without a header)."""
        return self.header.get("version") if self.header is not None else None

    @property
    def newer(self) -> bool:
        """Written by a newer inspector: a format version above ours, or record kinds we do not know."""
        version = json_int(self.version)
        newer_version = version is not None and version > FORMAT_VERSION
        return newer_version or any("unknown record" in p.why for p in self.problems)


def _excerpt(text: str) -> str:
    return repr(text if len(text) <= EXCERPT else text[: EXCERPT - 1] + "…")


def _check_header(data: dict[str, Any], problems: list[Problem]) -> None:
    if data.get("recording") != FORMAT:
        problems.append(Problem(1, f"the header names format {data.get('recording')!r}, not {FORMAT!r}", "warning"))
    given = data.get("version")
    version = json_int(given)
    if version is not None:
        if version > FORMAT_VERSION:
            by = f" (inspector {data.get('inspector')})" if data.get("inspector") else ""
            problems.append(
                Problem(
                    1,
                    f"recorded by a newer inspector{by}: format version {version}, this inspector reads version "
                    f"{FORMAT_VERSION}; showing what it understands",
                    "warning",
                )
            )
        elif version < 1:
            problems.append(
                Problem(1, f"unknown format version {version!r}; reading it as version {FORMAT_VERSION}", "warning")
            )
    else:
        problems.append(
            Problem(1, f"unknown format version {given!r}; reading it as version {FORMAT_VERSION}", "warning")
        )


def _record_problem(record: dict[str, Any]) -> str | None:
    """Why a parsed line is not a record this inspector understands (None: it is one)."""
    direction = record.get("dir")
    if direction not in KNOWN_DIRS:
        return f"unknown record kind dir={direction!r} (a newer inspector?); skipped"
    if direction == "event" and record.get("event") not in KNOWN_EVENTS:
        return f"unknown record event={record.get('event')!r} (a newer inspector?); skipped"
    t = record.get("t", 0.0)
    if json_number(t) is None:
        return f"the time {t!r} is not a number; skipped"
    if direction not in ("event", "auth") and raw_text(record) is None:
        return "the record has no raw text; skipped"
    return None


def parse_recording(path: Path, data: bytes) -> Loaded:
    """Split and parse the bytes of a recording (see ``load_recording``)."""
    loaded = Loaded(path, None)
    problems = loaded.problems
    if not data:
        problems.append(Problem(0, "the file is empty: nothing was recorded"))
        return loaded
    chunks = data.split(b"\n")
    cut = chunks[-1] != b""
    if not cut:
        chunks.pop()
    for number, chunk in enumerate(chunks, start=1):
        last = number == len(chunks)
        try:
            text = chunk.decode("utf-8")
        except UnicodeDecodeError as exc:
            text = chunk.decode("utf-8", errors="replace")
            problems.append(
                Problem(
                    number, f"not UTF-8 ({exc.reason} at byte {exc.start}); read with replacement characters", "warning"
                )
            )
        if not text.strip():
            if not (last and cut):
                problems.append(Problem(number, "empty line; skipped", "warning"))
            continue
        try:
            value = json.loads(text)
        except RecursionError:  # (a crafted line of 200,000 "[": Python's parser gives up, the replay must not)
            problems.append(Problem(number, f"nested too deeply to read ({len(chunk)} bytes); skipped"))
            continue
        except json.JSONDecodeError as exc:
            if last and cut:
                why = f"the last line was cut off ({len(chunk)} bytes, no newline): the recording was probably killed"
            else:
                why = f"not JSON ({exc.msg} at column {exc.colno}): {_excerpt(text)}"
            problems.append(Problem(number, why))
            continue
        if not isinstance(value, dict):
            problems.append(Problem(number, f"not a JSON object but {type(value).__name__}: {_excerpt(text)}"))
            continue
        if number == 1 and "recording" in value:
            loaded.header = value
            _check_header(value, problems)
            continue
        if number == 1:
            problems.append(
                Problem(1, "no header line (the first line is a record); reading the records anyway", "warning")
            )
        if "recording" in value:
            problems.append(Problem(number, "a second header line; skipped (two recordings joined into one file?)"))
            continue
        unknown = _record_problem(value)
        if unknown is not None:
            problems.append(Problem(number, unknown, "warning" if "unknown record" in unknown else "error"))
            continue
        if last and cut:
            problems.append(
                Problem(
                    number,
                    "the last line has no newline (the process stopped while writing?); it parsed and was read",
                    "warning",
                )
            )
        loaded.records.append(value)
        loaded.lines.append(number)
    return loaded


def load_recording(path: str | Path) -> Loaded:
    """Read a recording, read-only: ``RecordingError`` when it cannot be opened or is not a recording at all (no
    header and not one record: a README, an empty file); damage in a recording goes to ``problems``."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise RecordingError(f"no such recording: {path}", "see `inspector sessions` for the recordings kept") from None
    except IsADirectoryError:
        raise RecordingError(f"{path} is a folder, not a recording", "give one .jsonl file") from None
    except OSError as exc:
        raise RecordingError(
            f"cannot read {path}: {exc.strerror or exc}", "check the path and its permissions"
        ) from None
    loaded = parse_recording(path, data)
    if loaded.header is None and not loaded.records:
        raise RecordingError(f"not an inspector recording: {path} ({_what_it_holds(data)})", NOT_A_RECORDING_HINT)
    return loaded


NOT_A_RECORDING_HINT: Final = (
    "a recording is a .jsonl file whose first line is its header; `inspector sessions` lists the recordings kept"
)


def _what_it_holds(data: bytes) -> str:
    """What a file that is no recording starts with, for the message that refuses it."""
    if not data.strip():
        return "it is empty"
    first = data.split(b"\n", 1)[0].decode("utf-8", errors="replace")
    return f"its first line is {_excerpt(first)}, and no line is a record"


def build_loaded(loaded: Loaded, listener: TimelineListener | None = None) -> Timeline:
    """The Timeline of a loaded recording, built record by record with the live session's builder; ``listener``
    hears every event as it is built (``call_messages``: what the timeline does not keep of a flood).

    A record the builder cannot apply is reported as a problem on its line and the rest still build.
    """
    builder = TimelineBuilder()
    timeline = builder.timeline
    if listener is not None:
        timeline.subscribe(listener)
    if loaded.header is not None:
        timeline.target = str(loaded.header.get("target", ""))
        timeline.transport = str(loaded.header.get("transport", ""))
    for record, line in zip(loaded.records, loaded.lines, strict=True):
        try:
            builder.apply(record)
        except Exception as exc:  # a damaged record must not stop the replay of the rest
            loaded.problems.append(Problem(line, f"could not be applied ({type(exc).__name__}: {exc}); skipped"))
    loaded.problems.sort(key=lambda problem: problem.line)
    return timeline


def timeline_from_recording(path: str | Path) -> tuple[Timeline, list[Problem]]:
    """The Timeline of a recording and the problems found reading it (raises ``RecordingError`` if unreadable)."""
    loaded = load_recording(path)
    timeline = build_loaded(loaded)
    return timeline, loaded.problems
