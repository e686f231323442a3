"""The demo server spoken to by hand: newline-delimited JSON-RPC over its stdio, one line at a time."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Mapping

MODERN = "2026-07-28"
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
SKILLS_EXTENSION = "io.modelcontextprotocol/skills"
CAPABILITIES: dict[str, Any] = {"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}
META: dict[str, Any] = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": CAPABILITIES,
    "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "0"},
}
TASKS_META: dict[str, Any] = {
    **META,
    "io.modelcontextprotocol/clientCapabilities": {**CAPABILITIES, "extensions": {TASKS_EXTENSION: {}}},
}
"""The envelope of a request that declares the Tasks extension."""
READ_TIMEOUT = 30.0
"""A bound on a hang, not a guess at how long it takes: on a 2-core machine running other suites (load average
6 and more) a server has taken over 20 s to start and four concurrent CLI runs over 60 s; a wait that ends early
when the event comes costs nothing more on an idle machine."""


class RawStdio:
    """The demo server as a subprocess, spoken to one JSON line at a time."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.next_id = 0
        self.sent: list[str] = []
        self.skipped: list[dict[str, Any]] = []
        """Messages `request` read past while waiting for its response (notifications, mostly)."""

    async def send(self, message: dict[str, Any]) -> str:
        line = json.dumps(message, separators=(",", ":"))
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()
        self.sent.append(line)
        return line

    async def receive(self) -> tuple[str, dict[str, Any]]:
        """The next line the server wrote (every stdout line must be one JSON-RPC message)."""
        assert self.process.stdout is not None
        async with asyncio.timeout(READ_TIMEOUT):
            raw = await self.process.stdout.readline()
        assert raw, "the server closed stdout"
        text = raw.decode().rstrip("\n")
        parsed = json.loads(text)
        assert parsed.get("jsonrpc") == "2.0"
        return text, parsed

    async def send_request(self, method: str, params: dict[str, Any], *, meta: Mapping[str, Any] | None = META) -> int:
        """Send a request with a fresh id (the 2026 envelope as `_meta` unless `meta` is None); its id."""
        self.next_id += 1
        body = {**params, "_meta": dict(meta)} if meta is not None else params
        await self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": body})
        return self.next_id

    async def request(
        self, method: str, params: dict[str, Any], *, meta: Mapping[str, Any] | None = META
    ) -> tuple[str, dict[str, Any]]:
        """Send a request and return its response (raw text and parsed), keeping what came before it."""
        return await self.response_to(await self.send_request(method, params, meta=meta))

    async def response_to(self, request_id: int) -> tuple[str, dict[str, Any]]:
        """The response to our request ``request_id`` (raw text and parsed), keeping what came before it."""
        while True:
            text, parsed = await self.receive()
            if parsed.get("id") == request_id and "method" not in parsed:
                return text, parsed
            self.skipped.append(parsed)

    async def next_request(self, method: str) -> dict[str, Any]:
        """The next request the server sends us with ``method``, keeping what came before it."""
        while True:
            _, parsed = await self.receive()
            if parsed.get("method") == method and "id" in parsed:
                return parsed
            self.skipped.append(parsed)


@asynccontextmanager
async def raw_demo(env: Mapping[str, str] | None = None) -> AsyncIterator[RawStdio]:
    """`python -m inspector.demo` over stdio (with `env` added to ours), closed and reaped at the end."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "inspector.demo",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )
    try:
        yield RawStdio(process)
    finally:
        if process.stdin is not None:
            process.stdin.close()
        try:
            async with asyncio.timeout(5):
                await process.wait()
        except TimeoutError:
            process.kill()
            await process.wait()
