"""Era detection (spec 2026-07-28, backward compatibility): probe with ``server/discover``, fall back to ``initialize``.

A plain async function over an injected ``discover(version)`` closure, so every verdict is tested without a server.
The rules: a DiscoverResult listing a modern version we speak means modern; -32022 with a mutual modern version
means modern (re-probe once at it) and never falls back; -32022 listing only modern versions we do not speak is an
error; any other JSON-RPC error, an unrecognised HTTP error, or silence within the probe timeout means legacy, as
does a DiscoverResult listing no modern version. Network failures are never a verdict: they are raised.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from inspector.protocol.envelope import LATEST_MODERN, LEGACY_VERSIONS, MODERN_VERSIONS, mutual_version
from inspector.protocol.hinted import HintedError
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.oauth import is_auth_fault
from inspector.session.errors import RequestFailed, RpcError

UNSUPPORTED_PROTOCOL_VERSION = -32022
MODERN_ERROR_CODES = frozenset({-32020, -32021, -32022})

DiscoverFn = Callable[[str], Awaitable[JsonObject]]
NO_VERDICT_FAULTS = frozenset({"http-401", "http-403", "tls", "connect"})
"""Faults that say nothing about the era: the server wants credentials, refuses us, or cannot be reached (and so
does a login that failed: ``auth-*``)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The era, the version to speak (modern) and why, in words for the timeline."""

    era: Literal["modern", "legacy"]
    version: str | None
    why: str
    discover: JsonObject | None = None


class EraError(HintedError):
    """No version in common, or the probe could not reach the server at all."""


async def detect_era(discover: DiscoverFn, *, preferred: str = LATEST_MODERN) -> Verdict:
    """Probe once (twice after a -32022 naming a mutual version) and decide."""
    version = preferred
    for attempt in range(2):
        try:
            result = await discover(version)
        except RpcError as error:
            if error.code == UNSUPPORTED_PROTOCOL_VERSION:
                supported = error.data.get("supported") if isinstance(error.data, dict) else None
                mutual = mutual_version(supported)
                if mutual is not None and attempt == 0 and mutual != version:
                    version = mutual
                    continue
                if mutual is not None:
                    return Verdict("modern", mutual, f"server/discover answered -32022; {mutual} is mutual")
                if isinstance(supported, list) and supported and not any(v in LEGACY_VERSIONS for v in supported):
                    raise EraError(
                        f"the server speaks only {', '.join(map(str, supported))}; "
                        f"we speak {', '.join(MODERN_VERSIONS + LEGACY_VERSIONS)}",
                        "upgrade the inspector, or point it at a server that supports one of our versions",
                    ) from None
                return Verdict(
                    "legacy", None, f"server/discover answered -32022 listing only handshake versions {supported}"
                )
            if error.code in MODERN_ERROR_CODES:
                return Verdict(
                    "modern", version, f"server/discover answered {error.code} ({error.message}), a modern error"
                )
            return Verdict("legacy", None, f"server/discover answered {error.code} ({error.message or 'no message'})")
        except RequestFailed as failure:
            if failure.kind == "timeout":
                return Verdict("legacy", None, "server/discover got no reply within the probe timeout")
            if failure.fault_kind in NO_VERDICT_FAULTS or is_auth_fault(failure.fault_kind):
                # Credentials or permission, not the protocol era: initialize would be refused the same way.
                raise EraError(f"could not probe the server: {failure.message}", failure.hint) from None
            if failure.kind == "transport" and not failure.fatal:
                return Verdict("legacy", None, f"server/discover was refused at the HTTP level ({failure.message})")
            raise EraError(
                f"could not probe the server: {failure.message}", failure.hint or "check that the server starts"
            ) from None
        supported = result.get("supportedVersions")
        mutual = mutual_version(supported)
        if mutual is None:
            return Verdict("legacy", None, f"server/discover lists no modern version we speak ({supported})", result)
        return Verdict("modern", mutual, f"server/discover lists {', '.join(map(str, supported or []))}", result)
    raise AssertionError("unreachable")  # pragma: no cover
