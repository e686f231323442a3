"""The ``inspector`` command as a real process: headless commands never import textual, and a process killed in
the middle of a call leaves a recording whose every line is whole."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Final

import pytest
from cli_support import ENTRY, bad_server_spec, run_cli

from inspector.timeline.build.builder import build_timeline
from inspector.timeline.records import raw_text

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)


def imported(stderr: str) -> set[str]:
    """Top-level packages in a ``-X importtime`` report."""
    names = set()
    for line in stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip().split(".")[0])
    return names


@pytest.mark.parametrize(
    "args",
    [
        ("call", "add", "--args", '{"a": 1, "b": 2}', "--demo", "--json"),
        ("list", "tools", "--demo"),
        ("call", "add", "--server", "no-such-command-a8f3e1"),
        ("--help",),
    ],
    ids=["call", "list", "connect-failure", "help"],
)
def test_headless_commands_never_import_textual(args: tuple[str, ...]) -> None:
    result = run_cli(*args, flags=("-X", "importtime"))
    assert result.returncode in (0, 3), result.stderr[-2000:]
    names = imported(result.stderr)
    assert "typer" in names, "the import report is there"
    assert "textual" not in names


LATER: frozenset[str] = frozenset(
    {
        "mcp.server",  # the SDK's server: the Lab screen's in-process demo
        "inspector.demo.in_process",
        "inspector.lab.lab_run",
        "inspector.ui.lab.lab_screen",
        "inspector.ui.composer.compose_dialog",  # the composer: its form and its jsonschema checks
        "inspector.ui.modals.answers_editor",
        "inspector.ui.modals.export_dialog",
        "inspector.ui.login.login_screen",
        "inspector.ui.screens.help",
        "inspector.ui.screens.connect",
    }
)
"""What the TUI imports only when a screen or a dialog first opens, not before its first frame (issue 33)."""


def test_the_tui_imports_no_dialog_lab_or_sdk_server_before_its_first_frame() -> None:
    # What ``inspector connect CMD`` imports before it mounts the main screen: the command, then the TUI's modules.
    probe = "import sys, inspector.cli, inspector.cli.tui, inspector.cli.tui_lab, inspector.ui.app; print(*sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    loaded = set(result.stdout.split())
    assert "textual.app" in loaded, "the TUI's modules are there"
    assert not LATER & loaded, f"imported before the first frame: {sorted(LATER & loaded)}"


MODULES_PROBE = """
import json, sys
from inspector.cli import main
code = 0
try:
    main()
except SystemExit as exit_:
    code = exit_.code
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
sys.exit(code)
"""
"""``inspector`` as the console script runs it, then every module the process imported (``sys.modules``: the
command modules are imported by name, which ``-X importtime`` does not report), on stderr's last line; it exits
as the command did."""


def modules_of(
    *args: str, cache: Path, env: dict[str, str] | None = None
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run ``inspector ARGS`` with ``cache`` as its cache folder (and ``env`` added to the environment); its result
    and the modules it imported."""
    env = {**os.environ, **(env or {}), "INSPECTOR_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", MODULES_PROBE, *args], capture_output=True, text=True, timeout=60, check=False, env=env
    )
    last = done.stderr.rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith("MODULES "), done.stderr[-2000:]
    return done, set(json.loads(last.removeprefix("MODULES ")))


def under(modules: set[str], *packages: str) -> set[str]:
    """The modules of ``modules`` that are ``packages`` or inside one of them."""
    return {m for m in modules if any(m == p or m.startswith(p + ".") for p in packages)}


OAUTH: Final = ("mcp", "cryptography", "jwt", "httpx2", "keyring", "inspector.transport.oauth")
"""The login machinery: imported only when a login happens."""
OTHER_COMMANDS: Final = tuple(
    f"inspector.cli.{name}" for name in ("auth_commands", "lab_commands", "replay_commands", "listen_commands",
                                         "task_commands", "tui_commands", "server_commands")
)  # fmt: skip


def test_help_imports_the_command_line_and_nothing_of_the_engine(tmp_path: Path) -> None:
    done, modules = modules_of("--help", cache=tmp_path)
    assert done.returncode == 0 and "call" in done.stdout
    assert under(modules, *OTHER_COMMANDS) == set(OTHER_COMMANDS), "every command is listed, so every module is in"
    engine = ("inspector.session", "inspector.timeline", "inspector.transport", "inspector.answers", "asyncio")
    assert under(modules, *engine, "inspector.ui", "textual", "mcp_types", "pydantic", "jsonschema", *OAUTH) == set()


def test_the_listing_is_printed_again_from_the_cache_the_same_without_typer(tmp_path: Path) -> None:
    # ``inspector --help`` and ``inspector`` (a usage error: exit 2), each twice with one cache folder: the second
    # prints the same text and exits the same way without importing typer or any command module
    for argv, code in ((("--help",), 0), ((), 2)):
        first, rendered = modules_of(*argv, cache=tmp_path)
        again, kept = modules_of(*argv, cache=tmp_path)
        assert (first.returncode, again.returncode) == (code, code)
        assert "Usage:" in first.stdout and again.stdout == first.stdout
        assert "typer" in rendered and under(kept, "typer", "rich", *OTHER_COMMANDS) == set()


def test_a_damaged_listing_in_the_cache_is_rendered_again(tmp_path: Path) -> None:
    first, _ = modules_of("--help", cache=tmp_path)
    [kept] = (tmp_path / "listing").iterdir()
    for damage in ("{not json", '{"text": 7, "code": 0}', '{"text": "stale"}'):
        kept.write_text(damage, encoding="utf-8")
        again, modules = modules_of("--help", cache=tmp_path)
        assert (again.returncode, again.stdout) == (0, first.stdout) and "typer" in modules
    assert json.loads(kept.read_text(encoding="utf-8"))["text"] == first.stdout, "written over"


