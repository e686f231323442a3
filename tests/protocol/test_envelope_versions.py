"""The version tuples the envelope keeps (to stay off mcp_types' import cost) are the official ones."""

from __future__ import annotations

from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from inspector.protocol.envelope import LEGACY_VERSIONS, MODERN_VERSIONS


def test_our_versions_are_mcp_types_versions() -> None:
    assert tuple(MODERN_PROTOCOL_VERSIONS) == MODERN_VERSIONS
    assert tuple(HANDSHAKE_PROTOCOL_VERSIONS) == LEGACY_VERSIONS
