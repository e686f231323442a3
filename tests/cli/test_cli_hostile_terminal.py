"""Server text reaches a terminal only through the one sanitizer: ``inspector call`` of a tool whose name, progress
message, log, result text and ``structuredContent`` (and the server's title) hold every hostile class of
``tests_hostile.HOSTILE`` and an OSC 52 clipboard write, run as a real process on two pseudo-terminals (stdout and
stderr apart, as a person's terminal shows both). The bytes written hold no escape sequence but Rich's own colours,
no other control, format or separator character; ``--json`` holds none at all, parses, and gives back every
string exactly (each hidden character escaped as ``\\uXXXX``). The same of ``inspector export`` in every format of
a crafted HTTP recording whose URL, headers and body carry them (curl's command spells them ``"$(printf '\\ooo')"``).
"""

from __future__ import annotations

import json
import os
import pty
import re
import selectors
import shlex
import subprocess
import sys
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import pytest
from cli_support import BAD_SERVER, ENTRY
from tests_hostile import HOSTILE

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

CLIPBOARD: Final = "\x1b]52;c;ZXZpbA==\x07"
"""OSC 52: set the terminal's clipboard (to ``evil``), which a terminal that allows it does without asking."""
TEXT: Final = "".join([CLIPBOARD, *HOSTILE.values()])
NAME: Final = "hostile" + "".join(value for value in [CLIPBOARD, *HOSTILE.values()] if "\x00" not in value)
"""The tool's name: every hostile class but NUL, which no command line can carry."""
SGR: Final = re.compile(r"\x1b\[[0-9;]*m")
"""The only escape sequences the inspector writes itself: Rich's colours and styles (Select Graphic Rendition)."""
BOUND_S: Final = 60.0


@dataclass(frozen=True)
class Written:
    """What a process wrote to each terminal, and how it ended."""

    stdout: bytes
    stderr: bytes
    code: int


def on_terminals(*args: str, data: Path | None = None) -> Written:
    """``inspector ARGS`` with stdout and stderr each on a pseudo-terminal of its own, read until both close;
    ``data``: the inspector's data folder."""
    env = {
        **os.environ,
        "COLUMNS": "200",
        "TERM": "xterm-256color",
        "BAD_SERVER_TEXT": json.dumps(TEXT),
        **({"INSPECTOR_DATA_DIR": str(data)} if data is not None else {}),
    }
    env.pop("NO_COLOR", None)
    ends = [pty.openpty(), pty.openpty()]
    process = subprocess.Popen(
        [sys.executable, "-c", ENTRY, *args],
        stdin=subprocess.DEVNULL,
        stdout=ends[0][1],
        stderr=ends[1][1],
        env=env,
        close_fds=True,
    )
    written = {controller: b"" for controller, _ in ends}
    selector = selectors.DefaultSelector()
    try:
        for controller, terminal in ends:
            os.close(terminal)
            selector.register(controller, selectors.EVENT_READ)
        deadline = time.monotonic() + BOUND_S
        while selector.get_map() and time.monotonic() < deadline:
            for key, _ in selector.select(timeout=1.0):
                fd = key.fd
                assert isinstance(fd, int)
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # EIO: the process closed the terminal
                    chunk = b""
                if chunk:
                    written[fd] += chunk
                else:
                    selector.unregister(fd)
        code = process.wait(timeout=BOUND_S)
    finally:
        selector.close()
        if process.poll() is None:
            process.kill()
            process.wait()
        for controller, _ in ends:
            os.close(controller)
    return Written(written[ends[0][0]], written[ends[1][0]], code)


def leaks(written: bytes, *, styles: bool) -> list[str]:
    """Every raw character that could style, move or hide something, as ``U+XXXX`` at its place; ``styles``: Rich's
    own colours are allowed (an SGR sequence is taken out first), never any other escape sequence."""
    text = written.decode("utf-8").replace("\r\n", "\n")
    if styles:
        text = SGR.sub("", text)
    return [
        f"U+{ord(ch):04X} at {i}: {text[max(0, i - 30) : i + 10]!r}"
        for i, ch in enumerate(text)
        if ch not in "\n\t" and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp")
    ]


def server_spec() -> str:
    return shlex.join([sys.executable, str(BAD_SERVER), "ok"])


