"""Which method does what: one table per protocol fact, asked by every layer and every face.

A fact written out in two places drifts; so each lives here once: which methods list the catalog (and where the
items are, which capability offers them, which method uses an item), which methods are input requests, which may
answer ``input_required``, which result types exist.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal, TypeVar

ValueT = TypeVar("ValueT")
CatalogKind = Literal["tools", "prompts", "resources", "templates"]


@dataclass(frozen=True, slots=True)
class CatalogListing:
    """One kind of catalog entry: how it is listed, where the items are, who offers it, how an item is used."""

    kind: CatalogKind
    list_method: str
    """The paginated list request (``tools/list``)."""
    items_field: str
    """The result field that holds the items (``tools``; ``resourceTemplates`` for templates)."""
    capability: str
    """The server capability that offers the list (templates come with ``resources``)."""
    use_method: str
    """The request that uses one item (a template is read by its expanded URI)."""
    label: str
    """What a person calls the kind (catalog headings, messages)."""
    key_field: str
    """The item field that names it (``name``; ``uri``/``uriTemplate`` for resources and templates)."""


CATALOG: Final[dict[CatalogKind, CatalogListing]] = {
    "tools": CatalogListing("tools", "tools/list", "tools", "tools", "tools/call", "Tools", "name"),
    "prompts": CatalogListing("prompts", "prompts/list", "prompts", "prompts", "prompts/get", "Prompts", "name"),
    "resources": CatalogListing(
        "resources", "resources/list", "resources", "resources", "resources/read", "Resources", "uri"
    ),
    "templates": CatalogListing(
        "templates",
        "resources/templates/list",
        "resourceTemplates",
        "resources",
        "resources/read",
        "Templates",
        "uriTemplate",
    ),
}
"""Every catalog kind, in the order the catalog shows them."""

CATALOG_KINDS: Final[tuple[CatalogKind, ...]] = tuple(CATALOG)

LIST_CHANGED: Final[dict[str, tuple[CatalogKind, ...]]] = {
    "notifications/tools/list_changed": ("tools",),
    "notifications/prompts/list_changed": ("prompts",),
    "notifications/resources/list_changed": ("resources", "templates"),
}
"""The catalog kinds each list change concerns (templates come with resources): what the TUI's catalog lists again
and what a client's cache of those lists must forget."""
RESOURCE_UPDATED: Final = "notifications/resources/updated"
"""A resource changed (its ``uri``, which may be a sub-resource of one subscribed to): a read of it is stale."""

LIST_METHODS: Final[dict[str, CatalogListing]] = {entry.list_method: entry for entry in CATALOG.values()}
"""List method -> its catalog kind (a recorded ``tools/list`` fills the Tools list)."""

InputMethod = Literal["elicitation/create", "sampling/createMessage", "roots/list"]
ELICITATION: Final = "elicitation/create"
SAMPLING: Final = "sampling/createMessage"
ROOTS: Final = "roots/list"
INPUT_METHODS: Final[tuple[InputMethod, ...]] = (ELICITATION, SAMPLING, ROOTS)
"""The input requests a server may put to the client: inside an InputRequiredResult (2026-07-28), or as
server->client requests (legacy)."""
INPUT_REQUEST_METHODS: Final[frozenset[str]] = frozenset(INPUT_METHODS)

INPUT_REQUIRED_METHODS: Final[frozenset[str]] = frozenset({"tools/call", "prompts/get", "resources/read"})
"""Methods that may answer ``input_required`` (SEP-2322): anything else doing so is a protocol violation. They are
also the calls that can run long (they carry a progress token) and the calls a user can send again."""

RESULT_TYPES: Final[frozenset[str]] = frozenset({"complete", "input_required", "task"})
"""Every ``resultType`` of 2026-07-28 (with the Tasks extension); a client MUST treat any other as invalid."""

HANDSHAKE_METHODS: Final[frozenset[str]] = frozenset({"server/discover", "initialize"})
"""The requests that establish a session rather than ask for anything (never re-run, never resent)."""

LISTEN: Final = "subscriptions/listen"
"""2026-07-28: one request whose stream carries a subscription's notifications until it ends."""
SUBSCRIBE: Final = "resources/subscribe"
UNSUBSCRIBE: Final = "resources/unsubscribe"
SUBSCRIPTION_METHODS: Final[frozenset[str]] = frozenset({LISTEN, SUBSCRIBE})
"""The calls that are subscriptions: held open (a listen's stream) or gathering updates until the client ends
them, so a round without a reply is their normal state, not a fault."""

LISTEN_NEEDS: Final[dict[str, tuple[str, str]]] = {
    "toolsListChanged": ("tools", "listChanged"),
    "promptsListChanged": ("prompts", "listChanged"),
    "resourcesListChanged": ("resources", "listChanged"),
    "resourceSubscriptions": ("resources", "subscribe"),
}
"""The server capability (and its flag) that offers each ``subscriptions/listen`` filter; the 2025 form's
``resources/subscribe`` needs ``resources.subscribe`` too. (``taskIds`` come with the Tasks extension, negotiated
apart.)"""


def listen_offered(kind: str, capabilities: Mapping[str, object] | None) -> bool:
    """Whether a server that declared ``capabilities`` offers the listen filter ``kind`` (None: nothing declared
    that we know of, so assumed offered; a filter no capability governs is offered)."""
    need = LISTEN_NEEDS.get(kind)
    if capabilities is None or need is None:
        return True
    capability, flag = need
    declared = capabilities.get(capability)
    return isinstance(declared, Mapping) and declared.get(flag) is True


def listen_kept(asked: Mapping[str, ValueT], capabilities: Mapping[str, object] | None) -> dict[str, ValueT]:
    """The filters of a listen request (``asked``) that a server which declared ``capabilities`` offers
    (``listen_offered``): what ``inspector listen`` and the TUI's subscriptions panel send."""
    return {kind: value for kind, value in asked.items() if listen_offered(kind, capabilities)}


def used_item(params: Mapping[str, object]) -> str:
    """The catalog item a use request names: the tool's or prompt's ``name``, the resource's ``uri`` ("" if none)."""
    for key in ("name", "uri"):
        value = params.get(key)
        if isinstance(value, str):
            return value
    return ""


def request_label(method: str, params: Mapping[str, object]) -> str:
    """A request as people name it: ``tools/call update_work_item``, ``resources/read demo://report``."""
    return f"{method} {used_item(params)}".strip()


def allows_input_required(method: str) -> bool:
    """True for the three methods that may answer input_required."""
    return method in INPUT_REQUIRED_METHODS
