"""Fixtures for transport tests: the event recorder and a fresh scriptable HTTP server per test."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from transport_support import Recorder, load_fixture

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def http_server() -> Iterator[Any]:
    module = load_fixture("transport_http_server")
    server, thread = module.start()
    try:
        yield server
    finally:
        module.stop(server, thread)
