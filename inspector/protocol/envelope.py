"""The 2026-07-28 request envelope: every request carries version, client info and capabilities in ``_meta``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from inspector import __version__
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.skills import SKILLS_EXTENSION
from inspector.protocol.wire_text import Encoded, dumps

META_PROTOCOL_VERSION: Final = "io.modelcontextprotocol/protocolVersion"
META_CLIENT_INFO: Final = "io.modelcontextprotocol/clientInfo"
META_CLIENT_CAPABILITIES: Final = "io.modelcontextprotocol/clientCapabilities"
META_LOG_LEVEL: Final = "io.modelcontextprotocol/logLevel"
META_SERVER_INFO: Final = "io.modelcontextprotocol/serverInfo"
META_SUBSCRIPTION_ID: Final = "io.modelcontextprotocol/subscriptionId"
TASKS_EXTENSION: Final = "io.modelcontextprotocol/tasks"

# The same tuples as ``mcp_types.version`` (a test keeps them equal): importing even that module loads all of
# mcp_types (~160 ms), which the TUI's first paint and every headless command would otherwise wait for.
MODERN_VERSIONS: Final[tuple[str, ...]] = ("2026-07-28",)
"""Stateless-envelope revisions we speak, newest last."""
LEGACY_VERSIONS: Final[tuple[str, ...]] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
"""Revisions reached through ``initialize``, oldest first."""
LATEST_MODERN: Final = MODERN_VERSIONS[-1]
LATEST_LEGACY: Final = LEGACY_VERSIONS[-1]

CLIENT_INFO: Final[JsonObject] = {
    "name": "inspector",
    "title": "inspector (terminal MCP inspector)",
    "version": __version__,
}

CLIENT_EXTENSIONS: Final[JsonObject] = {TASKS_EXTENSION: {}, SKILLS_EXTENSION: {}}
"""The extensions the inspector declares (``capabilities.extensions``, both eras): Tasks (SEP-2663) and Skills
(SEP-2640). The one list: the legacy handshake derives its capabilities from it too (``session/legacy.py``)."""

DEFAULT_CAPABILITIES: Final[JsonObject] = {
    "elicitation": {"form": {}, "url": {}},
    "sampling": {},
    "roots": {},
    "extensions": dict(CLIENT_EXTENSIONS),
}
"""What we declare unless the user says otherwise: every kind of input request, and every extension we support (a
debugger declares what it supports), so any server flow can be seen."""


def client_capabilities(*, tasks: bool = True) -> JsonObject:
    """``DEFAULT_CAPABILITIES``, without the Tasks extension when ``tasks`` is False (``--no-tasks``: to see how a
    server behaves with a client that does not declare it; the other extensions stay declared)."""
    caps: JsonObject = {key: dict(value) for key, value in DEFAULT_CAPABILITIES.items()}
    if not tasks:
        caps["extensions"] = {key: value for key, value in CLIENT_EXTENSIONS.items() if key != TASKS_EXTENSION}
    return caps


def declares_tasks(capabilities: JsonObject) -> bool:
    """Do these client capabilities declare the Tasks extension?"""
    extensions = capabilities.get("extensions")
    return isinstance(extensions, dict) and TASKS_EXTENSION in extensions


def is_modern(version: str) -> bool:
    """True for a revision that uses the per-request envelope (no ``initialize``)."""
    return version in MODERN_VERSIONS


def build_meta(
    version: str,
    capabilities: JsonObject | None = None,
    *,
    client_info: JsonObject | None = None,
    extra: JsonObject | None = None,
) -> JsonObject:
    """The ``params._meta`` of a modern request; ``extra`` adds keys such as ``progressToken`` or a log level."""
    meta: JsonObject = {
        META_PROTOCOL_VERSION: version,
        META_CLIENT_INFO: dict(client_info or CLIENT_INFO),
        META_CLIENT_CAPABILITIES: dict(DEFAULT_CAPABILITIES if capabilities is None else capabilities),
    }
    if extra:
        meta.update(extra)
    return meta


def with_meta(params: JsonObject | None, meta: JsonObject) -> JsonObject:
    """Params with ``_meta`` merged in; keys the caller already put in ``_meta`` win over the envelope's."""
    merged: JsonObject = dict(params or {})
    existing = merged.get("_meta")
    merged["_meta"] = {**meta, **existing} if isinstance(existing, dict) else meta
    return merged


class Envelope:
    """The ``_meta`` of every modern request at one version and capability set, encoded once.

    The envelope is most of a small request's bytes, and it is the same on every request, so its text is kept and
    spliced into each request (``wire_text.request``) instead of being encoded again. Its objects are private
    copies, so the text can never drift from the value: messages share them, and nothing may change a message
    once it is built.
    """

    __slots__ = ("base", "version")

    def __init__(self, version: str, capabilities: JsonObject | None = None, log_level: str | None = None) -> None:
        self.version = version
        extra = {META_LOG_LEVEL: log_level} if log_level is not None else None
        text = dumps(build_meta(version, capabilities, extra=extra))
        self.base = Encoded(json.loads(text), text)

    def meta(self, extra: JsonObject | None = None) -> Encoded:
        """The ``_meta`` of one request: the envelope plus ``extra`` (a ``progressToken``) after it."""
        return self.base.extended(extra)


def mutual_version(supported: Any) -> str | None:
    """The newest modern version both sides speak, from a -32022 ``data.supported`` or ``supportedVersions`` list."""
    return _newest_shared(supported, MODERN_VERSIONS)


def mutual_legacy_version(supported: Any) -> str | None:
    """The newest handshake version both sides speak."""
    return _newest_shared(supported, LEGACY_VERSIONS)


def _newest_shared(supported: Any, ours: Sequence[str]) -> str | None:
    if not isinstance(supported, list):
        return None
    return next((version for version in reversed(ours) if version in supported), None)
