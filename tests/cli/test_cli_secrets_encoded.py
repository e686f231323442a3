"""A secret the server echoes back in any ordinary encoding never reaches what a real ``inspector`` process writes:
its recording, its printed timeline, its ``--json``, its stderr, the replay of the recording and ``export --as json``
(which parses each message's text: a secret spelled ``\\uXXXX`` on the wire was printed in clear by it). The fixture's
``leak`` tool sends the ``--secret`` value back in every form of ``leaked_forms`` (base64 of every kind, base32,
percent-encoded byte by byte, hex with separators, ``\\uXXXX``, JSON-escaped four deep, HTML entities) in its
result, on stderr, in a log and in an error; ``leak-wire`` spells it ``\\uXXXX`` in the JSON text of its result."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest
from cli_support import BAD_SERVER, ENTRY, bad_server_spec

from inspector.protocol.redact import REDACTED

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

TOKEN: Final = 'tok-"0123456789"\\-secret'
"""A secret with a quote and a backslash, so that each level of JSON escaping spells it differently."""


def leaked_forms(token: str) -> list[str]:
    """What the fixture's ``leak`` tool sends (its own list, so the test and the server agree)."""
    sys.path.insert(0, str(BAD_SERVER.parent))
    from bad_server import leaked_forms as forms

    return forms(token)


def inspector(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", ENTRY, *args], capture_output=True, text=True, timeout=60, check=False)


def replayed(recording: Path) -> tuple[str, str]:
    """``replay --json`` of the recording, and the number of its ``tools/call`` (after the handshake's own calls)."""
    done = inspector("replay", str(recording), "--json")
    assert done.returncode == 0, done.stderr
    (number,) = [c["call"] for c in json.loads(done.stdout)["calls"] if c["method"] == "tools/call"]
    return done.stdout, str(number)


@pytest.mark.parametrize("tool", ["leak", "leak-wire"])
def test_no_encoding_of_a_secret_reaches_anything_the_process_writes(tool: str, tmp_path: Path) -> None:
    recording = tmp_path / "leak.jsonl"
    secret = ("--env", f"BAD_SERVER_TOKEN={TOKEN}", "--secret", "BAD_SERVER_TOKEN")
    printed = inspector("call", tool, "--server", bad_server_spec("ok"), *secret, "--record", str(recording))
    assert printed.returncode == 0, printed.stderr
    as_json = inspector("call", tool, "--server", bad_server_spec("ok"), *secret, "--no-record", "--json")
    assert as_json.returncode == 0, as_json.stderr
    replay_json, number = replayed(recording)
    shown = {
        "printed timeline": printed.stdout,
        "stderr": printed.stderr + as_json.stderr,
        "--json": as_json.stdout,
        "recording": recording.read_text(encoding="utf-8"),
        "replay --json": replay_json,
        "export --as json": inspector("export", str(recording), "--call", number, "--as", "json").stdout,
    }
    assert REDACTED in shown["export --as json"] and REDACTED in shown["recording"], "the secret was there, redacted"
    forms = leaked_forms(TOKEN)
    for where, text in shown.items():
        for form in forms:
            assert form not in text, f"{form!r} reached the {where}"
