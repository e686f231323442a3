"""In-process peers for the UI tests, run over the memory transport through the real ``InspectorSession``.

``demo()`` is the bundled demo server (``build_server()``, served as ``inspector demo-server`` serves it) with two
changes: its requestState is sealed by ``StableStates``, not by the SDK's AES-GCM under a key and a nonce drawn at
random (and a time stamp) on every run, so that snapshots are the same on every run; and it leaves out its skills
(``skills=False``): with them the TUI's catalog sends one more listing (``skills/list``) as it loads, which would
renumber every call and message id these tests and snapshots name. ``with_skills()`` is the demo with them, as it
is shipped (``test_skills_tui.py``). What the tests need that the demo
has not comes from here too, never from the product: ``with_test_tools(...)`` adds a tool whose name and description
are full of markup and escape sequences, a tool with a 5 MB result, and a tool that waits until it is cancelled,
optionally logging lines that try to clear the screen first; ``with_list_changes()`` adds a tool that adds a tool
and says so to the subscriptions; ``TaskReplyHold`` holds the demo's first reply naming a task until the test lets
it go (a cancel pressed before the task's id came); ``crashing(...)`` is a server that dies at start with a
traceback on stderr (a connect failure).
"""

from __future__ import annotations

import asyncio
import base64
import json
import time
from collections.abc import Sequence
from typing import Any, Final

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.request_state import InvalidRequestState, RequestStateBoundary, RequestStateSecurity
from mcp_types import CallToolResult, TextContent, ToolAnnotations

from inspector.demo.in_process import serve
from inspector.demo.server import build_server
from inspector.transport.memory import Peer, PeerOutput, PeerStreams

HOSTILE_NAME: Final = "[bold red]x"
HOSTILE_DESCRIPTION: Final = "[link=https://evil.example]click[/link] \x1b[2J\x1b[31mred"
BIG_ROWS: Final = 120_000
"""Rows of ``big_report``'s result: about 5.5 MB of JSON on the wire."""


class StableStates:
    """A requestState codec (the SDK's ``RequestStateCodec``) whose token is the base64url of the boundary's claims
    without their time stamps, which ``unseal`` puts back fresh: the same flow shows the same requestState on every
    run. No secrecy and no integrity, which a test server does not need; the boundary still checks every claim."""

    TIMES: Final = ("iat", "exp")

    def seal(self, payload: bytes) -> str:
        claims = {k: v for k, v in json.loads(payload).items() if k not in self.TIMES}
        text = json.dumps(claims, separators=(",", ":"), sort_keys=True)
        return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")

    def unseal(self, token: str) -> bytes:
        try:
            claims = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        except ValueError as bad:
            raise InvalidRequestState("not a StableStates token") from bad
        if not isinstance(claims, dict):
            raise InvalidRequestState("not a StableStates token")
        now = time.time()
        return json.dumps({**claims, "iat": now, "exp": now + 600}).encode()


def stable_states(server: MCPServer[Any]) -> MCPServer[Any]:
    """``server`` with its requestState boundary sealing through ``StableStates`` (see the module docstring)."""
    layers = server.middleware
    for position, layer in enumerate(layers):
        if isinstance(layer, RequestStateBoundary):
            security = RequestStateSecurity(codec=StableStates())
            layers[position] = RequestStateBoundary(security, default_audience=server.name)
    return server


def demo() -> Peer:
    """The demo server, as ``inspector demo-server`` serves it, its requestState sealed by ``StableStates``, without
    its skills (see the module docstring)."""
    return serve(lambda: stable_states(build_server(skills=False)))


def with_skills() -> Peer:
    """The demo server with its skills, as shipped (its requestState sealed by ``StableStates``)."""
    return serve(lambda: stable_states(build_server()))


async def _hostile() -> str:
    return "ok"


async def big_report() -> CallToolResult:
    """A result of about 5 MB (structured rows)."""
    rows = [{"row": i, "value": f"item-{i:06d}", "ok": i % 3 != 0} for i in range(BIG_ROWS)]
    return CallToolResult(content=[TextContent(type="text", text="report")], structured_content={"rows": rows})