def test_call_json_on_a_terminal_escapes_every_hidden_character_and_parses_back_exactly() -> None:
    written = on_terminals("call", NAME, "--server", server_spec(), "--json", "--no-record")
    assert written.code == 0, (written.stdout[-2000:], written.stderr[-2000:])
    assert leaks(written.stdout, styles=False) == [], "JSON on a terminal holds no raw control, not even a colour"
    assert leaks(written.stderr, styles=True) == []
    doc = json.loads(written.stdout.decode("utf-8").replace("\r\n", "\n"))
    assert doc["status"] == "complete"
    assert doc["result"]["structuredContent"] == {"text": TEXT, "name": NAME}, "every string given back exactly"
    assert doc["result"]["content"][0]["text"] == f"{TEXT} from {NAME}"
    assert doc["server"]["title"] == TEXT
    (progress, log) = doc["rounds"][0]["notifications"]
    assert progress["params"]["message"] == TEXT and log["params"]["data"] == TEXT
    assert "\\u202e" in written.stdout.decode("utf-8") and "\\u001b]52;" in written.stdout.decode("utf-8"), (
        "escaped where it was, as \\uXXXX"
    )


def test_the_printed_timeline_on_a_terminal_shows_server_text_only_through_the_sanitizer() -> None:
    written = on_terminals("call", NAME, "--server", server_spec(), "--no-record")
    assert written.code == 0, (written.stdout[-2000:], written.stderr[-2000:])
    assert leaks(written.stdout, styles=True) == []
    assert leaks(written.stderr, styles=True) == []
    shown = SGR.sub("", written.stdout.decode("utf-8"))
    for stand_in in ("␛]52;c;ZXZpbA==␇", "␛[2J", "⟨U+009B⟩", "⟨U+202E⟩", "⟨U+200B⟩"):
        assert stand_in in shown, f"the payloads are shown as visible stand-ins: {stand_in}"


def crafted_http(folder: Path) -> Path:
    """A recording of one HTTP call whose URL, request headers, request body and result carry ``TEXT``."""
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": NAME, "arguments": {"a": TEXT}}}
    http = {"method": "POST", "url": f"http://127.0.0.1:9/mcp?{NAME}", "request_headers": {"Mcp-Session-Id": NAME}}
    result = {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": TEXT}]}}
    records = [
        {"recording": "inspector", "version": 1, "target": "http://127.0.0.1:9/mcp", "transport": "http",
         "started": "2026-12-05T00:00:00", "inspector": "0.1"},
        {"t": 0.0, "dir": "event", "event": "call", "call": 1, "method": "tools/call", "params": {"name": NAME}},
        {"t": 0.0, "dir": "c2s", "call": 1, "raw": json.dumps(request, ensure_ascii=False), "http": http},
        {"t": 0.1, "dir": "s2c", "raw": json.dumps(result, ensure_ascii=False)},
    ]  # fmt: skip
    path = folder / "crafted.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["curl", "python", "json"])
def test_an_export_of_a_crafted_recording_writes_nothing_hidden_to_the_terminal(fmt: str, tmp_path: Path) -> None:
    """``export`` writes a recording's text as it was chosen, a literal of its format; a literal that holds an escape
    sequence raw would run it in the terminal it is printed to (curl's single quotes kept every byte raw)."""
    written = on_terminals("export", str(crafted_http(tmp_path)), "--call", "1", "--as", fmt)
    assert written.code == 0, (written.stdout[-2000:], written.stderr[-2000:])
    assert leaks(written.stdout, styles=False) == [], "an export is plain text: not even a colour"
    assert leaks(written.stderr, styles=True) == []
    if fmt == "curl":
        assert "-H 'Mcp-Session-Id: hostile'\"$(printf '\\033')\"']52;c;" in written.stdout.decode("utf-8")


@pytest.mark.parametrize("as_json", [True, False], ids=["--json", "printed"])
def test_task_list_on_a_terminal_shows_the_servers_task_ids_only_through_the_sanitizer(
    as_json: bool, tmp_path: Path
) -> None:
    """The task store keeps what servers said of their tasks (ids, status, the tool) and ``task list`` prints it."""
    task = {"taskId": f"task{TEXT}", "target": f"srv{TEXT}", "shape": "ext-tasks", "tool": NAME, "status": TEXT,
            "recording": None, "createdAt": None, "ttlMs": None, "seen": "2026-12-05T00:00:00+00:00"}  # fmt: skip
    (tmp_path / "tasks.jsonl").write_text(json.dumps(task) + "\n", encoding="utf-8")
    written = on_terminals("task", "list", *(["--json"] if as_json else []), data=tmp_path)
    assert written.code == 0, (written.stdout[-2000:], written.stderr[-2000:])
    assert leaks(written.stdout, styles=not as_json) == [] and leaks(written.stderr, styles=True) == []
    if as_json:
        (listed,) = json.loads(written.stdout.decode("utf-8").replace("\r\n", "\n"))
        assert listed["taskId"] == f"task{TEXT}" and listed["status"] == TEXT, "every string given back exactly"
    else:
        assert "task␛]52;c;ZXZpbA==␇" in SGR.sub("", written.stdout.decode("utf-8"))
