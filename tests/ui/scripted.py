"""A hand-written server for the UI tests of long-running work, run over the memory transport like the demo.

What a real server does at its own pace (how many polls a task takes, when progress comes, when a reply leaves)
is here in the test's hands, so a picture is the same on every run and a test can hold a reply back while it acts:
each method is answered by a handler the test gives, which may wait on an ``asyncio.Event`` the test sets. The
script speaks raw JSON-RPC lines (it is a ``Peer``), in the 2026-07-28 era (``server/discover``) or the legacy one
(``initialize``), and keeps every message the client sent, in order (``received``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.transport.memory import Peer, PeerOutput, PeerStreams

Json = dict[str, Any]
MODERN: Final = "2026-07-28"
LEGACY: Final = "2025-11-25"
SERVER_INFO: Final = {"name": "scripted", "version": "1.0"}
TASKS: Final = "io.modelcontextprotocol/tasks"
CACHE: Final = {"cacheScope": "private", "ttlMs": 0}
"""What a 2026 server says of a result a client may cache (the discover result, a list)."""


class Refused(Exception):
    """A handler's JSON-RPC error."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class Exchange:
    """One request the script got, and the way back to the client."""

    id: Any
    method: str
    params: Json
    out: PeerOutput

    async def notify(self, method: str, params: Json) -> None:
        """A notification to the client."""
        await self.out.write(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}) + "\n")

    async def progress(self, progress: float, total: float | None, message: str) -> None:
        """``notifications/progress`` for this request's token."""
        meta = self.params.get("_meta") or {}
        params: Json = {"progressToken": meta.get("progressToken"), "progress": progress, "message": message}
        if total is not None:
            params["total"] = total
        await self.notify("notifications/progress", params)


Handler = Callable[[Exchange], Awaitable[Json]]


def complete(result: Json) -> Json:
    """A 2026 result that says it is complete."""
    return {"resultType": "complete", **result}


def text(value: str) -> Json:
    """A tool result of one text block."""
    return complete({"content": [{"type": "text", "text": value}], "isError": False})


def tool(name: str, description: str = "") -> Json:
    """A tools/list entry with no arguments."""
    return {"name": name, "description": description, "inputSchema": {"type": "object", "properties": {}}}


@dataclass
class Script:
    """The server (see the module docstring). ``capabilities`` is what it declares; ``handlers`` answer methods
    beyond the handshake and the lists; ``after_initialized`` runs once a legacy client said it is initialized
    (it may send the server's own requests with ``request``)."""

    tools: list[Json] = field(default_factory=list)
    handlers: dict[str, Handler] = field(default_factory=dict)
    capabilities: Json = field(default_factory=lambda: {"tools": {}, "extensions": {TASKS: {}}})
    legacy: bool = False
    after_initialized: Callable[[Script], Awaitable[None]] | None = None
    received: list[Json] = field(default_factory=list)
    """Every message the client sent, in order."""
    replies: dict[Any, Json] = field(default_factory=dict)
    """The client's replies to the script's own requests, by id."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    """Set on every message the client sends (a test clears it and waits)."""
    _out: PeerOutput | None = None
    _running: dict[Any, asyncio.Task[None]] = field(default_factory=dict)

    def methods(self) -> list[str]:
        """The methods of what the client sent (requests and notifications), in order."""
        return [str(message.get("method", "")) for message in self.received if "method" in message]

    async def request(self, request_id: str, method: str, params: Json) -> None:
        """A request of the script's own to the client (legacy: a server request)."""
        assert self._out is not None
        line = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        await self._out.write(json.dumps(line) + "\n")

    def peer(self) -> Peer:
        """The script as a peer of the memory transport."""

        async def run(streams: PeerStreams) -> int:
            self._out = streams.stdout
            try:
                async for line in streams.stdin:
                    message = json.loads(line)
                    self.received.append(message)
                    self.changed.set()
                    await self._take(message, streams.stdout)
            finally:
                for task in self._running.values():
                    task.cancel()
            return 0

        return run

    async def _take(self, message: Json, out: PeerOutput) -> None:
        method = message.get("method")
        if method is None:  # the client's reply to a request of ours
            self.replies[message.get("id")] = message
            return
        params = message.get("params") or {}
        if "id" not in message:
            if method == "notifications/cancelled":
                running = self._running.pop(params.get("requestId"), None)
                if running is not None:
                    running.cancel()
            elif method == "notifications/initialized" and self.after_initialized is not None:
                self._running["after-initialized"] = asyncio.ensure_future(self.after_initialized(self))
            return
        exchange = Exchange(message["id"], str(method), params, out)
        task = asyncio.ensure_future(self._answer(exchange))
        self._running[exchange.id] = task
        task.add_done_callback(lambda _: self._running.pop(exchange.id, None))

    async def _answer(self, exchange: Exchange) -> None:
        reply: Json = {"jsonrpc": "2.0", "id": exchange.id}
        try:
            reply["result"] = await self._handle(exchange)
        except Refused as refused:
            reply["error"] = {"code": refused.code, "message": refused.message}
        with contextlib.suppress(Exception):
            await exchange.out.write(json.dumps(reply) + "\n")

    async def _handle(self, exchange: Exchange) -> Json:
        method = exchange.method
        if method in self.handlers:
            return await self.handlers[method](exchange)
        if method == "server/discover":
            if self.legacy:
                raise Refused(-32601, "Method not found: server/discover")
            info = {"io.modelcontextprotocol/serverInfo": SERVER_INFO}
            found = {"supportedVersions": [MODERN], "capabilities": self.capabilities, "_meta": info, **CACHE}
            return complete(found)
        if method == "initialize":
            return {"protocolVersion": LEGACY, "capabilities": self.capabilities, "serverInfo": SERVER_INFO}
        if method == "tools/list":
            return complete({"tools": self.tools, **CACHE})
        if method == "ping":
            return {}
        raise Refused(-32601, f"Method not found: {method}")


