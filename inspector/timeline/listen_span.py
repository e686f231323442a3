"""A subscription on its call: what ``subscriptions/listen`` asked for, what the server acknowledged it would honour,
the notifications it sent for it, and how it ended. Derived from the wire by the builder (``timeline.build.listen``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from inspector.protocol.jsonrpc import JsonObject, RequestId
from inspector.timeline.recent_events import RecentEvents
from inspector.timeline.wire import WireMessage

SUBSCRIPTION_ID: Final = "io.modelcontextprotocol/subscriptionId"
ListenEnd = Literal["graceful", "server-cancelled", "lost", "client-ended"]
END_SAID: Final[dict[str, str]] = {
    "graceful": "ended by the server",
    "server-cancelled": "cancelled by the server",
    "lost": "lost",
    "client-ended": "ended by the client",
}
KIND_OF_NOTIFICATION: Final[dict[str, str]] = {
    "notifications/tools/list_changed": "toolsListChanged",
    "notifications/prompts/list_changed": "promptsListChanged",
    "notifications/resources/list_changed": "resourcesListChanged",
    "notifications/resources/updated": "resourceSubscriptions",
    "notifications/tasks": "taskIds",
}
"""The notification a subscription kind brings (``notifications`` of the listen request)."""


def wanted(tools: bool, prompts: bool, resources: bool, uris: list[str], task_ids: list[str]) -> JsonObject:
    """The ``notifications`` of a listen request for what was picked (every list change when nothing is):
    ``inspector listen``'s options, the TUI's subscriptions panel."""
    if not (tools or prompts or resources or uris or task_ids):
        tools = prompts = resources = True
    asked: JsonObject = {}
    for kind, on in (("toolsListChanged", tools), ("promptsListChanged", prompts), ("resourcesListChanged", resources)):
        if on:
            asked[kind] = True
    if uris:
        asked["resourceSubscriptions"] = uris
    if task_ids:
        asked["taskIds"] = task_ids
    return asked


def asks_for(value: object) -> bool:
    """Whether a subscription field asks for (or honours) something: ``true``, or a non-empty list of URIs or
    task ids."""
    return bool(value) if isinstance(value, bool | list) else value is not None


def event_gist(message: JsonObject) -> str:
    """What one subscription event says, in a few words: ``tools list changed``, ``resource updated URI``,
    ``task ID working`` (server text: the caller sanitizes it)."""
    method = str(message.get("method", ""))
    params = message.get("params")
    params = params if isinstance(params, dict) else {}
    if method.endswith("/list_changed"):
        return method.removeprefix("notifications/").split("/")[0] + " list changed"
    if method == "notifications/resources/updated":
        return f"resource updated {params.get('uri', '?')}"
    if method == "notifications/tasks":
        return f"task {params.get('taskId', '?')} {params.get('status', '?')}"
    return method


@dataclass(slots=True)
class ListenSpan:
    """One subscription: its id (the listen request's id), what was asked and honoured, the events, the end."""

    subscription_id: RequestId | None
    asked: JsonObject
    honoured: JsonObject | None = None
    """What the acknowledgement said the server will send (None: not acknowledged yet)."""
    ack_at: float | None = None
    events: RecentEvents[WireMessage] = field(default_factory=RecentEvents)
    """Every event counted, the newest kept (a storm of updates must not fill the memory; the recording has all)."""
    end: ListenEnd | None = None

    def kinds(self) -> list[str]:
        """What the subscription brings: the kinds the server honours (2025: the kinds asked, there is no
        acknowledgement)."""
        said = self.honoured if self.subscription_id is not None else self.asked
        return [kind for kind, wanted in (said or {}).items() if asks_for(wanted)]

    def summary(self) -> str:
        """One line: what the server honours (or that it has not acknowledged), how many events, how it ended."""
        if self.subscription_id is None:
            uris = self.asked.get("resourceSubscriptions") or []
            said = f"resources/subscribe {len(uris)} URI{'s' if len(uris) != 1 else ''}"
        elif self.honoured is None:
            said = "not acknowledged"
        else:
            said = "honours " + (", ".join(self.kinds()) or "nothing")
        events = f"{self.events.count:,} event{'s' if self.events.count != 1 else ''}"
        end = END_SAID[self.end] if self.end is not None else "listening"
        return f"{said} · {events} · {end}"
