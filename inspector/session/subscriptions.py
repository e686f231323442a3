"""Subscriptions: ``subscriptions/listen`` as a call that lasts until the server ends it (its response), the stream
is lost, or the client ends it; the events land on the call, matched by subscription id (``build_listen``).

A session that closes with subscriptions open ends them first, as the client (``end_all``): closing the connection
under them made the person's quit read as the server's end, or as a lost stream.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import Final

from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import LISTEN, SUBSCRIBE, UNSUBSCRIBE
from inspector.session.calls import CallServices
from inspector.session.connection import Connection
from inspector.session.errors import RequestFailed
from inspector.timeline import findings as lint
from inspector.timeline.outcome import Outcome

END_WAIT_S: Final = 2.0
"""How long a closing session waits for its open subscriptions to be ended by the client before it closes anyway."""


class Subscriber:
    """Listens for a session (one call per subscription; several may run at once)."""

    def __init__(self, calls: CallServices, connection: Connection) -> None:
        self._calls = calls
        self._connection = connection
        self._open: dict[asyncio.Event, asyncio.Event] = {}
        """The ``stop`` of each subscription running, and the event set once it has ended."""

    async def end_all(self) -> None:
        """The client ends every subscription still open (the session is closing: the person quit), as its ``stop``
        would, and waits until they have ended (bounded: a dead connection must not hold the close)."""
        running = list(self._open.items())
        for stop, _ in running:
            stop.set()
        if running:
            waits = [asyncio.ensure_future(ended.wait()) for _, ended in running]
            _, late = await asyncio.wait(waits, timeout=END_WAIT_S)
            for wait in late:
                wait.cancel()

    async def _running(self, stop: asyncio.Event, subscription: Awaitable[Outcome]) -> Outcome:
        """Run ``subscription``, known to ``end_all`` until it has ended."""
        ended = asyncio.Event()
        self._open[stop] = ended
        try:
            return await subscription
        finally:
            with contextlib.suppress(KeyError):
                del self._open[stop]
            ended.set()

    async def listen(self, notifications: JsonObject, stop: asyncio.Event) -> Outcome:
        """``subscriptions/listen`` for ``notifications`` (``toolsListChanged``, ``resourceSubscriptions``...),
        until the server ends it (its response: a graceful end), the stream is lost, or ``stop`` is set (the
        client ends it: stdio ``notifications/cancelled``, HTTP closes the stream)."""
        ledger = self._calls.ledger
        params: JsonObject = {"notifications": notifications}
        call = ledger.start(LISTEN, params)

        async def listened() -> Outcome:
            listening = asyncio.ensure_future(self._calls.send(call, LISTEN, params, None, unbounded=True))
            stopping = asyncio.ensure_future(stop.wait())
            try:
                await asyncio.wait({listening, stopping}, return_when=asyncio.FIRST_COMPLETED)
                if not listening.done():
                    await self._connection.cancel_call(call, "the client ended the subscription")
                result = await listening
            except RequestFailed as failure:
                if failure.kind == "cancelled":
                    return ledger.end(call, "complete", "the client ended the subscription")
                ledger.finding(lint.make("subscription-lost", failure.message, call=call))
                return ledger.end(call, "failed", f"the subscription was lost: {failure.message}", hint="listen again")
            finally:
                stopping.cancel()
                listening.cancel()  # (interrupted: the request is abandoned on the wire too)
            return ledger.end(call, "complete", "the server ended the subscription", result=result)

        return await self._running(stop, self._calls.settle(call, LISTEN, listened()))

    async def subscribe(self, uris: list[str], stop: asyncio.Event) -> Outcome:
        """2025-11-25: ``resources/subscribe`` for each URI (rounds of one call), the server's updates and list
        changes gathered on that call until ``stop`` is set, then ``resources/unsubscribe`` for each."""
        call = self._calls.ledger.start(SUBSCRIBE, {"uris": uris})

        async def subscribed() -> Outcome:
            for uri in uris:
                await self._calls.send(call, SUBSCRIBE, {"uri": uri}, None)
            await stop.wait()
            for uri in uris:
                await self._calls.send(call, UNSUBSCRIBE, {"uri": uri}, None)
            return self._calls.ledger.end(call, "complete", "the client ended the subscriptions")

        return await self._running(stop, self._calls.settle(call, SUBSCRIBE, subscribed()))
