"""The bundled demo MCP server: builds it and runs it over stdio or Streamable HTTP.

Dual-era by construction: the SDK's MCPServer answers `server/discover` (2026-07-28) and `initialize`
(2025-11-25 and older) on the same process, and each flow picks MRTR or server-to-client requests per request.
Nothing but protocol messages may reach stdout in stdio mode, so diagnostics go to stderr.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, Final

import anyio
import uvicorn
from mcp.server.caching import CacheableMethod, CacheHint
from mcp.server.extension import Extension
from mcp.server.mcpserver import MCPServer

from inspector.demo import flaws, flows_elicit, flows_other, flows_prompt_resource, flows_tasks
from inspector.demo.flaw_names import STATE_KEY_ENV, TASK_DIR_ENV
from inspector.demo.skills_ext import DemoSkills, LegacySkillsDeclaration
from inspector.demo.task_share import SharedTasks
from inspector.demo.task_table import TaskTable
from inspector.demo.tasks_ext import DemoTasks
from inspector.demo.tasks_legacy import LegacyTaskMiddleware

SERVER_NAME: Final = "inspector-demo"
SERVER_VERSION: Final = "0.1.0"
LOOPBACK: Final = "127.0.0.1"
MCP_PATH: Final = "/mcp"

INSTRUCTIONS: Final = (
    "Demo server of the inspector: one tool per multi round-trip flow of MCP 2026-07-28, and the same flows "
    "through server-to-client requests for 2025-11-25 / 2025-06-18 clients. deploy_release and nightly_build "
    "run as tasks (the 2026 Tasks extension, or 2025-11-25 tasks). Two skills (the Skills extension): "
    "incident-triage and release-notes."
)


def _lifespan(table: TaskTable) -> Callable[[MCPServer[Any]], AbstractAsyncContextManager[dict[str, Any]]]:
    """The server's lifespan owns the task group the tasks run in, so they outlive the requests that made them."""

    @asynccontextmanager
    async def lifespan(_: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        async with table.running():
            yield {}

    return lifespan


_CATALOG_HINT: Final = CacheHint(ttl_ms=60_000, scope="public")
CACHE_HINTS: Final[dict[CacheableMethod, CacheHint]] = {
    "tools/list": _CATALOG_HINT,
    "prompts/list": _CATALOG_HINT,
    "resources/list": _CATALOG_HINT,
    "resources/templates/list": _CATALOG_HINT,
    "resources/read": CacheHint(ttl_ms=5_000, scope="private"),
}
"""Seed 004's caching hints: the catalog is the same for everyone for a minute; a read resource is this login's."""


def build_server(
    flaw: str | None = None,
    *,
    state_key: str | None = None,
    task_dir: Path | None = None,
    skills: bool = True,
    **protection: Any,
) -> MCPServer[Any]:
    """A fresh demo server with every tool, the `code_review` prompt, the `demo://report` resource, its tasks and
    its skills (``skills_ext``); with a `flaw` (`flaw_names.FLAWS`) it fails `inspector lab` on purpose.
    ``state_key``: the requestState sealing key (default: ``$INSPECTOR_DEMO_STATE_KEY``; servers given the same key
    open each other's states).
    ``task_dir``: the folder its tasks are shared in (default: ``$INSPECTOR_DEMO_TASK_DIR``; servers given the same
    folder find each other's tasks; none: kept in this server's memory, as with the flaw ``own-tasks``).
    ``skills``: False leaves the Skills extension out (a server that does not declare it; the TUI tests that
    number the calls after the catalog's listings).
    ``protection``: ``auth=AuthSettings(...)`` and ``token_verifier=...`` for the OAuth demo (``demo.auth``)."""
    security = flaws.shared_security(flaw, {STATE_KEY_ENV: state_key}) if state_key else flaws.shared_security(flaw)
    folder = task_dir if task_dir is not None else os.environ.get(TASK_DIR_ENV) or None
    shared = SharedTasks(Path(folder)) if folder is not None and flaw != "own-tasks" else None
    tasks = DemoTasks(TaskTable(shared=shared))
    offered: list[Extension] = [tasks, DemoSkills()] if skills else [tasks]
    server: MCPServer[Any] = MCPServer(
        SERVER_NAME,
        title="Inspector demo server",
        instructions=INSTRUCTIONS,
        version=SERVER_VERSION,
        log_level="WARNING",
        request_state_security=security,
        extensions=offered,
        middleware=[LegacyTaskMiddleware(tasks), *([LegacySkillsDeclaration()] if skills else [])],
        lifespan=_lifespan(tasks.table),
        cache_hints=CACHE_HINTS,
        **protection,
    )
    flows_elicit.register(server)
    flows_other.register(server)
    flows_prompt_resource.register(server)
    flows_tasks.register(server, tasks)
    flaws.apply(server, flaw)
    return server


def run_stdio(flaw: str | None = None) -> None:
    """Serve the demo over stdin/stdout until the client closes the pipe."""
    server = build_server(flaw)
    anyio.run(server.run_stdio_async)


def bind_loopback(port: int) -> socket.socket:
    """Bind the listening socket ourselves so port 0 yields a known port before the server starts."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((LOOPBACK, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


def run_http(port: int, host: str = LOOPBACK, flaw: str | None = None) -> None:
    """Serve the demo over Streamable HTTP at http://127.0.0.1:PORT/mcp; port 0 picks a free port.

    Only loopback is allowed: the demo has no authentication. The URL is printed to stderr once listening.
    """
    if host != LOOPBACK:
        raise ValueError(f"the demo server only listens on {LOOPBACK}, not {host!r}")
    if not 0 <= port <= 65535:
        raise ValueError(f"invalid port {port}")
    app = build_server(flaw).streamable_http_app(streamable_http_path=MCP_PATH, host=LOOPBACK)
    sock = bind_loopback(port)
    bound_port = sock.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    print(f"inspector demo server on http://{LOOPBACK}:{bound_port}{MCP_PATH}", file=sys.stderr, flush=True)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
