"""The demo server served in process (``inspector.demo.in_process``) over the memory transport, through the real
session: every flow in both eras, answered from ``inspector/demo/answers.json`` as ``inspector demo --headless`` is,
and the server's logging shown as its stderr."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from mcp.server.mcpserver import MCPServer

from inspector.answers.build import build_answer_source
from inspector.cli.demo_flows import example_answers_path, run_demo_flows
from inspector.demo.in_process import NAME, demo_peer, serve
from inspector.demo.server import build_server
from inspector.session.session import EraMode, InspectorSession
from inspector.transport.memory import MemoryTransport, StepClock


def session(peer: Any, era: EraMode = "auto") -> InspectorSession:
    clock = StepClock()
    transport = MemoryTransport(peer, name=NAME, clock=clock)
    answers = build_answer_source(example_answers_path(), "fail", stub_model=True)
    return InspectorSession(transport, answers, era=era, clock=clock)


@pytest.mark.parametrize(("era", "expected"), [("auto", "modern"), ("legacy", "legacy")])
async def test_every_demo_flow_in_both_eras(era: EraMode, expected: str) -> None:
    live = session(demo_peer(), era)
    try:
        decision = await live.connect()
        outcomes = await run_demo_flows(live)
    finally:
        await live.close()
    assert decision.era == expected
    assert [o.status for o in outcomes if not o.ok] == []
    timeline = live.timeline
    assert timeline.target == NAME and timeline.transport == "stdio"
    assert timeline.server_info is not None and timeline.server_info.get("name") == "inspector-demo"
    work = next(c for c in timeline.calls if c.params.get("name") == "update_work_item")
    if expected == "modern":
        assert [r.result_type for r in work.rounds] == ["input_required", "input_required", "complete"]
    assert timeline.console[-1].text == "connection closed: closed: the peer exited after its stdin was closed"


def with_a_chatty_tool() -> MCPServer[Any]:
    server = build_server()

    async def chatty() -> str:
        """Logs a warning, then answers."""
        logging.getLogger("inspector.demo.test").warning("disk [bold]almost[/bold] full")
        return "ok"

    def chatty_in_a_thread() -> str:
        """The same from a plain function (the SDK runs it in a worker thread)."""
        logging.getLogger("inspector.demo.test").warning("from a thread")
        return "ok"

    server.add_tool(chatty)
    server.add_tool(chatty_in_a_thread)
    return server


async def test_the_servers_logging_is_its_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    live = session(serve(with_a_chatty_tool))
    try:
        await live.connect()
        assert (await live.call_tool("chatty", {})).ok
        assert (await live.call_tool("chatty_in_a_thread", {})).ok
        logging.getLogger("inspector.demo.test").warning("not from a peer")
    finally:
        await live.close()
    stderr = [line.text for line in live.timeline.console if line.source == "stderr"]
    assert stderr == [
        "WARNING inspector.demo.test: disk [bold]almost[/bold] full",
        "WARNING inspector.demo.test: from a thread",
    ]
    assert "almost" not in capsys.readouterr().err  # never this process's own stderr (the terminal, in the TUI)
