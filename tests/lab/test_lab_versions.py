"""Seed 000's rolling upgrade: ``--server old --server new``. The old ``sign_in`` asks GitHub and Google; the new one
asks GitHub and Microsoft. A retry that lands on the other version meets a question the all-on-A run never asked:
the lab says another version of the tool runs there, and what to try."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from lab_support import InProcessTargets, explain, rows
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.request_state import RequestStateSecurity
from mcp_types import ElicitRequest, ElicitRequestFormParams, ElicitResult, InputRequiredResult

from inspector.answers.build import build_answer_source
from inspector.answers.source import AnswerSource
from inspector.demo.in_process import serve
from inspector.lab.lab_calls import tool_call
from inspector.lab.lab_run import Lab
from inspector.lab.plan import LabOptions
from inspector.transport.base import Transport
from inspector.transport.memory import MemoryTransport

KEY = "v" * 40
ANSWERS = {
    "github_login": {"action": "accept", "content": {"name": "octocat"}},
    "google_login": {"action": "accept", "content": {"name": "octo@gmail.com"}},
    "microsoft_login": {"action": "accept", "content": {"name": "octo@outlook.com"}},
}


def _ask(key: str) -> ElicitRequest:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    return ElicitRequest(params=ElicitRequestFormParams(message=f"Your {key}?", requested_schema=schema))


def _version(providers: tuple[str, str]) -> MCPServer[Any]:
    # One shared key: the versions can open each other's state, only the questions differ.
    server: MCPServer[Any] = MCPServer("accounts", request_state_security=RequestStateSecurity(keys=[KEY]))

    async def sign_in(ctx: Context[Any, Any]) -> str | InputRequiredResult:
        """Sign in to two providers."""
        given = ctx.input_responses or {}
        missing = [p for p in providers if not isinstance(given.get(f"{p}_login"), ElicitResult)]
        if missing:
            return InputRequiredResult(input_requests={f"{p}_login": _ask(p) for p in missing})
        return "signed in to " + " and ".join(providers)

    server.add_tool(sign_in)
    return server


class OldAndNew(InProcessTargets):
    def transport(self, name: str) -> Transport:
        providers = ("github", "google") if name == "A" else ("github", "microsoft")
        return MemoryTransport(serve(lambda: _version(providers)), name=f"accounts {name}")


@pytest.fixture
def answers(tmp_path: Path) -> AnswerSource:
    """Every provider's login answered (the same answers for either version)."""
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(ANSWERS), encoding="utf-8")
    return build_answer_source(path, "fail", False, [])


async def test_a_retry_on_another_version_is_named_as_one(answers: AnswerSource) -> None:
    report = await Lab(OldAndNew(), answers, LabOptions([tool_call("sign_in")], ("stateless",))).run()
    crossing = rows(report, "stateless 2", "fail")
    assert len(crossing) == 2, explain(report)
    assert all("'microsoft_login', which the all-on-A run never asked" in r.why for r in crossing), explain(report)
    assert all("another version of the tool on B" in r.why for r in crossing)
    assert all("--server OLD --server NEW" in r.hint for r in crossing)
    alone = rows(report, "stateless 1", "fail")
    assert [r.check for r in alone] == ["tools/call sign_in on B"] and "another version" in alone[0].why
