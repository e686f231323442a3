"""The loopback callback of a login: 127.0.0.1 only, a port chosen before it listens, listening only while a login
waits (not before, not after, however the wait ends), a 404 for any other path, and the same port again for a
later login (a step-up)."""

from __future__ import annotations

import asyncio
import socket

import httpx
import pytest

from inspector.transport.oauth.callback import CallbackPortTaken, LoopbackCallback

pytestmark = [pytest.mark.external, pytest.mark.timeout(30)]  # (external: these tests open sockets)


def listening(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


async def test_it_listens_only_while_the_login_waits_and_only_on_loopback() -> None:
    callback = LoopbackCallback()
    callback.reserve()
    port = callback.port
    assert port and not listening(port), "reserved is not listening"
    assert callback.redirect_uri == f"http://127.0.0.1:{port}/callback"
    waiting = asyncio.create_task(callback.wait(10))
    callback.listen()  # (wait listens too; listening twice is harmless)
    assert listening(port)
    async with httpx.AsyncClient() as browser:
        other = await browser.get(f"http://127.0.0.1:{port}/elsewhere?code=x")
        assert other.status_code == 404 and not waiting.done()
        page = await browser.get(f"{callback.redirect_uri}?code=C0DE&state=S&iss=https%3A%2F%2Fa")
    assert page.status_code == 200 and "You can close this tab" in page.text
    landing = await waiting
    assert (landing.code, landing.state, landing.iss, landing.how) == ("C0DE", "S", "https://a", "browser")
    assert not listening(port), "closed once the redirect came"


async def test_a_timeout_or_a_cancel_closes_it_and_a_later_login_gets_the_same_port() -> None:
    callback = LoopbackCallback()
    with pytest.raises(TimeoutError):
        await callback.wait(0.01)  # nobody comes
    port = callback.port
    assert not listening(port)
    waiting = asyncio.create_task(callback.wait(10))
    await asyncio.sleep(0)
    assert listening(port) and callback.port == port
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert not listening(port) and not callback.listening


def test_a_taken_port_is_said() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as other:
        other.bind(("127.0.0.1", 0))
        other.listen(1)
        with pytest.raises(CallbackPortTaken, match="in use"):
            LoopbackCallback(other.getsockname()[1]).reserve()
