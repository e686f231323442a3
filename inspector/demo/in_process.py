"""The demo server as an in-process peer of ``inspector.transport.memory``: for tests, screenshots and benchmarks.

``serve(server)`` runs an SDK server through the SDK's own ``stdio_server``, given the peer's text streams instead of
the process's stdin and stdout: the very code path of ``inspector demo-server`` over stdio (one JSON text per line,
both eras), minus the process. What the server logs goes to the peer's stderr, as it would to a process's.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, cast

from mcp.server.stdio import stdio_server

from inspector.demo.server import build_server

if TYPE_CHECKING:
    import anyio
    from mcp.server.mcpserver import MCPServer

    from inspector.transport.memory import Peer, PeerOutput, PeerStreams

NAME: Final = "inspector demo-server"
"""How an in-process demo names itself (the transport's ``describe``, the recording's target): the command that
serves the same server over a real pipe, so a call exported from such a recording as an SDK script runs as is."""

_STDERR: contextvars.ContextVar[tuple[asyncio.AbstractEventLoop, int, PeerOutput] | None] = contextvars.ContextVar(
    "inspector_peer_stderr", default=None
)
"""The stderr of the peer running in this context, with its loop and the loop's thread."""


class _ToPeerStderr(logging.Handler):
    """Sends a log record to the stderr of the peer whose task made it (tasks, and the worker threads the SDK runs
    plain functions in, inherit the context), so the server's logging shows in the console as a subprocess's
    would, and never reaches the terminal. Records made outside any peer are not this handler's."""

    def emit(self, record: logging.LogRecord) -> None:
        peer = _STDERR.get()
        if peer is None:
            return
        loop, thread, stderr = peer
        text = self.format(record) + "\n"
        if threading.get_ident() == thread:
            stderr.write_now(text)
        else:  # a worker thread: the transport's events are delivered on the loop only
            loop.call_soon_threadsafe(stderr.write_now, text)


_HANDLER: Final = _ToPeerStderr()
_HANDLER.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))


def serve(build: Callable[[], MCPServer[Any]]) -> Peer:
    """A peer that serves the server ``build()`` returns (built now) over its streams until its stdin ends.

    The logging handler goes on the root logger first, once: building an SDK server calls its
    ``configure_logging``, which adds a handler writing to this process's stderr unless the root logger has one.
    """
    root = logging.getLogger()
    if _HANDLER not in root.handlers:
        root.addHandler(_HANDLER)
    server = build()

    async def peer(streams: PeerStreams) -> int:
        # This task's context only (several peers may run at once); the SDK's tasks inherit it.
        _STDERR.set((asyncio.get_running_loop(), threading.get_ident(), streams.stderr))
        # stdio_server reads lines with ``async for`` and writes with ``write`` and ``flush``: the peer's streams
        # are those, typed as the anyio files it is usually given.
        stdin = cast("anyio.AsyncFile[str]", streams.stdin)
        stdout = cast("anyio.AsyncFile[str]", streams.stdout)
        async with stdio_server(stdin=stdin, stdout=stdout) as (read, write):
            # The low-level server is what ``MCPServer.run_stdio_async`` runs over these same streams; the SDK's
            # own in-memory transport reaches it the same way (it is not public yet).
            lowlevel = server._lowlevel_server
            await lowlevel.run(read, write, lowlevel.create_initialization_options())
        return 0

    return peer


def demo_peer() -> Peer:
    """A fresh demo server (``build_server()``) as a peer."""
    return serve(build_server)
