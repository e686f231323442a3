"""Connecting a session: start the transport, settle the era, and in the legacy era run ``initialize``.

A ``Handshake`` over the session's connection, call ledger and options, returning what was negotiated: the session
holds the result, and the request sender re-runs ``initialize`` when a legacy HTTP session expires.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from inspector.protocol.envelope import DEFAULT_CAPABILITIES, LATEST_LEGACY, LATEST_MODERN, Envelope, mutual_version
from inspector.protocol.headers import protocol_headers
from inspector.protocol.hinted import HintedError
from inspector.protocol.jsonrpc import JsonObject
from inspector.session.connection import Connection
from inspector.session.era import UNSUPPORTED_PROTOCOL_VERSION, EraError, Verdict, detect_era
from inspector.session.errors import RequestFailed, RpcError
from inspector.session.ledger import CallLedger
from inspector.session.legacy import ServerRequestAnswerer, accepted_version, initialize_params
from inspector.timeline import records

EraMode = Literal["auto", "modern", "legacy"]
PROBE_TIMEOUT_S = 10.0
"""How long the era probe waits for ``server/discover`` before calling the server legacy: 10 s, and never more
than half the handshake's timeout, so that ``initialize`` has the other half."""


class ConnectError(HintedError):
    """The session could not be established; ``hint`` says what to try."""


@dataclass(frozen=True, slots=True)
class HandshakeOptions:
    """How to connect: which era (``auto`` probes), what we declare, how long the probe waits, what ``initialize``
    offers."""

    era: EraMode = "auto"
    capabilities: JsonObject = field(default_factory=lambda: dict(DEFAULT_CAPABILITIES))
    probe_timeout: float = PROBE_TIMEOUT_S
    legacy_offer: str = LATEST_LEGACY
    """The version offered in ``initialize`` (legacy era)."""
    modern_version: str = LATEST_MODERN
    """The version the probe speaks first, and the one ``--era modern`` speaks when the probe said legacy."""
    log_level: str | None = None
    """The log level asked on every modern request, the probe included."""
    timeout: float = 60.0
    """The whole handshake (probe, re-probe, ``initialize``) ends within this many seconds (``--timeout``)."""

    def probe_limit(self) -> float:
        """How long one probe waits: ``probe_timeout``, at most half of ``timeout``."""
        return min(self.probe_timeout, self.timeout / 2)


@dataclass(slots=True)
class Negotiated:
    """What connecting settled: the era and the version spoken (a -32022 can move a modern session to another
    version later), and in the legacy era who answers the server's requests."""

    legacy: bool
    version: str
    server_requests: ServerRequestAnswerer | None = None


@dataclass(frozen=True, slots=True)
class Handshake:
    """Connecting over the session's connection and call ledger, with its options: ``connect`` once, and
    ``initialize`` again whenever a legacy HTTP session expires."""

    connection: Connection
    ledger: CallLedger
    options: HandshakeOptions
    cancel: Callable[[int], Awaitable[object]] | None = None
    """The session's cancel, for a call the person cancels at a server request (``ServerRequestAnswerer``)."""

    async def connect(self) -> Negotiated:
        """Start the transport and settle the era within ``options.timeout``; raises ``ConnectError`` (the transport's
        own start error too)."""
        connection, options = self.connection, self.options
        deadline = time.monotonic() + options.timeout
        await connection.start()
        try:
            verdict = await self._settle_era()
        except EraError as failure:
            connection.log.write(records.closed(connection.log.now(), failure.message))
            raise ConnectError(failure.message, failure.hint) from None
        if verdict.era == "legacy":
            return await self.initialize(verdict.why, deadline=deadline)
        assert verdict.version is not None
        connection.log.write(records.era(connection.log.now(), "modern", verdict.version, verdict.why))
        return Negotiated(legacy=False, version=verdict.version)

    async def _settle_era(self) -> Verdict:
        connection, ledger, options = self.connection, self.ledger, self.options
        if options.era == "legacy":
            return Verdict("legacy", None, "pinned with --era legacy")

        async def discover(version: str) -> JsonObject:
            call = ledger.start("server/discover", {})
            try:
                result = await connection.request(
                    call,
                    "server/discover",
                    {},
                    timeout=options.probe_limit(),
                    protocol_version=version,
                    headers=protocol_headers("server/discover", {}, None, None),
                    meta=Envelope(version, options.capabilities, options.log_level).meta(),
                )
            except RpcError as error:
                ledger.end(call, "error", f"{error.code} {error.message}")
                raise
            except RequestFailed as failure:
                ledger.end(call, "failed", failure.message)
                raise
            ledger.end(call, "complete")
            return result

        verdict = await detect_era(discover, preferred=options.modern_version)
        if options.era == "modern" and verdict.era == "legacy":
            return Verdict(
                "modern", options.modern_version, f"pinned with --era modern (the probe said legacy: {verdict.why})"
            )
        return verdict

    async def initialize(self, why: str, *, deadline: float | None = None, reprobed: bool = False) -> Negotiated:
        """The legacy handshake: ``initialize``, ``notifications/initialized``, the GET stream when the transport has
        one, answered before ``deadline`` (``time.monotonic``; default: ``options.timeout`` from now). A server that
        answers -32022 naming a modern version we speak is modern after all (once)."""
        connection, ledger, options = self.connection, self.ledger, self.options
        log = connection.log
        # (time a person spent logging in, during the probe, is not the server's slowness)
        left = (deadline + connection.waited_on_person - time.monotonic()) if deadline is not None else options.timeout
        if left <= 0:
            raise ConnectError(
                f"no answer within --timeout {options.timeout:g} s: the era probe used it all",
                "raise --timeout, or pin the era (--era legacy skips the probe)",
            )
        params = initialize_params(options.capabilities, options.legacy_offer)
        call = ledger.start("initialize", params)
        try:
            result = await connection.request(call, "initialize", params, timeout=left, protocol_version=None)
        except RpcError as error:
            ledger.end(call, "error", f"{error.code} {error.message}")
            if error.code == UNSUPPORTED_PROTOCOL_VERSION and not reprobed:
                supported = error.data.get("supported") if isinstance(error.data, dict) else None
                mutual = mutual_version(supported)
                if mutual is not None:
                    log.write(
                        records.era(log.now(), "modern", mutual, "initialize answered -32022; re-probed as modern")
                    )
                    return Negotiated(legacy=False, version=mutual)
            raise ConnectError(
                f"initialize failed: {error.code} {error.message}", "check the server's stderr; try --era modern"
            ) from None
        except RequestFailed as failure:
            ledger.end(call, "failed", failure.message)
            raise ConnectError(
                f"initialize failed: {failure.message}", failure.hint or "check the server's stderr"
            ) from None
        version = accepted_version(result)
        if version is None:
            ledger.end(call, "failed", f"unsupported version {result.get('protocolVersion')!r}")
            raise ConnectError(
                f"the server chose protocol version {result.get('protocolVersion')!r}, which we do not speak",
                "upgrade the inspector",
            )
        ledger.end(call, "complete")
        answerer = ServerRequestAnswerer(connection, ledger.answers, version, self.cancel)
        connection.on_server_request = answerer
        log.write(records.era(log.now(), "legacy", version, why))
        await connection.send_notification(call, "notifications/initialized", None, protocol_version=version)
        await connection.transport.open_server_stream()
        return Negotiated(legacy=True, version=version, server_requests=answerer)
