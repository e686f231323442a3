"""Where the lab's calls come from and what it learns from them: a recorded session (``--from``), answered the way
the recording answered, with no answers file at all; and seed 004's four questions answered from what was seen,
a business handle (an id one result returned that a later call sent back) among them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lab_support import WORK_ITEM, InProcessTargets, demo_answers, explain, read_jsonl
from rich.console import Console

from inspector.answers.build import build_answer_source
from inspector.demo.flaw_names import STATE_KEY_ENV
from inspector.demo.in_process import demo_peer, serve
from inspector.lab.lab_calls import tool_call
from inspector.lab.lab_run import Lab
from inspector.lab.plan import LabOptions, calls_from_recording
from inspector.lab.report_formats import MARK, print_report
from inspector.replay.loader import build_loaded, load_recording
from inspector.session.recorder import Recorder
from inspector.session.session import InspectorSession
from inspector.timeline import records
from inspector.transport.base import Transport
from inspector.transport.memory import MemoryTransport


@pytest.fixture(autouse=True)
def _shared_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(STATE_KEY_ENV, "k" * 40)


async def test_a_recorded_session_is_made_again_with_its_own_answers(tmp_path: Path) -> None:
    path = tmp_path / "recorded.jsonl"
    recorder = Recorder(path, records.header("demo", "stdio", "auto", started="", inspector_version="test"))
    session = InspectorSession(MemoryTransport(demo_peer()), demo_answers(), recorder=recorder)
    await session.connect()
    await session.list_all("tools")
    await session.call_tool("update_work_item", dict(WORK_ITEM.params["arguments"]))
    await session.call_tool("add", {"a": 1, "b": 2})
    await session.close()
    calls = calls_from_recording(build_loaded(load_recording(path)))
    assert [c.label for c in calls] == ["tools/call update_work_item", "tools/call add"], "no handshake, no list"
    nobody = build_answer_source(None, "fail", False, [])  # any question the recording cannot answer fails
    report = await Lab(InProcessTargets(), nobody, LabOptions(calls, ("stateless",))).run()
    assert not report.failed, explain(report)
    assert any(r.group == "stateless 2" and r.verdict == "pass" for r in report.rows)


async def test_a_recorded_call_is_answered_in_the_legacy_era_from_its_recording(tmp_path: Path) -> None:
    """The era check's legacy run of a recorded call (``--from``, the Lab screen's session calls) asks the call's own
    source, its recording, under the key of the same question, each answer checked against the legacy request."""
    path = tmp_path / "recorded.jsonl"
    recorder = Recorder(path, records.header("demo", "stdio", "auto", started="", inspector_version="test"))
    session = InspectorSession(MemoryTransport(demo_peer()), demo_answers(), recorder=recorder)
    await session.connect()
    await session.call_tool("update_work_item", dict(WORK_ITEM.params["arguments"]))
    await session.close()
    calls = calls_from_recording(build_loaded(load_recording(path)))
    nobody = build_answer_source(None, "fail", False, [])  # any question the recording cannot answer fails
    targets = InProcessTargets(folder=tmp_path)
    report = await Lab(targets, nobody, LabOptions(calls, ("eras",))).run()
    eras = [(r.check, r.verdict, r.why) for r in report.rows if r.group == "eras" and r.check.startswith("tools/")]
    assert eras == [("tools/call update_work_item", "pass", "the same result in both eras")], explain(report)
    legacy = [r for r in read_jsonl(targets.made["legacy"]) if r.get("event") == "answer"]
    assert [(a["key"], a["source"], a["response"]["content"]) for a in legacy] == [
        (None, "recording", {"resolution": "Duplicate"}),
        (None, "recording", {"duplicateOfId": 4301}),
    ]


CART = "cart-7f3a9c"


def _shop() -> Any:
    from mcp.server.mcpserver import MCPServer

    server: MCPServer[Any] = MCPServer("shop")

    @server.tool()
    def open_cart() -> dict[str, str]:
        """A cart, by its id."""
        return {"cartId": CART}

    @server.tool()
    def checkout(cart: str) -> str:
        """Pay for a cart."""
        return f"paid {cart}"

    return server


class Shop(InProcessTargets):
    def transport(self, name: str) -> Transport:
        return MemoryTransport(serve(_shop), name=f"shop {name}")


async def test_the_four_questions_name_a_business_handle_and_whether_it_worked_on_b() -> None:
    calls = [tool_call("open_cart"), tool_call("checkout", {"cart": CART})]
    report = await Lab(Shop(), demo_answers(), LabOptions(calls, ("stateless",))).run()
    assert not report.failed, explain(report)
    handles = [h for h in report.held if h.what.startswith("handle")]
    assert len(handles) == 1, report.held
    assert CART in handles[0].what and "open_cart" in handles[0].what
    assert handles[0].found_by == "the argument cart of tools/call checkout"
    assert "business handle" in handles[0].kept_by and "worked here on B" in handles[0].recovered


async def test_with_no_cross_request_state_the_report_says_so() -> None:
    report = await Lab(Shop(), demo_answers(), LabOptions([tool_call("checkout", {"cart": "x"})], ("stateless",))).run()
    assert report.held == []
    console = Console(width=160, record=True, color_system=None)
    print_report(console, report)
    assert "no cross-request state seen (every call stood alone)" in console.export_text()


async def test_a_narrow_terminal_gets_each_row_as_a_block_not_a_crushed_table() -> None:
    """A pipe is 80 columns wide: every row's check stays on one line with its verdict, and its why reads whole."""
    report = await Lab(Shop(), demo_answers(), LabOptions([tool_call("checkout", {"cart": "x"})], ("stateless",))).run()
    console = Console(width=80, record=True, color_system=None)
    print_report(console, report)
    text = console.export_text()
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "┃" not in text, "no table at this width"
    joined = " ".join(line.strip() for line in text.splitlines())
    for row in report.rows:
        assert f"{MARK[row.verdict]}  {row.group} · {row.check}" in text
        assert f"why: {row.why}" in joined
