"""Helpers for transport tests: an event recorder with bounded waits, a fake clock, fixture-server loading, and the
folder's fixtures (``conftest.py`` names them for pytest)."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from types import ModuleType

    from transport_http_server import FixtureHttpServer

    from inspector.transport.base import TransportEvent

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
STDIO_SERVER = str(FIXTURES / "transport_stdio_server.py")
SDK_SERVER = str(FIXTURES / "transport_sdk_server.py")

E = TypeVar("E")


def load_fixture(name: str) -> ModuleType:
    """Import ``tests/fixtures/<name>.py`` by path (the tests tree is not a package)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, FIXTURES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Recorder:
    """An event sink that keeps every event and lets a test wait, bounded, for one that matches."""

    def __init__(self) -> None:
        self.events: list[TransportEvent] = []
        self._changed = asyncio.Event()

    def __call__(self, event: TransportEvent) -> None:
        self.events.append(event)
        self._changed.set()

    def of(self, kind: type[E]) -> list[E]:
        return [event for event in self.events if isinstance(event, kind)]

    async def wait_for(self, kind: type[E], predicate: Callable[[E], bool] = lambda _: True, within: float = 5.0) -> E:
        async with asyncio.timeout(within):
            index = 0
            while True:
                for event in self.events[index:]:
                    if isinstance(event, kind) and predicate(event):
                        return event
                index = len(self.events)
                self._changed.clear()
                await self._changed.wait()


class FakeClock:
    """A monotonic clock that ticks one second per reading, so ``at`` values are exact and ordered."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def base_url(server: FixtureHttpServer) -> str:
    """``http://127.0.0.1:<port>`` of a fixture HTTP server."""
    host, port = server.server_address[:2]
    assert isinstance(host, str)
    return f"http://{host}:{port}"


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def http_server() -> Iterator[FixtureHttpServer]:
    """A fresh scriptable HTTP server (``tests/fixtures/transport_http_server.py``) per test."""
    module = load_fixture("transport_http_server")
    server: FixtureHttpServer
    server, thread = module.start()
    try:
        yield server
    finally:
        module.stop(server, thread)
