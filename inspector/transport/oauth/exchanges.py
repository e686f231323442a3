"""How a login's own HTTP exchanges go out (discovery, registration, the token endpoint, the IdP, following an
authorization URL): through the transport's one client, so they share its proxies and TLS and travel beside the
MCP traffic, each bounded by the login's exchange timeout, and each told to the timeline."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

from inspector.protocol.oauth import is_challenge

if TYPE_CHECKING:
    from inspector.protocol.oauth import Step
    from inspector.transport.oauth.narrator import Narrator


@dataclass(frozen=True, slots=True)
class LoginExchanges:
    """The client a login's exchanges go through and how long each may take (``AuthConfig.exchange_timeout``)."""

    client: Callable[[], httpx.AsyncClient]
    """The transport's client as it is now (read at each exchange: the transport owns it)."""
    timeout: float

    def request(self, method: str, url: str, **parts: Any) -> httpx.Request:
        """A request of the login on the transport's client, bounded by ``timeout`` (``parts``: headers, content,
        data, as ``httpx.AsyncClient.build_request`` takes them)."""
        return self.client().build_request(method, url, timeout=httpx.Timeout(self.timeout), **parts)

    async def send(
        self,
        step: Step,
        request: httpx.Request,
        narrator: Narrator,
        carried: Callable[[httpx.Response], str] | None = None,
    ) -> httpx.Response:
        """Send ``request`` (read whole) and tell ``narrator`` of it; no answer at all raises ``ExchangeFailed``
        (``carried``: a secret the answer brings where no field name says so, like the code in a redirect)."""
        started = narrator.clock()  # (the clock the exchange's time is read on: the transport's)
        try:
            response = await self.client().send(request)
        except httpx.HTTPError as exc:
            # Imported here: failures imports the SDK, which a transport that is never challenged never loads.
            from inspector.transport.oauth.failures import ExchangeFailed

            narrator.exchange(step, request, None, b"", started, error=str(exc) or type(exc).__name__)
            raise ExchangeFailed(step, str(request.url.copy_with(query=None)), str(exc)) from None
        secrets = (carried(response),) if carried is not None else ()
        narrator.exchange(step, request, response, response.content, started, carried=secrets)
        return response


def challenged(response: httpx.Response) -> bool:
    """Does this MCP answer ask for a login (or more scope)?"""
    return is_challenge(response.status_code, response.headers.get("www-authenticate"))
