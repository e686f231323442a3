"""The loopback redirect target of a login: ``http://127.0.0.1:PORT/callback``, listening only while a login waits.

The port is chosen when the login machinery is built (the redirect URI goes into the client's registration, and an
authorization server compares it exactly), so it is reserved then by binding a socket that does not listen. It
listens from the moment the browser is sent to the authorization URL until the redirect arrives, the login is
cancelled or it times out; then the socket is closed, always. A later login (a step-up) binds the same port again.
Only 127.0.0.1: nothing on the network can reach it. Any path but ``/callback`` gets a 404.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable
from typing import Final
from urllib.parse import parse_qsl, urlsplit

from inspector.protocol.oauth import Landing

LOOPBACK: Final = "127.0.0.1"
PATH: Final = "/callback"
_PAGE: Final = (
    b"<!doctype html><meta charset=utf-8><title>inspector</title>"
    b"<p>The login reached the inspector. You can close this tab.</p>"
)
_STRAY_PAGE: Final = (
    b"<!doctype html><meta charset=utf-8><title>inspector</title>"
    b"<p>This is not the redirect the login waits for (its state does not match). The inspector goes on waiting.</p>"
)
_MAX_REQUEST_LINE: Final = 16384


class CallbackPortTaken(OSError):
    """The registered callback port is in use by another program."""


class LoopbackCallback:
    """One login's redirect target. ``reserve`` picks the port; ``listen`` starts listening; ``wait`` waits for the
    redirect and closes it all."""

    def __init__(self, port: int = 0) -> None:
        self._wanted = port
        self._sock: socket.socket | None = None
        self.port = 0
        self.listening = False

    @property
    def redirect_uri(self) -> str:
        return f"http://{LOOPBACK}:{self.port}{PATH}"

    def reserve(self) -> None:
        """Bind (not listen) the port, so it stays ours until the login; raises ``CallbackPortTaken``."""
        if self._sock is not None:
            return
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        # A later login binds the same port while an earlier connection of the browser may sit in TIME_WAIT.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((LOOPBACK, self.port or self._wanted))
        except OSError as taken:
            sock.close()
            raise CallbackPortTaken(f"port {self.port or self._wanted} on {LOOPBACK} is in use: {taken}") from None
        self._sock = sock
        self.port = sock.getsockname()[1]

    def listen(self) -> None:
        """Start listening now (a browser that comes before ``wait`` runs waits in the backlog)."""
        self.reserve()
        sock = self._sock
        assert sock is not None
        if not self.listening:
            sock.listen(8)
            sock.setblocking(False)
            self.listening = True

    async def wait(
        self, timeout: float, *, state: str | None = None, ignored: Callable[[Landing], None] | None = None
    ) -> Landing:
        """Listen (if not yet) until a browser comes to ``/callback`` with the login's ``state``; the socket is
        closed however this ends. A redirect with another state (a forged one, or a stale tab's) is answered 400,
        told to ``ignored``, and the wait goes on: one stray request must not end a login, nor make the real
        redirect that follows be refused. Raises ``TimeoutError`` after ``timeout`` seconds."""
        self.listen()
        sock = self._sock
        assert sock is not None
        landed: asyncio.Future[Landing] = asyncio.get_running_loop().create_future()

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                await _answer(reader, writer, landed, state, ignored)
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
                pass
            finally:
                writer.close()
                with contextlib.suppress(OSError):
                    await writer.wait_closed()

        server: asyncio.Server | None = None
        try:
            server = await asyncio.start_server(handle, sock=sock)
            return await asyncio.wait_for(landed, timeout)
        finally:
            if server is not None:
                server.close()  # closes the socket too; nothing listens once the login ends
            self.close()

    def close(self) -> None:
        """Stop listening and give the port back (a later login binds it again)."""
        self.listening = False
        if self._sock is not None:
            self._sock.close()
            self._sock = None


async def _answer(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    landed: asyncio.Future[Landing],
    state: str | None,
    ignored: Callable[[Landing], None] | None,
) -> None:
    line = await reader.readuntil(b"\n")
    if len(line) > _MAX_REQUEST_LINE:
        raise ValueError("request line too long")
    while (await reader.readline()) not in (b"\r\n", b"\n", b""):
        pass  # the headers: nothing in them matters
    parts = line.decode("latin-1").split(" ")
    target = urlsplit(parts[1]) if len(parts) >= 3 else None
    if parts[0] != "GET" or target is None or target.path != PATH:
        writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        await writer.drain()
        return
    landing = Landing(dict(parse_qsl(target.query, keep_blank_values=True)), "browser")
    if state is not None and landing.state != state:
        writer.write(
            b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\n"
            b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(_STRAY_PAGE), _STRAY_PAGE)
        )
        await writer.drain()
        if ignored is not None:
            ignored(landing)
        return
    writer.write(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\n"
        b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(_PAGE), _PAGE)
    )
    await writer.drain()
    if not landed.done():
        landed.set_result(landing)
