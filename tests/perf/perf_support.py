"""What the benchmarks share: how a run says how long it will take, and the TUI benchmarks' in-process peers.

Every script's first line is ``announce``'s estimate of its run, computed from the options it was given (from unit
costs measured on the 2-core development machine), printed before any slow work; it ends with the time the run took.
Each script's default run takes under 2 minutes; its slow modes (more rounds, longer runs, bigger sizes, callgrind
from the process start) are options, listed in its module docstring (``--help`` prints it, via ``arguments``).

``echo_peer`` answers as ``echo_server.py`` does (the benchmarks' fixed point: no validation, no logging), in this
process; its ``work`` tool asks one question per round for two rounds, carrying a requestState, before it answers.
``silent_peer`` reads and never answers (a server still starting). ``session_with_calls(n)`` is the real
``InspectorSession`` over the memory transport after ``n`` calls, every fifth one a three-round ``work``.
"""

from __future__ import annotations

import atexit
import json
import time
from typing import TYPE_CHECKING, Any, Final

from echo_server import reply

from inspector.answers.source import Answer
from inspector.protocol.jsonrpc import JsonObject
from inspector.session.session import InspectorSession
from inspector.transport.memory import MemoryTransport, PeerStreams, StepClock

if TYPE_CHECKING:
    import argparse


def arguments(doc: str | None) -> argparse.ArgumentParser:
    """A benchmark's parser, with its module docstring as the help, kept as written: that is where its default run's
    length and its slow modes are described."""
    import argparse  # here, not at the top: bench_startup's TUI probe imports this module and times its start

    return argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)


def span(seconds: float) -> str:
    """A duration as a person reads it in an estimate: seconds up to two minutes, then minutes."""
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def announce(script: str, seconds: float, parts: str, knobs: str) -> None:
    """Print the run's estimate as the first line (flushed: it must show before the slow work does), and at exit
    how long the run took, in seconds beside the estimate's, so an estimate that has drifted from the machine shows."""
    began = time.perf_counter()
    print(f"{script}: about {span(seconds)} ({parts}); set by {knobs}", flush=True)

    def took() -> None:
        print(f"{script}: took {time.perf_counter() - began:.0f} s (estimated {seconds:.0f} s)", flush=True)

    atexit.register(took)


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
