"""Connecting a session: the era probe, the legacy handshake, and sending one request at the session's version."""

from __future__ import annotations

from inspector.protocol.envelope import (
    LATEST_MODERN,
    Envelope,
    mutual_version,
    with_meta,
)
from inspector.protocol.headers import protocol_headers
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import INPUT_REQUIRED_METHODS
from inspector.session import heap, records
from inspector.session.era import UNSUPPORTED_PROTOCOL_VERSION, EraError, Verdict, detect_era
from inspector.session.errors import RequestFailed, RpcError
from inspector.session.legacy import ServerRequestAnswerer, accepted_version, initialize_params
from inspector.session.session_base import ConnectError, SessionBase
from inspector.session.timeline import EraDecision


class SessionHandshake(SessionBase):
    """Connects (era detection, ``initialize`` in the legacy era) and sends requests (``_rpc``)."""

    async def connect(self) -> EraDecision:
        """Start the transport and settle the era; raises ``ConnectError`` (the transport's own start error too)."""
        await self.connection.start()
        try:
            verdict = await self._settle_era()
        except EraError as failure:
            self.log.write(records.closed(self.log.now(), failure.message))
            raise ConnectError(failure.message, failure.hint) from None
        if verdict.era == "legacy":
            await self._initialize(verdict)
        else:
            assert verdict.version is not None
            self.version = verdict.version
            self.log.write(records.era(self.log.now(), "modern", self.version, verdict.why))
        era = self.timeline.era
        assert era is not None
        heap.freeze_at_connect()
        return era

    async def _settle_era(self) -> Verdict:
        if self.era_mode == "legacy":
            return Verdict("legacy", None, "pinned with --era legacy")
        verdict = await detect_era(self._discover)
        if self.era_mode == "modern" and verdict.era == "legacy":
            return Verdict("modern", LATEST_MODERN, f"pinned with --era modern (the probe said legacy: {verdict.why})")
        return verdict

    async def _discover(self, version: str) -> JsonObject:
        call = self._start_call("server/discover", {})
        try:
            result = await self.connection.request(
                call,
                "server/discover",
                {},
                timeout=self.probe_timeout,
                protocol_version=version,
                headers=protocol_headers("server/discover", {}, None, None),
                meta=self._envelope(version, None).meta(),
            )
        except RpcError as error:
            self._end_call(call, "error", f"{error.code} {error.message}")
            raise
        except RequestFailed as failure:
            self._end_call(call, "failed", failure.message)
            raise
        self._end_call(call, "complete")
        return result

    async def _initialize(self, verdict: Verdict, *, reprobed: bool = False) -> None:
        params = initialize_params(self.capabilities, self.legacy_offer)
        call = self._start_call("initialize", params)
        try:
            result = await self.connection.request(
                call, "initialize", params, timeout=self.probe_timeout * 3, protocol_version=None
            )
        except RpcError as error:
            self._end_call(call, "error", f"{error.code} {error.message}")
            if error.code == UNSUPPORTED_PROTOCOL_VERSION and not reprobed:
                supported = error.data.get("supported") if isinstance(error.data, dict) else None
                mutual = mutual_version(supported)
                if mutual is not None:
                    self.version = mutual
                    self.log.write(
                        records.era(self.log.now(), "modern", mutual, "initialize answered -32022; re-probed as modern")
                    )
                    return
            raise ConnectError(
                f"initialize failed: {error.code} {error.message}", "check the server's stderr; try --era modern"
            ) from None
        except RequestFailed as failure:
            self._end_call(call, "failed", failure.message)
            raise ConnectError(
                f"initialize failed: {failure.message}", failure.hint or "check the server's stderr"
            ) from None
        version = accepted_version(result)
        if version is None:
            self._end_call(call, "failed", f"unsupported version {result.get('protocolVersion')!r}")
            raise ConnectError(
                f"the server chose protocol version {result.get('protocolVersion')!r}, which we do not speak",
                "upgrade the inspector",
            )
        self._end_call(call, "complete")
        self.legacy = True
        self.version = version
        self._answerer = ServerRequestAnswerer(self.connection, self.answers, version)
        self.connection.on_server_request = self._answerer
        self.log.write(records.era(self.log.now(), "legacy", version, verdict.why))
        await self.connection.send_notification(call, "notifications/initialized", None, protocol_version=version)
        opener = getattr(self.transport, "open_server_stream", None)
        if opener is not None:
            await opener()

    async def _rpc(self, call: int, method: str, params: JsonObject, capabilities: JsonObject | None) -> JsonObject:
        """One request at the session's version; a -32022 naming a mutual version is retried once at it."""
        for attempt in range(2):
            if self.legacy and getattr(self.transport, "session_expired", False):
                # The GET stream (or an earlier request) learned that the server dropped our session: a request
                # sent now would carry no session id and be refused, so start the new session first.
                await self._reinitialize()
            version = self.version
            self._progress_tokens += 1
            # A progress token on the calls that can run long, so their progress lands on their round (both eras).
            extra = {"progressToken": f"p{call}.{self._progress_tokens}"} if method in INPUT_REQUIRED_METHODS else None
            meta = None
            if self.legacy:
                sent = with_meta(params, extra) if extra else params
            else:
                sent = params
                meta = self._envelope(version, capabilities).meta(extra)
            headers = self._headers(method, params) if self.transport.kind == "http" else None
            try:
                return await self.connection.request(
                    call, method, sent, timeout=self.timeout, protocol_version=version, headers=headers, meta=meta
                )
            except RpcError as error:
                mutual = mutual_version(error.data.get("supported")) if isinstance(error.data, dict) else None
                if error.code != UNSUPPORTED_PROTOCOL_VERSION or self.legacy or attempt or mutual in (None, version):
                    raise
                assert mutual is not None
                self.version = mutual
            except RequestFailed as failure:
                if failure.kind != "session-expired" or attempt or not self.legacy:
                    raise
                await self._reinitialize()
        raise AssertionError("unreachable")  # pragma: no cover

    def _envelope(self, version: str, capabilities: JsonObject | None) -> Envelope:
        """The envelope of a modern request: the session's (kept while the version holds), or one for the
        capabilities this request declares instead."""
        if capabilities is not None:
            return Envelope(version, capabilities)
        envelope = self._session_envelope
        if envelope is None or envelope.version != version:
            envelope = self._session_envelope = Envelope(version, self.capabilities)
        return envelope

    async def _reinitialize(self) -> None:
        """A new legacy session after the server forgot ours (HTTP 404 with our ``Mcp-Session-Id``)."""
        try:
            await self._initialize(Verdict("legacy", self.version, "the HTTP session expired (404); re-initialized"))
        except ConnectError as lost:
            # A failed re-initialize ends the call like any transport failure, not as an exception.
            raise RequestFailed(
                "transport", f"the session expired and re-initializing failed: {lost.message}", lost.hint
            ) from None
