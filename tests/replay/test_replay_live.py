"""A recording replays into exactly the Timeline the live session built: every demo flow, both eras, stdio and HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest
from replay_support import DEMO, http_server, invoke, record_demo_session

from inspector.replay import load_recording, timeline_from_recording
from inspector.session.session import EraMode
from inspector.timeline.model import Timeline

pytestmark = pytest.mark.external  # (these tests open sockets and start processes: not in --fast-lane)


def assert_same(replayed: Timeline, live: Timeline) -> None:
    """The whole model is equal, and the parts the issue names are checked one by one for a readable failure."""
    assert [(c.index, c.method, c.name, c.status, c.status_detail) for c in replayed.calls] == [
        (c.index, c.method, c.name, c.status, c.status_detail) for c in live.calls
    ]
    for mine, theirs in zip(replayed.calls, live.calls, strict=True):
        assert mine.rounds == theirs.rounds, f"rounds of call #{mine.index} differ"
        for a, b in zip(mine.rounds, theirs.rounds, strict=True):
            assert (a.request.raw, a.response.raw if a.response else None) == (
                b.request.raw,
                b.response.raw if b.response else None,
            )
            assert a.answers == b.answers and a.request_state == b.request_state and a.echoed_state == b.echoed_state
            assert a.request.http == b.request.http
        assert mine.all_findings() == theirs.all_findings()
    assert replayed.findings == live.findings
    assert replayed.console == live.console
    assert (replayed.era, replayed.server_info, replayed.target, replayed.transport) == (
        live.era,
        live.server_info,
        live.target,
        live.transport,
    )
    assert replayed == live


def _check_mrtr_parts(timeline: Timeline, era: str) -> None:
    """The recording really holds the interesting parts (so equality is not trivially true)."""
    weather = next(c for c in timeline.calls if c.name == "get_weather")
    if era == "modern":
        assert [r.result_type for r in weather.rounds] == ["input_required", "complete"]
        assert weather.rounds[0].request_state is not None and weather.rounds[0].request_state.echoed is True
        assert weather.rounds[0].answers[0].key == "github_login"
    else:
        assert any(r.kind == "server-request" and r.answers for r in weather.rounds)
    assert sum(r.notifications.count for c in timeline.calls for r in c.rounds) > 0  # slow_count's progress


@pytest.mark.parametrize("era", ["auto", "legacy"])
async def test_stdio_demo_session_replays_identically(tmp_path: Path, era: EraMode) -> None:
    path = tmp_path / "demo.jsonl"
    live = await record_demo_session(DEMO, path, era)
    replayed, problems = timeline_from_recording(path)
    assert problems == []
    _check_mrtr_parts(live, "modern" if era == "auto" else "legacy")
    assert_same(replayed, live)


@pytest.mark.parametrize("era", ["auto", "legacy"])
async def test_http_demo_session_replays_identically_with_http_details(tmp_path: Path, era: EraMode) -> None:
    path = tmp_path / "demo-http.jsonl"
    with http_server(DEMO) as url:
        live = await record_demo_session(url, path, era)
    replayed, problems = timeline_from_recording(path)
    assert problems == []
    _check_mrtr_parts(live, "modern" if era == "auto" else "legacy")
    first = replayed.calls[-1].rounds[0]
    assert first.request.http is not None and first.request.http.url == url
    assert first.response is not None and first.response.http is not None and first.response.http.status == 200
    assert_same(replayed, live)


async def test_replay_command_prints_the_recorded_timeline_offline(tmp_path: Path) -> None:
    path = tmp_path / "demo.jsonl"
    await record_demo_session(DEMO, path)
    text = path.read_text(encoding="utf-8").replace(" ".join(DEMO), "/nonexistent/server --never-started")
    path.write_text(text, encoding="utf-8")  # a target that cannot run proves no server is started
    result = invoke("replay", str(path))
    assert result.exit_code == 0, result.stderr
    assert "/nonexistent/server" in result.stdout
    assert "#6 tools/call get_weather  complete  2 rounds" in result.stdout
    assert "echoed unchanged ✓" in result.stdout
    assert load_recording(path).problems == []
