"""Sending one request of a call at the negotiated version.

A modern request carries the ``_meta`` envelope (encoded once per session and version), a legacy one its progress
token in ``params._meta``; HTTP requests carry the protocol headers. Two recoveries live here because they are
about the session, not the call: a -32022 naming a mutual modern version is retried once at it, and a legacy HTTP
session the server forgot (404) is initialized again before the request is sent (again).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from inspector.protocol.envelope import Envelope, mutual_version, with_meta
from inspector.protocol.headers import protocol_headers
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import INPUT_REQUIRED_METHODS
from inspector.session.connection import Connection
from inspector.session.era import UNSUPPORTED_PROTOCOL_VERSION
from inspector.session.errors import RequestFailed, RpcError
from inspector.session.handshake import HandshakeOptions, Negotiated

SchemaOf = Callable[[str], JsonObject | None]
"""A listed tool's ``inputSchema`` by name (its ``x-mcp-header`` properties become ``Mcp-Param-*`` headers)."""
Reinitialize = Callable[[], Awaitable[Negotiated]]


class RequestSender:
    """Sends requests for calls, at the version the handshake negotiated."""

    def __init__(
        self,
        connection: Connection,
        negotiated: Negotiated,
        options: HandshakeOptions,
        *,
        schema_of: SchemaOf,
        reinitialize: Reinitialize,
        max_timeout: float | None = None,
    ) -> None:
        """``options``: what the session declares, how long a request waits (``timeout``; ``max_timeout`` with
        progress), and the log level every modern request asks for, as the handshake was told them."""
        self.connection = connection
        self.negotiated = negotiated
        self.capabilities = options.capabilities
        self.timeout = options.timeout
        self.max_timeout = max_timeout
        self.log_level = options.log_level
        self._schema_of = schema_of
        self._reinitialize = reinitialize
        self._envelope: Envelope | None = None
        self._progress_tokens = 0

    async def send(
        self,
        call: int,
        method: str,
        params: JsonObject,
        capabilities: JsonObject | None = None,
        *,
        unbounded: bool = False,
    ) -> JsonObject:
        """One request of ``call``; returns its result, raises ``RpcError`` or ``RequestFailed``.

        ``capabilities`` declares other client capabilities for this one request (modern era); ``unbounded``: no
        timeout (2025's ``tasks/result`` answers when the task has ended, however long that takes)."""
        transport = self.connection.transport
        for attempt in range(2):
            if self.negotiated.legacy and transport.session_expired:
                # The GET stream (or an earlier request) learned that the server dropped our session: a request
                # sent now would carry no session id and be refused, so start the new session first.
                self.negotiated = await self._reinitialize()
            version = self.negotiated.version
            self._progress_tokens += 1
            # A progress token on the calls that can run long, so their progress lands on their round (both eras).
            token = f"p{call}.{self._progress_tokens}" if method in INPUT_REQUIRED_METHODS else None
            extra = {"progressToken": token} if token is not None else None
            meta = None
            if self.negotiated.legacy:
                sent = with_meta(params, extra) if extra else params
            else:
                sent = params
                meta = self._envelope_for(version, capabilities).meta(extra)
            headers = self._headers(method, params) if transport.kind == "http" else None
            try:
                timeout = None if unbounded else self.timeout
                return await self.connection.request(
                    call,
                    method,
                    sent,
                    timeout=timeout,
                    protocol_version=version,
                    headers=headers,
                    meta=meta,
                    max_timeout=self.max_timeout,
                    progress_token=token,
                )
            except RpcError as error:
                mutual = mutual_version(error.data.get("supported")) if isinstance(error.data, dict) else None
                if (
                    error.code != UNSUPPORTED_PROTOCOL_VERSION
                    or self.negotiated.legacy
                    or attempt
                    or mutual in (None, version)
                ):
                    raise
                assert mutual is not None
                self.negotiated.version = mutual
            except RequestFailed as failure:
                if failure.kind != "session-expired" or attempt or not self.negotiated.legacy:
                    raise
                self.negotiated = await self._reinitialize()
        raise AssertionError("unreachable")  # pragma: no cover

    def _envelope_for(self, version: str, capabilities: JsonObject | None) -> Envelope:
        """The session's envelope (kept while the version holds), or one for the capabilities this request declares
        instead."""
        if capabilities is not None:
            return Envelope(version, capabilities, self.log_level)
        envelope = self._envelope
        if envelope is None or envelope.version != version:
            envelope = self._envelope = Envelope(version, self.capabilities, self.log_level)
        return envelope

    def _headers(self, method: str, params: JsonObject) -> dict[str, str]:
        """Mcp-Method, Mcp-Name and the tool's Mcp-Param-* headers (HTTP only; stdio has no headers)."""
        schema = self._schema_of(str(params.get("name"))) if method == "tools/call" else None
        return protocol_headers(method, params, None, schema)
