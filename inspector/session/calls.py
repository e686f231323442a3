"""What the session's collaborators that run calls of their own (the catalog lister, the task follower, the
subscriber) are handed: the ledger that records each call, the way to send one of its requests, and ``settle``."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from inspector.protocol.jsonrpc import JsonObject

if TYPE_CHECKING:
    from inspector.session.ledger import CallLedger, Settle


class Send(Protocol):
    """One request of call ``call`` at the negotiated version (``RequestSender.send``): its result; raises
    ``RpcError`` or ``RequestFailed``. ``capabilities`` declares other client capabilities for this one request;
    ``unbounded``: no timeout (a request that lasts as long as the server says, like ``subscriptions/listen``)."""

    def __call__(
        self, call: int, method: str, params: JsonObject, capabilities: JsonObject | None, *, unbounded: bool = False
    ) -> Awaitable[JsonObject]: ...


@dataclass(frozen=True, slots=True)
class CallServices:
    """The session's three services for running a call, handed over as one."""

    ledger: CallLedger
    send: Send
    settle: Settle
    """Runs a call's work to its outcome, ending the call as a failure says (``InspectorSession.settle``)."""
