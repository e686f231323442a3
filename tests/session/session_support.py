"""Helpers for the session tests: a live InspectorSession on the bad fixture server, recorded, and the checks
every bad case shares (the recording is complete, and replaying it builds the same timeline as the live run)."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.answers.build import build_answer_source
from inspector.answers.policies import OnMissing
from inspector.replay.loader import timeline_from_recording
from inspector.session.heap import HeapPolicy
from inspector.session.recorder import Recorder
from inspector.session.session import EraMode, InspectorSession
from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline
from inspector.timeline.model import Timeline
from inspector.timeline.records import raw_text
from inspector.transport.stdio import StdioTransport

FIXTURES = Path(__file__).parents[1] / "fixtures"
BAD_SERVER = FIXTURES / "bad_server.py"
sys.path.insert(0, str(FIXTURES))
import bad_wire  # noqa: E402  (what the fixture server says: GARBAGE, CRASH_LINE, ...)

__all__ = ["BAD_SERVER", "Live", "bad_wire", "finding_codes", "live_session", "read_jsonl"]


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every line of a JSONL file, parsed; the file must end with a newline (no half-written last line)."""
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n"), "the last line was not completed"
    return [json.loads(line) for line in text.split("\n")[:-1]]


def finding_codes(timeline: Timeline) -> list[str]:
    """The codes of every finding, session-wide, in order raised (era findings left out)."""
    return [f.code for f in timeline.findings if f.code != "era"]


def comparable(timeline: Timeline) -> dict[str, Any]:
    """The timeline as plain data, minus what only the live session knows (target, transport)."""
    data = dataclasses.asdict(timeline)
    for key in ("listeners", "target", "transport"):
        data.pop(key)
    return data


@dataclass
class Live:
    """A session on the fixture server, its recording and the server's own transcript of the pipe."""

    session: InspectorSession
    recording: Path
    transcript: Path

    @property
    def timeline(self) -> Timeline:
        return self.session.timeline

    def records(self) -> list[dict[str, Any]]:
        """The recording, header first (checked), as parsed lines."""
        lines = read_jsonl(self.recording)
        assert lines[0]["recording"] == "inspector" and lines[0]["version"] == 1, lines[0]
        assert all("recording" not in line for line in lines[1:])
        return lines

    def wire(self, direction: str) -> list[str]:
        """Raw texts of one direction, from the recording."""
        texts: list[str] = []
        for record in self.records()[1:]:
            if record["dir"] == direction:
                text = raw_text(record)
                assert text is not None, record
                texts.append(text)
        return texts

    def sent_requests(self, method: str) -> list[dict[str, Any]]:
        """Our requests (or notifications) of ``method``, parsed from the recording."""
        parsed = [json.loads(raw) for raw in self.wire("c2s")]
        return [m for m in parsed if m.get("method") == method]

    def verify(self) -> list[dict[str, Any]]:
        """The checks every case shares; call after the session is closed. Returns the records (header excluded).

        1. The recording is complete: header first, every line whole, and the c2s/s2c lines are exactly the lines
           the server read and wrote (its own transcript), in order, byte for byte.
        2. Replay equals live: the timeline built from the recording (by ``build_timeline`` and by the loader behind
           ``inspector replay``) equals the live one, times included.
        """
        lines = self.records()
        body = lines[1:]
        transcript = read_jsonl(self.transcript) if self.transcript.exists() else []
        for direction in ("c2s", "s2c"):
            recorded = [raw_text(r) for r in body if r["dir"] == direction]
            crossed = [t["raw"] for t in transcript if t["dir"] == direction]
            assert recorded == crossed, f"{direction} lines differ between the recording and the server's transcript"
        closed = [i for i, r in enumerate(body) if r["dir"] == "event" and r["event"] == "closed"]
        assert len(closed) == 1, "the end of the connection is recorded once"
        assert all(r["dir"] == "event" for r in body[closed[0] :]), "nothing crossed the wire after it closed"
        assert comparable(build_timeline(body)) == comparable(self.timeline), "replay differs from the live timeline"
        replayed, problems = timeline_from_recording(self.recording)
        assert problems == [], problems
        assert comparable(replayed) == comparable(self.timeline), "`inspector replay` would differ from the live run"
        return body


@asynccontextmanager
async def live_session(
    tmp_path: Path,
    mode: str,
    *,
    answers: dict[str, Any] | None = None,
    on_missing: OnMissing = "fail",
    timeout: float = 10.0,
    max_rounds: int = 10,
    era: EraMode = "auto",
    env: dict[str, str] | None = None,
    connect: bool = True,
    heap: HeapPolicy | None = None,
    max_timeout: float | None = None,
) -> AsyncIterator[Live]:
    """An InspectorSession on ``bad_server.py MODE`` over stdio, recording to ``tmp_path``; closed on exit."""
    transcript = tmp_path / "transcript.jsonl"
    transport = StdioTransport(
        [sys.executable, str(BAD_SERVER), mode], env={"BAD_SERVER_TRANSCRIPT": str(transcript), **(env or {})}
    )
    answers_file = None
    if answers is not None:
        answers_file = tmp_path / "answers.json"
        answers_file.write_text(json.dumps(answers), encoding="utf-8")
    source = build_answer_source(answers_file, on_missing)
    recording = tmp_path / "recording.jsonl"
    header = records.header(transport.describe(), "stdio", era, started="test", inspector_version="test")
    recorder = Recorder(recording, header)
    session = InspectorSession(
        transport,
        source,
        era=era,
        recorder=recorder,
        timeout=timeout,
        max_rounds=max_rounds,
        heap=heap,
        max_timeout=max_timeout,
    )
    try:
        if connect:
            await session.connect()
        yield Live(session, recording, transcript)
    finally:
        await session.close()
