"""Shared pieces of the demo server tests: a scripted answerer for the SDK client, and spawn helpers."""

from __future__ import annotations

import os
import selectors
import socket
import subprocess
import sys
import time
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import mcp_types as t
from mcp import Client
from mcp.client.stdio import StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
import sep_examples as sep
from http_interop_support import stop, wait_for_port

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator, Mapping

    from mcp.client.session import ClientRequestContext

MODERN = "2026-07-28"
STARTUP_TIMEOUT = 60.0
"""A bound on a hang, not a guess at how long it takes: on a 2-core machine running other suites (load average
6 and more) a server has taken over 20 s to start and four concurrent CLI runs over 60 s; a wait that ends early
when the event comes costs nothing more on an idle machine."""
FAST_TASKS = {"INSPECTOR_DEMO_TASK_SCALE": "0.1"}
"""The task flows at a tenth of their durations (and poll hint), for tests that only need them done."""
ERAS = ("modern", "legacy")
"""`modern` probes with server/discover (lands on 2026-07-28); `legacy` forces the initialize handshake."""

MEETING_ANSWER: dict[str, Any] = {
    "title": "Sprint review",
    "organizer": "ada@example.com",
    "day": "2026-08-03",
    "starts_at": "2026-08-03T10:00:00Z",
    "agenda_url": "https://example.com/agenda",
    "attendees": 6,
    "duration_hours": 1.5,
    "remote": False,
    "room": "Everest",
    "priority": "p0",
    "equipment": ["projector", "whiteboard"],
    "teams": ["eng", "design"],
}


@dataclass
class Answerer:
    """Answers the server's input requests like a scripted user, and records what was asked.

    On 2026-07-28 the SDK client passes the input-request key as `ctx.request_id`; on legacy it is the
    JSON-RPC id of the server's request, so `keys` is only meaningful for the modern era.
    """

    resolution: str = "Duplicate"
    action: Literal["accept", "decline", "cancel"] = "accept"
    keys: list[str] = field(default_factory=list)
    asked: list[dict[str, Any]] = field(default_factory=list)

    async def elicit(self, ctx: ClientRequestContext, params: t.ElicitRequestParams) -> t.ElicitResult:
        self.keys.append(str(ctx.request_id))
        self.asked.append(params.model_dump(by_alias=True, exclude_none=True))
        if self.action != "accept":
            return t.ElicitResult(action=self.action)
        if isinstance(params, t.ElicitRequestURLParams):
            return t.ElicitResult(action="accept")
        properties = set(params.requested_schema["properties"])
        provider = params.message.split(" your ")[-1].split()[0].lower()
        answers: dict[str, Any] = {
            "name": "octocat",
            "email": f"octocat@{provider}.example",
            "resolution": self.resolution,
            "duplicateOfId": 4301,
            "language": "rust",
            "confirm": True,
            "environment": "production",
            "approved": True,
        }
        content = {key: value for key, value in answers.items() if key in properties}
        if "organizer" in properties:
            content = dict(MEETING_ANSWER)
        return t.ElicitResult(action="accept", content=content)

    async def sample(self, ctx: ClientRequestContext, params: t.CreateMessageRequestParams) -> t.CreateMessageResult:
        self.keys.append(str(ctx.request_id))
        self.asked.append(params.model_dump(by_alias=True, exclude_none=True))
        return t.CreateMessageResult.model_validate(sep.CAPITAL_RESPONSE)  # the SEP's own reply

    async def roots(self, ctx: ClientRequestContext) -> t.ListRootsResult:
        self.keys.append(str(ctx.request_id))
        return t.ListRootsResult(
            roots=[
                t.Root.model_validate({"uri": "file:///work/project", "name": "project"}),
                t.Root.model_validate({"uri": "file:///work/notes"}),
            ]
        )


def stdio_params(env: Mapping[str, str] | None = None) -> StdioServerParameters:
    """Spawn the demo over stdio with this very interpreter (the SDK passes it only a few variables of ours, so
    `env` is added to all of them)."""
    return StdioServerParameters(
        command=sys.executable, args=["-m", "inspector.demo"], env={**os.environ, **env} if env else None
    )


@asynccontextmanager
async def demo_client(
    era: str, answerer: Answerer | None = None, server: Any = None, *, callbacks: bool = True
) -> AsyncIterator[Client]:
    """An SDK client on the demo server (stdio unless `server` is a URL) in the given era."""
    answerer = answerer or Answerer()
    kwargs: dict[str, Any] = {}
    if callbacks:
        kwargs = {
            "elicitation_callback": answerer.elicit,
            "sampling_callback": answerer.sample,
            "list_roots_callback": answerer.roots,
        }
    client = Client(
        server if server is not None else stdio_params(FAST_TASKS),
        mode="auto" if era == "modern" else "legacy",
        read_timeout_seconds=10,
        **kwargs,
    )
    async with client:
        expected = MODERN if era == "modern" else "2025-11-25"
        assert client.protocol_version == expected
        yield client


def text_of(result: t.CallToolResult) -> str:
    """All text blocks of a tool result, joined."""
    return "\n".join(block.text for block in result.content if isinstance(block, t.TextContent))


def free_port() -> int:
    """A port that was free a moment ago on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_banner(process: subprocess.Popen[str], deadline: float) -> str:
    """Read stderr until the server prints its URL, bounded by `deadline` (select, never sleep)."""
    assert process.stderr is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stderr, selectors.EVENT_READ)
        while (remaining := deadline - time.monotonic()) > 0:
            if not selector.select(timeout=remaining):
                break
            line = process.stderr.readline()
            if not line:
                break
            if "inspector demo server on " in line:
                return line.strip()
    raise AssertionError(f"demo server did not announce itself (exit code {process.poll()})")


@contextmanager
def demo_http_server(env: Mapping[str, str] | None = None) -> Iterator[str]:
    """`python -m inspector.demo --http` on a free port (with `env` added to ours); yields its URL, stops it."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "inspector.demo", "--http", "--port", str(port)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        banner = wait_for_banner(process, deadline)
        url = f"http://127.0.0.1:{port}/mcp"
        assert banner == f"inspector demo server on {url}"
        wait_for_port(port, deadline)
        yield url
    finally:
        stop(process)