def test_a_listing_for_another_width_is_rendered_again(tmp_path: Path) -> None:
    # a cached listing is only printed where everything that shapes it is the same: here the width (COLUMNS)
    wide, _ = modules_of("--help", cache=tmp_path, env={"COLUMNS": "120"})
    narrow, modules = modules_of("--help", cache=tmp_path, env={"COLUMNS": "60"})
    fresh, _ = modules_of("--help", cache=tmp_path / "fresh", env={"COLUMNS": "60"})
    assert "typer" in modules, "rendered, not read"
    assert narrow.stdout == fresh.stdout != wide.stdout
    assert max(map(len, narrow.stdout.splitlines())) <= 60 < max(map(len, wide.stdout.splitlines()))


def test_a_one_shot_call_imports_only_what_it_uses_and_its_models_once(tmp_path: Path) -> None:
    # (a server whose result the official model refuses: both processes must say so, word for word)
    call = ("call", "echo", "--server", bad_server_spec("ir-state-number"), "--json", "--no-record")
    first, before = modules_of(*call, cache=tmp_path)
    again, after = modules_of(*call, cache=tmp_path)
    said, said_again = json.loads(first.stdout), json.loads(again.stdout)
    assert first.returncode == again.returncode and said["status"] == said_again["status"]
    assert said["findings"] == said_again["findings"]
    assert "tools/call (2026-07-28): requestState: Input should be a valid string" in {
        finding["message"] for finding in said["findings"] if finding["code"] == "schema-invalid"
    }
    assert "mcp_types" in before, "the first process builds the validators from the official models"
    assert under(after, "mcp_types") == set(), "a later one reads them from the cache folder"
    for modules in (before, after):
        assert under(modules, *OTHER_COMMANDS, *OAUTH, "inspector.ui", "textual", "jsonschema") == set()


def wait_for_fifo(path: Path, timeout: float) -> str:
    """Block until a writer opens the FIFO and says something, at most ``timeout`` seconds."""
    said: list[str] = []

    def read() -> None:
        with path.open(encoding="utf-8") as fifo:
            said.append(fifo.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    if reader.is_alive():
        with path.open("w", encoding="utf-8"):  # let the reader go
            pass
        reader.join(5)
        raise AssertionError(f"nothing arrived on {path} within {timeout} s")
    return said[0]


def wait_for_line(path: Path, wanted: str, timeout: float) -> None:
    """Block until a line of ``path`` contains ``wanted``, at most ``timeout`` seconds (a bounded wait on what the
    file says, however slow the machine is)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and any(wanted in line for line in path.read_text(encoding="utf-8").split("\n")[:-1]):
            return
        time.sleep(0.01)
    raise AssertionError(f"no line with {wanted!r} in {path} within {timeout} s")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_a_killed_process_leaves_only_whole_lines(tmp_path: Path) -> None:
    ready = tmp_path / "ready.fifo"
    os.mkfifo(ready)
    recording = tmp_path / "killed.jsonl"
    transcript = tmp_path / "transcript.jsonl"
    env = [f"--env=BAD_SERVER_READY={ready}", f"--env=BAD_SERVER_TRANSCRIPT={transcript}"]
    args = ["call", "echo", "--server", bad_server_spec("silent"), *env, "--timeout", "60", "--record", str(recording)]
    process = subprocess.Popen([sys.executable, "-c", ENTRY, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # The server has read the tools/call; once the recording holds that request too, the process is killed
        # in the middle of the call, waiting for a reply that never comes.
        assert wait_for_fifo(ready, 30) == "ready\n"
        wait_for_line(recording, '"method":"tools/call"', 30)
        process.kill()
        process.wait(10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
        for stream in (process.stdout, process.stderr):
            assert stream is not None
            stream.close()

    # The promise: whatever was written is whole lines, in order, exactly what crossed the pipe; a killed process
    # loses only what it had not written yet (records made in one moment are written in one system call).
    text = recording.read_text(encoding="utf-8")
    assert text.endswith("\n"), "the last line is whole"
    lines = [json.loads(line) for line in text.split("\n")[:-1]]
    assert lines[0]["recording"] == "inspector"
    crossed = [json.loads(line) for line in transcript.read_text(encoding="utf-8").split("\n")[:-1]]
    for direction in ("c2s", "s2c"):
        recorded = [raw_text(r) for r in lines[1:] if r["dir"] == direction]
        really = [t["raw"] for t in crossed if t["dir"] == direction]
        assert recorded == really, f"{direction}: the recording is not what crossed the pipe"
    methods = [json.loads(raw_text(r) or "").get("method") for r in lines[1:] if r["dir"] == "c2s"]
    assert methods == ["server/discover", "tools/list", "tools/call"]
    replayed = build_timeline(lines[1:])
    assert [call.status for call in replayed.calls] == ["complete", "complete", "pending"], (
        "the tools/call (call 3) never ended: the process was killed first"
    )
    assert not any(r.get("event") == "closed" for r in lines[1:])


def test_a_20_mb_result_through_the_cli(tmp_path: Path) -> None:
    result = run_cli("call", "echo", "--server", bad_server_spec("big"), "--json", "--no-record")
    assert result.returncode == 0, result.stderr[-2000:]
    doc = json.loads(result.stdout)
    assert doc["status"] == "complete"
    assert len(doc["result"]["content"][0]["text"]) == 20 * 1024 * 1024
