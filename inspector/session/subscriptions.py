"""Subscriptions: ``subscriptions/listen`` as a call that lasts until the server ends it (its response), the stream
is lost, or the client ends it; the events land on the call, matched by subscription id (``build_listen``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from inspector.protocol.jsonrpc import JsonObject
from inspector.session import findings as lint
from inspector.session.connection import Connection
from inspector.session.errors import RequestFailed, RpcError
from inspector.session.ledger import CallLedger
from inspector.session.outcome import Outcome

Send = Callable[..., Awaitable[JsonObject]]
RpcFailed = Callable[[int, str, RpcError, JsonObject | None], Outcome]


class Subscriber:
    """Listens for a session (one call per subscription; several may run at once)."""

    def __init__(self, ledger: CallLedger, send: Send, connection: Connection, rpc_failed: RpcFailed) -> None:
        self.ledger = ledger
        self._send = send
        self._connection = connection
        self._rpc_failed = rpc_failed

    async def listen(self, notifications: JsonObject, stop: asyncio.Event) -> Outcome:
        """``subscriptions/listen`` for ``notifications`` (``toolsListChanged``, ``resourceSubscriptions``...),
        until the server ends it (its response: a graceful end), the stream is lost, or ``stop`` is set (the
        client ends it: stdio ``notifications/cancelled``, HTTP closes the stream)."""
        ledger = self.ledger
        params: JsonObject = {"notifications": notifications}
        call = ledger.start("subscriptions/listen", params)
        listening = asyncio.ensure_future(self._send(call, "subscriptions/listen", params, None, unbounded=True))
        stopping = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait({listening, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if not listening.done():
                await self._connection.cancel_call(call, "the client ended the subscription")
            result = await listening
        except RpcError as error:
            return self._rpc_failed(call, "subscriptions/listen", error, None)
        except RequestFailed as failure:
            if failure.kind == "cancelled":
                return ledger.end(call, "cancelled", "the client ended the subscription")
            ledger.finding(lint.make("subscription-lost", failure.message, call=call))
            return ledger.end(call, "failed", f"the subscription was lost: {failure.message}", hint="listen again")
        except asyncio.CancelledError:
            ledger.interrupted(call)
            raise
        finally:
            stopping.cancel()
        return ledger.end(call, "complete", "the server ended the subscription", result=result)

    async def subscribe(self, uris: list[str], stop: asyncio.Event) -> Outcome:
        """2025-11-25: ``resources/subscribe`` for each URI (rounds of one call), the server's updates and list
        changes gathered on that call until ``stop`` is set, then ``resources/unsubscribe`` for each."""
        ledger = self.ledger
        call = ledger.start("resources/subscribe", {"uris": uris})
        try:
            for uri in uris:
                await self._send(call, "resources/subscribe", {"uri": uri}, None)
            await stop.wait()
            for uri in uris:
                await self._send(call, "resources/unsubscribe", {"uri": uri}, None)
        except RpcError as error:
            return self._rpc_failed(call, "resources/subscribe", error, None)
        except RequestFailed as failure:
            return ledger.failed(call, failure)
        except asyncio.CancelledError:
            ledger.interrupted(call)
            raise
        return ledger.end(call, "complete", "the client ended the subscriptions")
