"""``inspector export FILE --call N --as curl|json|python`` and ``export_call`` for the TUI."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from replay_support import DEMO, http_server, invoke

from inspector.replay import export_call, load_recording, timeline_from_recording
from inspector.replay.export import ExportError

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

ANSWERS = str(Path(__file__).parents[2] / "inspector" / "demo" / "answers.json")
WEATHER = 3
"""server/discover, tools/list, then the get_weather call."""


def _record_weather(path: Path, server: str, *extra: str) -> None:
    args = ("call", "get_weather", "--args", '{"location": "Paris"}', "--server", server, "--answers", ANSWERS)
    result = invoke(*args, "--record", str(path), *extra)
    assert result.exit_code == 0, result.stderr


def test_curl_reproduces_one_http_round_and_json_lists_every_message(tmp_path: Path) -> None:
    path = tmp_path / "http.jsonl"
    with http_server(DEMO) as url:
        _record_weather(path, url, "--bearer", "tok-123456")
        first = invoke("export", str(path), "--call", str(WEATHER), "--as", "curl")
        assert first.exit_code == 0, first.stderr
        lines = first.stdout.splitlines()
        assert lines[0].startswith(f"# call #{WEATHER} tools/call get_weather, round 1 of 2 (JSON-RPC id 3), recorded ")
        assert "secrets stay redacted as recorded" in lines[1]
        assert lines[2] == f"curl -sS -X POST {url} \\"
        for header in ("Mcp-Method: tools/call", "Mcp-Name: get_weather", "MCP-Protocol-Version: 2026-07-28"):
            assert f"  -H '{header}' \\" in lines
        assert "  -H 'Authorization: [redacted]' \\" in lines
        assert "tok-123456" not in first.stdout
        body = shlex.split(lines[-1].strip())[1]
        assert json.loads(body)["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
        timeline, _ = timeline_from_recording(path)
        call = timeline.calls[WEATHER - 1]
        assert body == call.rounds[0].request.raw  # the body is the recorded text, byte for byte
        if shutil.which("curl"):
            command = first.stdout.replace("Authorization: [redacted]", "Authorization: Bearer anything")
            sent = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=30, check=False)
            assert sent.returncode == 0, sent.stderr
            assert '"resultType":"input_required"' in sent.stdout.replace(" ", "")
    second = invoke("export", str(path), "--call", str(WEATHER), "--as", "curl", "--round", "2")
    assert '"requestState":"' in second.stdout and '"inputResponses":{"github_login"' in second.stdout
    too_far = invoke("export", str(path), "--call", str(WEATHER), "--as", "curl", "--round", "3")
    assert too_far.exit_code == 2 and "has rounds 1 to 2, not 3" in too_far.stderr
    messages = json.loads(invoke("export", str(path), "--call", str(WEATHER), "--as", "json").stdout)
    raws = [text for r in call.rounds for text in (r.request.raw, r.response.raw if r.response else "null")]
    assert [m for m in messages if "method" not in m or m["method"] == "tools/call"] == [json.loads(r) for r in raws]


def test_stdio_curl_explains_and_python_script_makes_the_same_call(tmp_path: Path) -> None:
    path = tmp_path / "stdio.jsonl"
    _record_weather(path, shlex.join(DEMO))
    curl = invoke("export", str(path), "--call", str(WEATHER), "--as", "curl")
    assert curl.exit_code == 2
    assert "recorded over stdio" in curl.stderr and "--as json" in curl.stderr
    script = invoke("export", str(path), "--call", str(WEATHER), "--as", "python")
    assert script.exit_code == 0
    assert "from mcp import Client" in script.stdout and "client.call_tool(CALL['name']" in script.stdout
    assert """CALL = json.loads('{"name": "get_weather", "arguments": {"location": "Paris"}}')""" in script.stdout
    file = tmp_path / "again.py"
    file.write_text(script.stdout, encoding="utf-8")
    ran = subprocess.run([sys.executable, str(file)], capture_output=True, text=True, timeout=60, check=False)
    assert ran.returncode == 0, ran.stderr
    assert "Current weather in Paris:" in ran.stdout  # answered with the recorded github_login answer
    missing = invoke("export", str(path), "--call", "99", "--as", "json")
    assert missing.exit_code == 2 and "there is no call #99" in missing.stderr


def test_export_call_api(tmp_path: Path) -> None:
    path = tmp_path / "stdio.jsonl"
    _record_weather(path, shlex.join(DEMO))
    timeline, _ = timeline_from_recording(path)
    assert json.loads(export_call(timeline, WEATHER, "json"))[0]["method"] == "tools/call"
    assert "list_tools()" in export_call(timeline, 2, "python")
    with pytest.raises(ExportError, match="recorded over stdio"):
        export_call(timeline, WEATHER, "curl", header=load_recording(path).header)
    with pytest.raises(ExportError, match="does not cover"):
        export_call(timeline, 1, "python")