CREATED_AT: Final = "2026-07-28T10:00:00.000Z"
APPROVE: Final[Json] = {
    "method": "elicitation/create",
    "params": {
        "mode": "form",
        "message": "Release v1.2 to production?",
        "requestedSchema": {
            "type": "object",
            "properties": {"approved": {"type": "boolean", "title": "Approve", "default": True}},
            "required": ["approved"],
        },
    },
}


@dataclass
class ScriptedTask:
    """A 2026 task (the Tasks extension) made by ``tools/call``: each ``tasks/get`` says the next of ``steps``
    (status, statusMessage); the last one repeats. An ``input_required`` step asks ``approve_release`` and is
    said again until ``tasks/update`` answers it. ``tasks/cancel`` makes the next poll say ``cancelled`` (unless
    ``completes_anyway``). While ``hold`` is given and not set, a poll waits for it before it answers."""

    steps: list[tuple[str, str]]
    task_id: str = "task-7f3a"
    result: Json = field(default_factory=lambda: text("Released v1.2 to production (approved)."))
    ttl_ms: int | None = 60_000
    poll_ms: int = 50
    hold: asyncio.Event | None = None
    completes_anyway: bool = False
    polled: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when a poll arrives (a test clears it and waits for the next)."""
    _answered: bool = False
    _cancelled: bool = False
    _at: int = 0

    def handlers(self) -> dict[str, Handler]:
        """The methods this task answers."""
        return {
            "tools/call": self._create,
            "tasks/get": self._get,
            "tasks/update": self._update,
            "tasks/cancel": self._cancel,
        }

    def _task(self, status: str, message: str) -> Json:
        task: Json = {
            "taskId": self.task_id,
            "status": status,
            "statusMessage": message,
            "createdAt": CREATED_AT,
            "lastUpdatedAt": CREATED_AT,
            "ttlMs": self.ttl_ms,
            "pollIntervalMs": self.poll_ms,
        }
        if status == "input_required":
            task["inputRequests"] = {"approve_release": APPROVE}
        if status == "completed":
            task["result"] = self.result
        return task

    async def _create(self, exchange: Exchange) -> Json:
        return {"resultType": "task", **self._task(*self.steps[0])}

    async def _get(self, exchange: Exchange) -> Json:
        self.polled.set()
        if self.hold is not None:
            await self.hold.wait()
        if self._cancelled and not self.completes_anyway:
            return complete(self._task("cancelled", "cancelled by the client"))
        last = len(self.steps) - 1
        status, message = self.steps[min(self._at, last)]
        if status == "input_required" and self._answered:
            self._at += 1
            status, message = self.steps[min(self._at, last)]
        if status != "input_required":
            self._at += 1
        return complete(self._task(status, message))

    async def _update(self, exchange: Exchange) -> Json:
        self._answered = True
        return complete({})

    async def _cancel(self, exchange: Exchange) -> Json:
        self._cancelled = True
        status = "working" if self.completes_anyway else "cancelled"
        return complete(self._task(status, "cancel asked"))