async def stall() -> str:
    """Waits until the call is cancelled."""
    await anyio.sleep_forever()
    return "never"


def _server_with_test_tools() -> MCPServer[Any]:
    server = stable_states(build_server(skills=False))
    server.add_tool(_hostile, name=HOSTILE_NAME, description=HOSTILE_DESCRIPTION)
    # The demo's tools carry no annotations: this one shows the catalog's marks for them.
    server.add_tool(big_report, annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=True))
    server.add_tool(stall)
    return server


def logging_first(lines: Sequence[str], peer: Peer) -> Peer:
    """``peer``, writing ``lines`` to its stderr before it serves."""

    async def run(streams: PeerStreams) -> int | None:
        for line in lines:
            await streams.stderr.write(line + "\n")
        return await peer(streams)

    return run


async def fresh_tool() -> str:
    """The tool ``change_tools`` adds."""
    return "fresh"


def _server_with_list_changes() -> MCPServer[Any]:
    server = stable_states(build_server(skills=False))

    async def change_tools(ctx: Context) -> str:
        """Add ``fresh_tool`` and tell every subscriber that the tools changed."""
        server.add_tool(fresh_tool)
        await ctx.notify_tools_changed()
        return "tools changed"

    server.add_tool(change_tools)
    return server


def with_list_changes() -> Peer:
    """The demo server plus ``change_tools``: it adds ``fresh_tool`` and says the tools list changed (to every
    ``subscriptions/listen`` that asked for it)."""
    return serve(_server_with_list_changes)


def with_test_tools(stderr: Sequence[str] = ()) -> Peer:
    """The demo server plus ``[bold red]x``, ``big_report`` and ``stall``, logging ``stderr`` first."""
    return logging_first(stderr, serve(_server_with_test_tools))


class TaskReplyHold:
    """The demo, except that the first reply naming a task (a 2026 ``resultType: "task"``, a 2025 ``{"task": …}``)
    is held back once the server wrote it, until the test lets it go: the client then waits on a ``tools/call``
    whose task already runs on the server, as it does while such a reply crosses a pipe."""

    def __init__(self) -> None:
        self.held = asyncio.Event()
        """The server wrote the reply, and it is held."""
        self.release = asyncio.Event()
        """Set by the test: the reply goes on to the client."""
        self.task_id = ""
        """The id the held reply names."""
        self._sending: set[asyncio.Task[None]] = set()

    def peer(self) -> Peer:
        """A fresh demo server whose first task reply is held (see the class docstring)."""
        demo_peer = demo()

        async def run(streams: PeerStreams) -> int | None:
            to_client = streams.stdout

            def on_line(line: str) -> None:
                if not self.held.is_set() and self._names_a_task(line):
                    self.held.set()
                    sending = asyncio.get_running_loop().create_task(self._later(to_client, line))
                    self._sending.add(sending)
                    sending.add_done_callback(self._sending.discard)
                else:
                    to_client.write_now(line + "\n")

            return await demo_peer(PeerStreams(streams.stdin, PeerOutput(on_line), streams.stderr))

        return run

    def _names_a_task(self, line: str) -> bool:
        result = json.loads(line).get("result")
        if not isinstance(result, dict):
            return False
        task = result if result.get("resultType") == "task" else result.get("task")
        if not isinstance(task, dict) or "content" in result:
            return False
        self.task_id = str(task.get("taskId"))
        return True

    async def _later(self, to_client: PeerOutput, line: str) -> None:
        await self.release.wait()
        to_client.write_now(line + "\n")


def crashing(stderr: Sequence[str], code: int = 1) -> Peer:
    """A server that writes ``stderr`` and exits with ``code`` before it reads anything."""

    async def run(streams: PeerStreams) -> int:
        for line in stderr:
            await streams.stderr.write(line + "\n")
        return code

    return run
