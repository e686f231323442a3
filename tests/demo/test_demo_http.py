"""The demo server over Streamable HTTP (`python -m inspector.demo --http --port N`), in both eras."""

from __future__ import annotations

import ipaddress
import re
import selectors
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Final

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
from http_interop_support import stop, wait_for_port

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


ENTRY: Final = "from inspector.cli import main; main()"
ANNOUNCED: Final = re.compile(r"http://127\.0\.0\.1:(\d+)")


def listening(pid: int) -> list[tuple[str, int]]:
    """(address, port) of every TCP socket process ``pid`` listens on, IPv4 and IPv6: its socket inodes (the links
    in ``/proc/PID/fd``) looked up in the kernel's tables (``/proc/PID/net/tcp`` and ``tcp6``, state ``0A``)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = str(fd.readlink())
        except OSError:  # (closed since it was listed)
            continue
        if target.startswith("socket:["):
            inodes.add(target.removeprefix("socket:[").removesuffix("]"))
    found: list[tuple[str, int]] = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state != "0A" or inode not in inodes:
                continue
            address, port = local.split(":")
            raw = bytes.fromhex(address)  # (the kernel writes each 32-bit word in host order: little-endian here)
            packed = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))
            found.append((str(ipaddress.ip_address(packed)), int(port, 16)))
    return found


def announced_ports(process: subprocess.Popen[str], deadline: float) -> list[int]:
    """The ports of the URLs the server prints on stderr once it listens (bounded by ``deadline``, never a sleep)."""
    assert process.stderr is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stderr, selectors.EVENT_READ)
        while (remaining := deadline - time.monotonic()) > 0 and selector.select(timeout=remaining):
            line = process.stderr.readline()
            if not line:
                break
            if "inspector demo server" in line:
                return [int(port) for port in ANNOUNCED.findall(line)]
    raise AssertionError(f"the demo server did not announce itself (exit code {process.poll()})")


@pytest.mark.parametrize(
    ("command", "servers"),
    [
        (["-m", "inspector.demo", "--http", "--port", "0"], 1),
        (["-c", ENTRY, "demo-server", "--http"], 1),
        (["-c", ENTRY, "demo-server", "--http", "--auth"], 2),
    ],
    ids=["python -m inspector.demo --http", "inspector demo-server --http", "inspector demo-server --http --auth"],
)
def test_the_demo_listens_on_loopback_only(command: list[str], servers: int) -> None:
    """By default the demo's every listening socket is on 127.0.0.1 (read from the kernel's socket table, not from
    what it says), on the ports it announces and no other: it has no authentication of its own."""
    process = subprocess.Popen(
        [sys.executable, *command], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        ports = announced_ports(process, time.monotonic() + STARTUP_TIMEOUT)
        assert len(ports) == servers, ports
        sockets = listening(process.pid)
        assert sorted(sockets) == sorted(("127.0.0.1", port) for port in ports), sockets
    finally:
        stop(process)


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["-m", "inspector.demo", "--http", "--port", "0", "--host", "::"], "only listens on 127.0.0.1, not '::'"),
        (["-m", "inspector.demo", "--http", "--host", "localhost"], "only listens on 127.0.0.1, not 'localhost'"),
        (["-c", ENTRY, "demo-server", "--http", "--host", "0.0.0.0"], "No such option: --host"),
    ],
    ids=["python -m inspector.demo --host ::", "--host localhost", "inspector demo-server --host"],
)
def test_any_other_address_is_refused_before_anything_listens(command: list[str], said: str) -> None:
    completed = subprocess.run(
        [sys.executable, *command], capture_output=True, text=True, timeout=STARTUP_TIMEOUT, check=False
    )
    assert completed.returncode == 2, completed.stderr
    assert said in completed.stderr and completed.stdout == ""
