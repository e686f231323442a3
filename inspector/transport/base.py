"""The contract every transport keeps: plain-data events up, exact message text down.

Transports never raise for bad input from the peer: a garbage line, a cut stream or an HTML error page becomes an
event (``Received`` with the raw text, or ``TransportFault``) so the session can put it on the timeline.
Raw transport objects (an ``httpx.Response``, a ``Process``) never leave this package; only these dataclasses do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final, Literal, Protocol

from inspector.protocol.hinted import HintedError
from inspector.protocol.oauth import LoginStep
from inspector.protocol.values import message_value

RequestKey = int | str
BODY_CAP: Final = 1 << 20
"""The most of a non-JSON-RPC HTTP body (an HTML error page) that is kept verbatim: 1 MiB; a longer one is kept up
to here and says so (``HttpExchange.body_truncated``)."""


def decode_wire(data: bytes) -> tuple[str, bytes | None]:
    """Bytes from the server as text: ``(text, None)`` when they are valid UTF-8, else ``(text with U+FFFD for each
    bad sequence, the exact bytes)`` so that what arrived is kept, not only its repair."""
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), data


@dataclass(frozen=True, slots=True)
class HttpExchange:
    """What one HTTP exchange looked like: method, URL, status, headers (secrets already redacted), timing."""

    method: str
    url: str
    request_headers: dict[str, str]
    status: int | None = None
    response_headers: dict[str, str] = field(default_factory=dict)
    content_type: str | None = None
    elapsed_ms: float | None = None
    body_excerpt: str | None = None
    """For a non-JSON-RPC body (an HTML 500 page, a 401 text): the first few hundred characters, readable."""
    body: str | None = None
    """That body verbatim, up to ``BODY_CAP`` bytes."""
    body_truncated: bool = False
    """The body was longer than ``BODY_CAP``: ``body`` holds its first ``BODY_CAP`` bytes."""


@message_value
class OutgoingMessage:
    """One JSON-RPC message to send, with what an HTTP transport needs to build its headers."""

    raw: str
    """The exact text to put on the wire."""
    method: str | None
    """The JSON-RPC method (None for a response we send to a legacy server request)."""
    request_id: RequestKey | None = None
    """Our request id, when this is a request (used to correlate an HTTP response stream and to cancel it)."""
    protocol_version: str | None = None
    """Goes into ``MCP-Protocol-Version`` on HTTP (equal to the ``_meta`` version, or the negotiated legacy one)."""
    headers: dict[str, str] = field(default_factory=dict)
    """Protocol headers computed by the session (``Mcp-Method``, ``Mcp-Name``, ``Mcp-Param-*``); already encoded."""
    owner: int | None = None
    """The sender's own mark (the session's call number), given back unchanged on ``Sent``: a notification or a
    response has no id, and the sender must never have to find its own message again by its text."""


@message_value
class Sent:
    """A message left us; ``raw`` is exactly what was written."""

    raw: str
    at: float
    request_id: RequestKey | None = None
    http: HttpExchange | None = None
    owner: int | None = None
    """``OutgoingMessage.owner``, as given."""


@message_value
class Received:
    """A message arrived; ``raw`` is the exact text (one stdout line, one SSE data payload, one JSON body)."""

    raw: str
    at: float
    in_reply_to: RequestKey | None = None
    """On HTTP, the id of the request whose POST response stream carried this message."""
    http: HttpExchange | None = None
    undecodable: bytes | None = None
    """The exact bytes, when they were not valid UTF-8 (``raw`` is then their decoding with U+FFFD)."""


@message_value
class StderrLine:
    """One line the server wrote to stderr (stdio only): free-form logging, not an error signal."""

    text: str
    at: float
    undecodable: bytes | None = None
    """The exact bytes, when they were not valid UTF-8."""


@message_value
class StreamNote:
    """Something on an SSE stream that is not a JSON-RPC message: a comment or keep-alive (``: ping``), or an event
    without data (an id or retry "priming" the stream). ``text`` is its lines, verbatim."""

    text: str
    at: float
    in_reply_to: RequestKey | None = None
    """The request whose POST stream carried it (None: the standalone GET stream)."""
    http: HttpExchange | None = None


@dataclass(frozen=True, slots=True)
class TransportFault:
    """Something went wrong below JSON-RPC: a refused connection, an HTTP 500 page, a cut SSE stream.

    ``request_id`` names the request it ended, when it ended one. ``message`` says what happened; ``hint`` what to try.
    """

    kind: str
    message: str
    hint: str
    at: float
    request_id: RequestKey | None = None
    http: HttpExchange | None = None
    fatal: bool = False
    """True when the transport can carry nothing more (the process died, the host refused the connection)."""


@dataclass(frozen=True, slots=True)
class AuthEvent(LoginStep):
    """One step of an OAuth login, for the request that needed it (``request_id``), raised by the HTTP transport's
    OAuth driver: the step as told, and the secrets it brought."""

    secrets: tuple[str, ...] = field(default=(), repr=False)
    """Values this step brought (tokens, a code, a client secret): the session redacts them from everything."""


@dataclass(frozen=True, slots=True)
class Closed:
    """The transport is gone: the process exited or the user closed it."""

    reason: str
    at: float
    returncode: int | None = None


TransportEvent = Sent | Received | StderrLine | StreamNote | TransportFault | AuthEvent | Closed
EventSink = Callable[[TransportEvent], None]
"""Events are delivered synchronously, in wire order, from the transport's own task."""

TransportKind = Literal["stdio", "http"]


class Transport(Protocol):
    """A connection to one server. ``start`` once, ``send`` many times, ``close`` once (idempotent)."""

    kind: TransportKind

    def describe(self) -> str:
        """A short human name for the target: the command line or the URL."""
        ...

    async def start(self, sink: EventSink) -> None:
        """Open the connection; every later event goes to ``sink``. Raises ``TransportStartError`` on failure."""
        ...

    async def send(self, message: OutgoingMessage) -> None:
        """Put one message on the wire. Faults are reported as events, never raised."""
        ...

    async def cancel(self, request_id: RequestKey) -> bool:
        """Abort the transport-level exchange of a request (HTTP: close its stream). False when there is none."""
        ...

    async def close(self) -> None:
        """Shut down within a bounded time (stdio: close stdin, wait, terminate, kill; HTTP: DELETE the session)."""
        ...

    # The legacy (``initialize``) era's HTTP duties. Every transport answers them, so the engine asks through this
    # type: stdio and memory have no session to lose and no stream to open (False, and nothing to do).
    @property
    def session_expired(self) -> bool:
        """The server dropped our legacy session (HTTP 404 on its id): the next request must initialize again."""
        ...

    async def open_server_stream(self) -> None:
        """Open the standalone server->client stream when the server offers one (HTTP GET SSE)."""
        ...


class TransportStartError(HintedError):
    """The server could not be started or reached at all; ``hint`` says what to try."""

    def __init__(self, message: str, hint: str, stderr: list[str] | None = None) -> None:
        super().__init__(message, hint)
        self.stderr = stderr or []
