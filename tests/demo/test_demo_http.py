"""The demo server over Streamable HTTP (`python -m inspector.demo --http --port N`), in both eras."""

from __future__ import annotations

import selectors
import socket
import subprocess
import sys
import time
from typing import TYPE_CHECKING

import pytest
from demo_support import ERAS, Answerer, demo_client, free_port, text_of

if TYPE_CHECKING:
    from collections.abc import Iterator

STARTUP_TIMEOUT = 15.0


def _wait_for_banner(process: subprocess.Popen[str], deadline: float) -> str:
    """Read stderr until the server prints its URL, bounded by `deadline` (select, never sleep)."""
    assert process.stderr is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stderr, selectors.EVENT_READ)
        while (remaining := deadline - time.monotonic()) > 0:
            if not selector.select(timeout=remaining):
                break
            line = process.stderr.readline()
            if not line:
                break
            if "inspector demo server on " in line:
                return line.strip()
    raise AssertionError(f"demo server did not announce itself (exit code {process.poll()})")


def _wait_for_port(port: int, deadline: float) -> None:
    """Bounded loop until 127.0.0.1:port accepts a TCP connection."""
    last_error: OSError | None = None
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1.0):
                return
        except OSError as error:
            last_error = error
    raise AssertionError(f"port {port} never accepted a connection: {last_error}")


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "inspector.demo", "--http", "--port", str(port)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        banner = _wait_for_banner(process, deadline)
        url = f"http://127.0.0.1:{port}/mcp"
        assert banner == f"inspector demo server on {url}"
        _wait_for_port(port, deadline)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
        if process.stderr is not None:
            process.stderr.close()


@pytest.mark.parametrize("era", ERAS)
async def test_http_get_weather_and_update_work_item(http_url: str, era: str) -> None:
    answerer = Answerer()
    async with demo_client(era, answerer, server=http_url) as client:
        weather = await client.call_tool("get_weather", {"location": "Berlin"})
        assert "Current weather in Berlin" in text_of(weather)
        work_item = await client.call_tool("update_work_item", {"workItemId": 12, "fields": {}})
        assert "Duplicate of Bug #4301" in text_of(work_item)
    if era == "modern":
        assert answerer.keys == ["github_login", "resolution", "duplicate_of"]


def test_http_refuses_non_loopback_host() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "inspector.demo", "--http", "--port", "0", "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=15,
        check=False,
    )
    assert completed.returncode == 2
    assert "only listens on 127.0.0.1" in completed.stderr
    assert completed.stdout == ""


def test_http_port_zero_picks_a_free_port_and_prints_it() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "inspector.demo", "--http", "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        banner = _wait_for_banner(process, deadline)
        url = banner.removeprefix("inspector demo server on ")
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
        port = int(url.removeprefix("http://127.0.0.1:").removesuffix("/mcp"))
        assert port > 0
        _wait_for_port(port, deadline)
    finally:
        process.terminate()
        stdout, _ = process.communicate(timeout=5)
    assert stdout == ""  # the banner goes to stderr only
