"""What only the TUI benchmarks need: in-process peers for the memory transport, and a real session full of calls.

``echo_peer`` answers as ``echo_server.py`` does (the benchmarks' fixed point: no validation, no logging), in this
process; its ``work`` tool asks one question per round for two rounds, carrying a requestState, before it answers.
``silent_peer`` reads and never answers (a server still starting). ``session_with_calls(n)`` is the real
``InspectorSession`` over the memory transport after ``n`` calls, every fifth one a three-round ``work``.
"""

from __future__ import annotations

import json
from typing import Any, Final

from echo_server import reply

from inspector.answers.base import Answer
from inspector.protocol.jsonrpc import JsonObject
from inspector.session.session import InspectorSession
from inspector.transport.memory import MemoryTransport, PeerStreams, StepClock

ASK: Final = {
    "method": "elicitation/create",
    "params": {
        "mode": "form",
        "message": "Next step?",
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
    },
}
ROUNDS: Final = 3
"""Rounds of a ``work`` call: two questions, then the result."""


def _work(message: dict[str, Any]) -> dict[str, Any]:
    """``work``: input_required with a requestState until the state says the last question was answered."""
    params = message.get("params") or {}
    done = int(str(params.get("requestState") or "s0")[1:])
    if done + 1 < ROUNDS:
        result: JsonObject = {
            "resultType": "input_required",
            "inputRequests": {f"step{done + 1}": ASK},
            "requestState": f"s{done + 1}",
        }
    else:
        result = {"resultType": "complete", "content": [{"type": "text", "text": "done"}], "isError": False}
    return {"jsonrpc": "2.0", "id": message["id"], "result": result}


async def echo_peer(streams: PeerStreams) -> int:
    """``echo_server.py``'s answers (and ``work``), over the peer's streams."""
    async for line in streams.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        is_work = message.get("method") == "tools/call" and (message.get("params") or {}).get("name") == "work"
        answer = _work(message) if is_work else reply(message)
        if answer is not None:
            await streams.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
    return 0


async def silent_peer(streams: PeerStreams) -> int:
    """Reads everything and answers nothing, as a server that has not finished starting."""
    async for _line in streams.stdin:
        pass
    return 0


class Accepts:
    """Answers every input request with an accept (the benchmark measures the inspector, not a person)."""

    async def answer(self, key: str | None, request: dict[str, Any]) -> Answer:
        return Answer({"action": "accept", "content": {"ok": True}}, "bench")


async def session_with_calls(calls: int) -> InspectorSession:
    """The real session, connected over the memory transport to ``echo_peer``, after ``calls`` calls (every fifth
    one a three-round ``work``); the tools are listed, so the TUI shows a catalog."""
    clock = StepClock(step=0.001)
    session = InspectorSession(MemoryTransport(echo_peer, name="echo", clock=clock), Accepts(), clock=clock)
    await session.connect()
    for index in range(1, calls + 1):
        if index % 5 == 0:
            outcome = await session.call_tool("work", {})
        else:
            outcome = await session.call_tool("echo", {"text": str(index)})
        assert outcome.ok, outcome.detail
    return session
