"""A login's time, told apart: logging in to the demo behind OAuth (a real authorization server, the SDK's
``mcp.server.auth``, on 127.0.0.1) through the inspector's session, the person spends 7 s on the consent page.
Those 7 s are the person's ("you 7.0 s") on the timeline, in the printed timeline, in ``--json`` and in the
recording's replay, never the server's.

The session and its transport share a clock that stands still unless the test moves it: the person moves it by 7 s
while the consent page is open, so every other time (the request, the login's exchanges) reads 0 and no assertion
depends on how fast this machine is.
"""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from rich.console import Console

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from oauth_support import BrowserLogin, auth_config, demo_running, file_store

from inspector.answers.build import build_answer_source
from inspector.headless.json_document import call_json
from inspector.headless.printed_timeline import print_timeline
from inspector.protocol.oauth import AuthorizationPrompt, Landing, LoginHelpers
from inspector.session.recorder import Recorder
from inspector.session.session import InspectorSession
from inspector.timeline.build.builder import build_timeline
from inspector.timeline.records import header
from inspector.transport.http import StreamableHttpTransport

pytestmark = [pytest.mark.external, pytest.mark.timeout(120)]  # (external: these tests open sockets)

CONSENT_S = 7.0
"""How long the person reads the consent page."""


class StillClock:
    """A clock that reads the same until the test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class SlowReader(BrowserLogin):
    """A person with a browser who reads the consent page for ``CONSENT_S`` before allowing."""

    clock: StillClock = field(default_factory=StillClock)

    async def authorize(self, prompt: AuthorizationPrompt, helpers: LoginHelpers) -> Landing:
        self.clock.now += CONSENT_S
        return await super().authorize(prompt, helpers)


async def test_the_consent_page_is_your_time_not_the_servers(tmp_path: Path) -> None:
    clock = StillClock()
    person = SlowReader(clock=clock)
    recording = tmp_path / "login.jsonl"
    async with demo_running() as demo:
        config = auth_config(file_store(tmp_path / "config"), person)
        transport = StreamableHttpTransport(demo.mcp_url, clock=clock, auth=config)
        answers = build_answer_source(None, "defaults", True, [])
        recorder = Recorder(recording, header(demo.mcp_url, "http", "modern", started="t", inspector_version="t"))
        session = InspectorSession(transport, answers, era="modern", recorder=recorder, clock=clock)
        try:
            await session.connect()
            whoami = await session.call_tool("whoami")
            assert whoami.status == "complete", whoami.detail
        finally:
            await session.close()
    assert len(person.prompts) == 1, "one login, for the first request"
    discover = session.timeline.calls[0]
    assert any(step.outcome == "waiting" for step in discover.auth) and discover.rounds[0].latency_ms == 7000
    [asked] = discover.round_times
    assert (asked.server_ms, asked.person_ms) == (0, CONSENT_S * 1000), "the request's 7 s were the person's"
    assert (discover.times.server_ms, discover.times.person_ms) == (0, CONSENT_S * 1000)

    out = io.StringIO()
    print_timeline(Console(file=out, width=300, color_system=None), session.timeline)
    printed = out.getvalue()
    assert "#1 server/discover  complete  1 round · 0.0 ms · you 7.0 s" in printed
    assert "· you 7.0 s" in next(line for line in printed.splitlines() if "… authorization: waiting" in line)
    assert "server 7.0 s" not in printed

    document = call_json(discover, session.timeline)
    assert (document["serverMs"], document["personMs"], document["waitMs"]) == (0, 7000, 7000)

    lines = [json.loads(line) for line in recording.read_text(encoding="utf-8").splitlines()]
    replayed = build_timeline(lines[1:]).calls[0]
    assert replayed.times == discover.times, "the replay tells the same times apart"
