"""``--timeout`` bounds the whole handshake: against a server that reads and never answers, the era probe waits at
most half of it and ``initialize`` the rest, instead of a fixed 10 s probe and a fixed 30 s ``initialize``."""

from __future__ import annotations

import sys

import pytest

from inspector.answers.build import build_answer_source
from inspector.session.session import ConnectError, InspectorSession
from inspector.transport.stdio import StdioTransport

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

SILENT = [sys.executable, "-c", "import sys\nfor line in sys.stdin:\n    pass"]
"""A server that reads every request and never answers any."""


async def test_a_silent_server_fails_the_handshake_within_the_timeout() -> None:
    session = InspectorSession(StdioTransport(SILENT), build_answer_source(), timeout=3.0)
    try:
        with pytest.raises(ConnectError) as failed:
            await session.connect()
    finally:
        await session.close()
    discover, initialize = session.timeline.calls
    assert discover.method == "server/discover" and initialize.method == "initialize"
    assert "within 1.5 s" in discover.status_detail, "the probe waited half of the timeout"
    waited = float(initialize.status_detail.split("within ", 1)[1].split(" s", 1)[0])
    assert 0 < waited <= 1.5, "initialize waited what was left of it"
    assert "initialize failed" in failed.value.message


def test_the_probe_never_waits_longer_than_ten_seconds() -> None:
    from inspector.session.handshake import HandshakeOptions

    assert HandshakeOptions(timeout=60).probe_limit() == 10.0
    assert HandshakeOptions(timeout=5).probe_limit() == 2.5
