"""The SDK's OAuth flow run by hand over our own ``httpx.AsyncClient``.

The SDK writes its flow as an ``httpx2.Auth`` (an async generator that yields requests and is sent responses), and
httpx2 is not the client our transport uses. So the generator is driven here: each request it yields is rebuilt as
an ``httpx.Request`` and sent through the transport's one client (the flow's exchanges travel beside the MCP
traffic, with the same timeouts, proxies and TLS, and are told to the timeline), and each answer is handed back as
an ``httpx2.Response``. When it yields the MCP request itself, that request is sent (or the challenged answer
already in hand is given back, rather than sending it twice) and, unless it is challenged, its body is left
unread, so an SSE stream reaches the transport untouched.

DPoP (``dpop.DpopBinding``) rides on both kinds: a token request gets a proof (and is sent again, once, when the
authorization server asks for a nonce), a token answer of type DPoP is handed to the SDK as Bearer, and the MCP
request goes with a bound token as ``Authorization: DPoP`` and a proof.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urljoin

import httpx
import httpx2

from inspector.transport.base import BODY_CAP
from inspector.transport.oauth.exchanges import challenged
from inspector.transport.oauth.failures import ExchangeFailed
from inspector.transport.oauth.narrator import Verdict, step_of

if TYPE_CHECKING:
    from collections.abc import Callable

    from inspector.protocol.oauth import Step
    from inspector.transport.oauth.dpop import DpopBinding
    from inspector.transport.oauth.exchanges import LoginExchanges
    from inspector.transport.oauth.gate import LoginUrlGate
    from inspector.transport.oauth.narrator import Narrator
    from inspector.transport.oauth.storage import StagedStorage

NONCE_ASKED = (
    "the authorization server asks for a DPoP nonce (use_dpop_nonce): the request is sent again, once, with a proof "
    "carrying it"
)


class FlowRun:
    """One run of the flow for one MCP request."""

    def __init__(
        self,
        auth: httpx2.Auth,
        exchanges: LoginExchanges,
        narrator: Narrator,
        storage: StagedStorage | None,
        *,
        gate: LoginUrlGate,
        refuse_registration: Callable[[], Exception] | None,
        resource_metadata: str | None,
        dpop: DpopBinding,
    ) -> None:
        self._auth = auth
        self._gate = gate
        self._dpop = dpop
        self._exchanges = exchanges
        self._client = exchanges.client()
        self._narrator = narrator
        self._storage = storage
        self._refuse_registration = refuse_registration
        self._resource_metadata = resource_metadata
        self._metadata_urls: list[str] = []
        """Where this flow read authorization server metadata (the gate trusts that origin for the token)."""
        self.latest: httpx.Response | None = None
        """The last answer to the MCP request (the challenge until a retry answered)."""

    async def run(self, request: httpx.Request, first: httpx.Response | None) -> httpx.Response | None:
        """Run the flow for ``request`` (``first``: its challenged answer, already read); returns the last answer to
        it, None when it was never sent. Raises what the flow raised (``ExchangeFailed`` for an exchange that got no
        answer; an ``httpx.HTTPError`` is the MCP request's own)."""
        sent_authorization = request.headers.get("authorization")
        mirror = httpx2.Request(
            request.method,
            str(request.url),
            headers=[(k, v) for k, v in request.headers.multi_items() if k.lower() != "authorization"],
            content=request.content,
        )
        self.latest = first
        pending = first
        self._narrator.begin(getattr(self._auth, "context", None))
        flow = self._auth.async_auth_flow(mirror)
        try:
            outgoing = await flow.__anext__()
            while True:
                if outgoing is mirror:
                    answer = await self._send_mcp(request, mirror, pending, sent_authorization)
                    pending = None
                else:
                    answer = await self._exchange(outgoing)
                try:
                    outgoing = await flow.asend(answer)
                except StopAsyncIteration:
                    break
                self._tell(outgoing)
        finally:
            await flow.aclose()
        return self.latest

    def _tell(self, outgoing: httpx2.Request) -> None:
        """What the SDK decided before asking for the next request, read off its context."""
        context = getattr(self._auth, "context", None)
        if context is None:
            return
        self._narrator.follow_context(context)
        self._narrator.tokens(context, self._dpop.bound)

    async def _send_mcp(
        self, request: httpx.Request, mirror: httpx2.Request, pending: httpx.Response | None, sent: str | None
    ) -> httpx2.Response:
        token = _credential(mirror.headers.get("authorization"))
        if pending is not None and token == _credential(sent):
            response = pending  # the flow would send what was already sent: hand it the answer in hand
        else:
            if self.latest is not None:
                await self.latest.aclose()
            self._dpop.present(request, token)  # (Bearer, or DPoP with a fresh proof when the token is bound)
            if self._narrator.exchanged:
                self._dpop.tell_presented(request, self._narrator)
            response = await self._dpop.send(self._client, request, self._narrator)
            if challenged(response):
                await response.aread()
            if self._narrator.exchanged:
                self._narrator.retry(response)
        self.latest = response
        body = response.content if challenged(response) else b""
        return httpx2.Response(
            response.status_code, headers=list(response.headers.multi_items()), content=body, request=mirror
        )

    async def _exchange(self, outgoing: httpx2.Request) -> httpx2.Response:
        """One request of the flow, through our client (redirects never followed by httpx: the SDK decides)."""
        content = outgoing.read()
        step = step_of(
            outgoing.method, httpx.URL(str(outgoing.url)), outgoing.headers.get("content-type"), content,
            self._resource_metadata,
        )  # fmt: skip
        if step == "registration" and self._refuse_registration is not None:
            raise self._refuse_registration()  # registering would only be the start of a login we may not run
        if step in ("token", "refresh"):
            # what it carries (a code and its verifier, a refresh token, a client secret) goes nowhere unvouched for
            context = getattr(self._auth, "context", None)  # (None for a grant that keeps its own, inside)
            await self._gate.before_token(context, str(outgoing.url), self._narrator, self._metadata_urls)
        plain = self._exchanges.request(
            outgoing.method, str(outgoing.url), headers=list(outgoing.headers.multi_items()), content=content
        )
        proved = step in ("token", "refresh") and self._dpop.before_token(
            step, plain, self._narrator.challenge, self._narrator
        )
        started = self._narrator.clock()  # (the clock the exchange's time is read on: the transport's)
        response, body, cut = await self._send(step, plain, started)
        if proved and self._dpop.server_asked_nonce(plain, response, body):
            asked = Verdict("info", f"HTTP {response.status_code}: {NONCE_ASKED}")
            self._narrator.exchange(step, plain, response, body, started, cut=cut, verdict=asked)
            started = self._narrator.clock()
            response, body, cut = await self._send(step, plain, started)
        self._narrator.exchange(step, plain, response, body, started, cut=cut)
        self._dpop.observe(step, response.status_code, body)
        if step == "authorization-server-metadata" and _is_json_object(response.status_code, body):
            self._metadata_urls.append(str(plain.url))
        if step == "refresh" and self._storage is not None and not _has_access_token(response.status_code, body):
            self._storage.drop_tokens()  # refused: worth nothing now, and a later process must not try it again
        headers = list(response.headers.multi_items())
        if proved:
            handed = self._dpop.token_answer(response.status_code, body, self._narrator)
            if handed is not body:  # (the SDK gets a token of type Bearer: a body of another length)
                body, headers = handed, [(k, v) for k, v in headers if k.lower() != "content-length"]
        answer = httpx2.Response(response.status_code, headers=headers, content=body, request=outgoing)
        answer.next_request = _redirect(outgoing, response)
        return answer

    async def _send(self, step: Step, plain: httpx.Request, started: float) -> tuple[httpx.Response, bytes, bool]:
        """Send one request of the flow and read its answer (capped); no answer raises ``ExchangeFailed``."""
        try:
            response = await self._client.send(plain, stream=True)
            try:
                body, cut = await _read_capped(response)
            finally:
                await response.aclose()
        except httpx.HTTPError as exc:
            detail = str(exc) or type(exc).__name__
            self._narrator.exchange(step, plain, None, b"", started, error=detail)
            raise ExchangeFailed(step, str(plain.url.copy_with(query=None)), detail) from None
        return response, body, cut


async def _read_capped(response: httpx.Response) -> tuple[bytes, bool]:
    """The body, at most ``BODY_CAP`` bytes of it, and whether there was more (a server may stream forever)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size > BODY_CAP:
            break
    return b"".join(chunks)[:BODY_CAP], size > BODY_CAP


def _redirect(sent: httpx2.Request, response: httpx.Response) -> httpx2.Request | None:
    """The request a redirect would lead to, for the SDK to follow or not (it follows only within the origin and
    with the method kept: ``mcp.shared._httpx_utils.next_request_within_origin``)."""
    location = response.headers.get("location")
    if response.status_code not in (301, 302, 303, 307, 308) or not location:
        return None
    keeps_method = response.status_code in (307, 308) or sent.method in ("GET", "HEAD")
    method = sent.method if keeps_method else "GET"
    content = sent.read() if keeps_method else b""
    headers = [(k, v) for k, v in sent.headers.multi_items() if keeps_method or k.lower() not in ("content-length",)]
    return httpx2.Request(method, urljoin(str(sent.url), location), headers=headers, content=content)


def _credential(authorization: str | None) -> str | None:
    """The token an ``Authorization`` header presents, whatever its scheme (Bearer, DPoP)."""
    if authorization is None:
        return None
    return authorization.partition(" ")[2].strip() or None


def _has_access_token(status: int, body: bytes) -> bool:
    return _is_json_object(status, body, "access_token")


def _is_json_object(status: int, body: bytes, holding: str | None = None) -> bool:
    """A 200 whose body is a JSON object (``holding``: with that field set)."""
    if status != 200:
        return False
    import json

    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and (holding is None or bool(value.get(holding)))
