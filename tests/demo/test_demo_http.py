"""The demo server over Streamable HTTP (`python -m inspector.demo --http --port N`), in both eras."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import TYPE_CHECKING

import pytest
from demo_support import (
    ERAS,
    STARTUP_TIMEOUT,
    Answerer,
    demo_client,
    demo_http_server,
    text_of,
    wait_for_banner,
)
from http_interop_support import wait_for_port

pytestmark = pytest.mark.external  # (these tests open sockets and start processes: not in --fast-lane)

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    with demo_http_server() as url:
        yield url


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
        banner = wait_for_banner(process, deadline)
        url = banner.removeprefix("inspector demo server on ")
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
        port = int(url.removeprefix("http://127.0.0.1:").removesuffix("/mcp"))
        assert port > 0
        wait_for_port(port, deadline)
    finally:
        process.terminate()
        stdout, _ = process.communicate(timeout=5)
    assert stdout == ""  # the banner goes to stderr only
