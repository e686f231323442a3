"""A subscription on its call: what ``subscriptions/listen`` asked for, what the server acknowledged it would honour,
the notifications it sent for it, and how it ended. Derived from the wire by the builder (``build_listen``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal

from inspector.protocol.jsonrpc import JsonObject, RequestId

if TYPE_CHECKING:
    from inspector.session.timeline import WireMessage

SUBSCRIPTION_ID: Final = "io.modelcontextprotocol/subscriptionId"
ListenEnd = Literal["graceful", "server-cancelled", "lost", "cancelled"]
KIND_OF_NOTIFICATION: Final[dict[str, str]] = {
    "notifications/tools/list_changed": "toolsListChanged",
    "notifications/prompts/list_changed": "promptsListChanged",
    "notifications/resources/list_changed": "resourcesListChanged",
    "notifications/resources/updated": "resourceSubscriptions",
    "notifications/tasks": "taskIds",
}
"""The notification a subscription kind brings (``notifications`` of the listen request)."""


@dataclass(slots=True)
class ListenSpan:
    """One subscription: its id (the listen request's id), what was asked and honoured, the events, the end."""

    subscription_id: RequestId | None
    asked: JsonObject
    honoured: JsonObject | None = None
    """What the acknowledgement said the server will send (None: not acknowledged yet)."""
    ack_at: float | None = None
    events: list[WireMessage] = field(default_factory=list)
    end: ListenEnd | None = None
