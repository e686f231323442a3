"""Exported scripts never run what the server (or anyone naming a tool) chose: for a table of hostile names, every
export format is generated from a real recording, the Python file is parsed and run, the curl command is run with a
stand-in ``curl`` that notes its arguments, and the only thing that happened is the MCP call itself.

Each name tries to break out of where text lands in an export: a triple-quoted docstring (``\"\"\"``, ``'''``), a
string literal (quotes, backslashes), a comment line (newline, carriage return, U+2028, U+2029, NEL), a shell
argument (quotes, ``$(...)``, backticks, ``;``), or the file itself (NUL). A payload that escaped would create a
``PWNED*`` file in the scratch folder the scripts run in.
"""

from __future__ import annotations

import ast
import json
import os
import shlex
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from replay_support import DEMO, http_server, invoke

from inspector.answers.build import build_answer_source
from inspector.cli.wiring import build_session
from inspector.replay import export_call, timeline_from_recording
from inspector.targets.target import Target

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

FIXTURES = Path(__file__).parents[1] / "fixtures"
HOSTILE_NAMES = [
    'x"""; import os; os.system("touch PWNED_py1") #',
    "x'''; __import__('os').system('touch PWNED_py2') #",
    'x\\"""\nimport os; os.system("touch PWNED_py3")\n"""',
    'x\nimport os; os.system("touch PWNED_py4")\n#',
    'x\rimport os; os.system("touch PWNED_py5")\r#',
    'x\u2028import os; os.system("touch PWNED_py6")\u2029#',
    'x\x85import os; os.system("touch PWNED_py7")',
    'x"; touch PWNED_sh1; echo "',
    "x'; touch PWNED_sh2; echo '",
    "$(touch PWNED_sh3)",
    "`touch PWNED_sh4`",
    "x\n touch PWNED_sh5 \n",
    "back\\slash\\' \\\" end\\",
    "nul\x00byte",
]


def _stdio_recording(tmp_path: Path) -> tuple[Path, Path]:
    """Calls of every hostile name recorded against the bad fixture server; its transcript shows what it got."""
    transcript = tmp_path / "transcript.jsonl"
    wrapper = tmp_path / "server.sh"
    wrapper.write_text(
        f"BAD_SERVER_TRANSCRIPT={shlex.quote(str(transcript))} exec {shlex.quote(sys.executable)} "
        f"{shlex.quote(str(FIXTURES / 'bad_server.py'))} ok\n"
    )
    recording = tmp_path / "hostile.jsonl"

    async def record() -> None:
        session = build_session(Target.from_spec(f"sh {wrapper}"), build_answer_source(), record=recording)
        try:
            await session.connect()
            for name in HOSTILE_NAMES:
                await session.call_tool(name, {"note": name})
        finally:
            await session.close()

    import asyncio

    asyncio.run(record())
    transcript.unlink()
    return recording, transcript


def _names_the_server_got(transcript: Path) -> list[str]:
    lines = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    calls = [json.loads(line["raw"]) for line in lines if line["dir"] == "c2s"]
    return [c["params"]["name"] for c in calls if c.get("method") == "tools/call"]


def test_python_exports_parse_and_run_only_the_mcp_call(tmp_path: Path) -> None:
    recording, transcript = _stdio_recording(tmp_path)
    timeline, _ = timeline_from_recording(recording)
    calls = [c for c in timeline.calls if c.method == "tools/call"]
    assert [c.name for c in calls] == HOSTILE_NAMES
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    runs = []
    for call in calls:
        script = export_call(timeline, call.index, "python")
        ast.parse(script)  # the file parses: nothing broke out of a literal
        assert "PWNED" not in "".join(
            line for line in script.splitlines() if line.lstrip().startswith("#") or '"""' in line
        ), "server text reached a comment or a docstring"
        path = scratch / f"call_{call.index}.py"
        path.write_text(script, encoding="utf-8")
        json.loads(export_call(timeline, call.index, "json"))
        runs.append(
            subprocess.Popen(
                [sys.executable, str(path)], cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
        )
    for run in runs:
        run.communicate(timeout=120)
    assert sorted(p.name for p in scratch.iterdir()) == sorted(f"call_{c.index}.py" for c in calls)
    assert sorted(_names_the_server_got(transcript)) == sorted(HOSTILE_NAMES), "each script made its one call"


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    """One demo HTTP server for every curl case (each call is a request of its own: the server keeps nothing)."""
    with http_server(DEMO) as url:
        yield url


@pytest.mark.parametrize("name", HOSTILE_NAMES, ids=range(len(HOSTILE_NAMES)))
def test_curl_exports_are_one_command_with_the_recorded_arguments(name: str, demo_url: str, tmp_path: Path) -> None:
    recording = tmp_path / "http.jsonl"
    called = invoke("call", name, "--server", demo_url, "--record", str(recording), "--on-missing", "decline")
    assert recording.exists(), f"exit {called.exit_code}, no recording: {called.stderr[-1500:]} {called.exception!r}"
    timeline, _ = timeline_from_recording(recording)
    (call,) = [c for c in timeline.calls if c.method == "tools/call"]
    command = export_call(timeline, call.index, "curl")
    comments = [line for line in command.split("\n") if not line.startswith(("curl ", "  "))]
    assert all(line.startswith("#") for line in comments), "every line outside the command is a comment"
    scratch = tmp_path / "scratch"
    bin_dir = tmp_path / "bin"
    scratch.mkdir()
    bin_dir.mkdir()
    noted = tmp_path / "curl-args.json"
    fake = bin_dir / "curl"
    fake.write_text(
        f"#!{sys.executable}\nimport json, sys\n"
        f"with open({str(noted)!r}, 'a') as out:\n    out.write(json.dumps(sys.argv[1:]) + '\\n')\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    script = scratch / "call.sh"
    script.write_text(command + "\n", encoding="utf-8")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["sh", str(script)], cwd=scratch, env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert [p.name for p in scratch.iterdir()] == ["call.sh"], "nothing but the call happened"
    (argv,) = [json.loads(line) for line in noted.read_text().splitlines()]
    assert argv[:4] == ["-sS", "-X", "POST", call.rounds[0].request.http.url if call.rounds[0].request.http else ""]
    assert argv[-2:] == ["--data-raw", call.rounds[0].request.raw], "the body is the recorded text, byte for byte"
    assert json.loads(argv[-1])["params"]["name"] == name
