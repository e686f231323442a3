"""Era verdicts from the probe, with no server: every rule of the spec's backward-compatibility section."""

from __future__ import annotations

import pytest

from inspector.protocol.jsonrpc import JsonObject
from inspector.session.era import DiscoverFn, EraError, detect_era
from inspector.session.errors import RequestFailed, RpcError


def probe(*replies: JsonObject | Exception) -> tuple[list[str], DiscoverFn]:
    asked: list[str] = []
    queue = list(replies)

    async def discover(version: str) -> JsonObject:
        asked.append(version)
        reply = queue.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply

    return asked, discover


async def test_discover_result_with_modern_version_is_modern() -> None:
    asked, discover = probe({"supportedVersions": ["2025-11-25", "2026-07-28"], "capabilities": {}})
    verdict = await detect_era(discover)
    assert (verdict.era, verdict.version) == ("modern", "2026-07-28")
    assert asked == ["2026-07-28"]


async def test_discover_listing_only_handshake_versions_is_legacy() -> None:
    _, discover = probe({"supportedVersions": ["2025-11-25"]})
    assert (await detect_era(discover)).era == "legacy"


async def test_unsupported_version_with_mutual_modern_never_falls_back() -> None:
    asked, discover = probe(
        RpcError(-32022, "Unsupported", {"supported": ["2026-07-28"], "requested": "2099-01-01"}),
        {"supportedVersions": ["2026-07-28"]},
    )
    verdict = await detect_era(discover, preferred="2099-01-01")
    assert verdict.era == "modern"
    assert asked == ["2099-01-01", "2026-07-28"]


async def test_unsupported_version_naming_only_unknown_modern_versions_is_an_error() -> None:
    _, discover = probe(RpcError(-32022, "Unsupported", {"supported": ["2030-01-01"]}))
    with pytest.raises(EraError):
        await detect_era(discover)


@pytest.mark.parametrize("code", [-32601, -32602, -32600, -32603, -1])
async def test_any_other_error_means_legacy(code: int) -> None:
    _, discover = probe(RpcError(code, "nope"))
    assert (await detect_era(discover)).era == "legacy"


async def test_silence_means_legacy() -> None:
    _, discover = probe(RequestFailed("timeout", "no reply"))
    verdict = await detect_era(discover)
    assert verdict.era == "legacy"
    assert "timeout" in verdict.why


async def test_an_unrecognised_http_refusal_means_legacy_but_a_network_failure_is_no_verdict() -> None:
    _, discover = probe(RequestFailed("transport", "HTTP 400 with an empty body"))
    assert (await detect_era(discover)).era == "legacy"
    _, discover = probe(RequestFailed("transport", "connection refused", fatal=True))
    with pytest.raises(EraError):
        await detect_era(discover)


@pytest.mark.parametrize("fault", ["http-401", "http-403"])
async def test_an_auth_refusal_is_no_era_verdict(fault: str) -> None:
    """A 401/403 on the probe would refuse initialize too: say so instead of 'initialize failed'."""
    _, discover = probe(RequestFailed("transport", "HTTP 401 Unauthorized", "pass --bearer TOKEN", fault_kind=fault))
    with pytest.raises(EraError) as caught:
        await detect_era(discover)
    assert caught.value.hint == "pass --bearer TOKEN"
