"""The hostile strings of every class (tests_hostile.HOSTILE) reach the headless faces only through the one
sanitizer: the printed timeline (a tool name, a result, a stderr line, a finding) and the error reporter (what
happened, what to try) show a visible stand-in for each hidden or controlling character, and nothing else."""

from __future__ import annotations

import json

import pytest
from headless_support import printed
from tests_hostile import HOSTILE

from inspector.cli.run import say_error
from inspector.protocol.sanitize import has_hidden
from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline


def _visible(text: str) -> bool:
    return not has_hidden(text.replace("\n", ""))


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_printed_timeline_shows_hostile_text_through_the_sanitizer(text: str) -> None:
    result = {"content": [{"type": "text", "text": text}]}
    timeline = build_timeline(
        [
            records.stderr(0.0, text),
            records.call_started(0.0, 1, "tools/call", {"name": text}),
            records.wire(0.1, "c2s", json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call"}), call=1),
            records.wire(0.2, "s2c", json.dumps({"jsonrpc": "2.0", "id": 1, "result": result})),
            records.call_ended(0.3, 1, "failed", text),
        ]
    )
    shown = printed(timeline)
    assert _visible(shown), repr(shown)


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_error_reporter_shows_hostile_text_through_the_sanitizer(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    say_error(f"the server said {text}", f"try {text}")
    err = capsys.readouterr().err
    assert "error: the server said" in err and "try: try" in err
    assert _visible(err), repr(err)
