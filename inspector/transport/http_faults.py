"""What an HTTP failure means and what to try: plain functions from statuses, headers and exceptions to fault text.

Kept apart from the transport so the wording can be read and tested without a network.
"""

from __future__ import annotations

import html
import json
import re
import ssl
from dataclasses import dataclass
from http import HTTPStatus
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

import httpx

from inspector.protocol.oauth import auth_params
from inspector.protocol.redact import REDACTED

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Mapping

ALWAYS_SECRET: Final = frozenset({"authorization", "cookie", "proxy-authorization", "set-cookie", "dpop"})
"""Headers never recorded as they are (``dpop``: a DPoP proof, which with its token would be replayable for minutes;
the login's steps say what each proof was for)."""
EXCERPT_CHARS: Final = 300


@dataclass(frozen=True, slots=True)
class FaultText:
    """The parts of a ``TransportFault`` that describe it."""

    kind: str
    message: str
    hint: str
    fatal: bool = False


def redact(headers: Iterable[tuple[str, str]], secret: Collection[str]) -> dict[str, str]:
    """Headers as a plain dict (repeated names joined by ``, ``) with secret values replaced."""
    out: dict[str, str] = {}
    for name, value in headers:
        shown = REDACTED if name.lower() in ALWAYS_SECRET or name.lower() in secret else value
        out[name] = f"{out[name]}, {shown}" if name in out else shown
    return out


def media_type(content_type: str | None) -> str:
    """``application/json; charset=utf-8`` -> ``application/json``."""
    return (content_type or "").partition(";")[0].strip().lower()


def readable(body: str) -> str:
    """A body as one line of text: an HTML page loses its tags, whitespace is collapsed."""
    text = body
    if "<" in text and re.search(r"<\s*(html|body|head|title|h1|p|div|!doctype)", text, re.IGNORECASE):
        text = re.sub(r"(?is)<(script|style)\b.*?</\1\s*>", " ", text)
        text = html.unescape(re.sub(r"<[^>]*>", " ", text))
    return " ".join(text.split())


def excerpt(body: str, limit: int = EXCERPT_CHARS) -> str:
    """The first ``limit`` characters of a body, readable (``readable``)."""
    text = readable(body)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def sized_excerpt(body: str, size: int, limit: int, *, more: bool = False) -> str:
    """``excerpt``, and when the body had to be cut, how big it is and where the whole of it is: a 70 KB error
    page is said in a line, not printed whole (``size``: its bytes; ``more``: it was longer than the ``size``
    bytes read, which are what the recording keeps)."""
    text = readable(body)
    if len(text) <= limit and not more:
        return text
    whole = f"more than {size:,} bytes; the first {size:,}" if more else f"{size:,} bytes; the whole body"
    return f"{text[: limit - 1]}… ({whole} {'are' if more else 'is'} in the recording)"


def looks_like_jsonrpc(body: str) -> bool:
    """True for a JSON object (or array of objects) carrying ``"jsonrpc"``: a JSON-RPC answer at any HTTP status."""
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return False
    if isinstance(value, list):
        return bool(value) and all(isinstance(item, dict) and "jsonrpc" in item for item in value)
    return isinstance(value, dict) and "jsonrpc" in value


def protected_resource_metadata_urls(url: str, www_authenticate: str | None) -> list[str]:
    """Where the protected-resource metadata (RFC 9728) is: the header's ``resource_metadata``, else well-known URLs."""
    declared = auth_params(www_authenticate).get("resource_metadata")
    if declared:
        return [declared]
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    path = parts.path.rstrip("/")
    root = f"{origin}/.well-known/oauth-protected-resource"
    return [f"{root}{path}", root] if path else [root]


def status_fault(
    status: int,
    *,
    method: str,
    url: str,
    headers: Mapping[str, str],
    body_excerpt: str,
    sent_authorization: bool,
) -> FaultText:
    """The fault for a response at ``status`` whose body is not JSON-RPC."""
    reason = _reason_phrase(status)
    said = f": {body_excerpt}" if body_excerpt else " (empty body)"
    message = f"HTTP {status} {reason} from {method} {url}{said}"
    kind = f"http-{status}"
    challenge = headers.get("www-authenticate")
    if status == 401:
        urls = protected_resource_metadata_urls(url, challenge)
        found = (
            f"protected-resource metadata: {urls[0]}"
            if len(urls) == 1
            else "look for protected-resource metadata at " + ", then ".join(urls)
        )
        scope = auth_params(challenge).get("scope")
        wanted = f" with scope {scope!r}" if scope else ""
        first = (
            f"the token was refused (expired, revoked or for another server): get a new one{wanted}, "
            "pass --bearer TOKEN"
            if sent_authorization
            else f"the server wants a token{wanted}: pass --bearer TOKEN"
        )
        return FaultText(kind, message, f"{first}; {found}")
    if status == 403:
        params = auth_params(challenge)
        if params.get("error") == "insufficient_scope":
            scope = params.get("scope")
            need = f" ({scope!r})" if scope else ""
            hint = f"the token lacks the scope the server wants{need}: get a token with that scope, pass --bearer TOKEN"
        else:
            hint = (
                "the server refused the request: a local server may reject our Origin header (DNS-rebinding "
                "protection, check its allowed origins), or the token does not allow this"
            )
        return FaultText(kind, message, hint)
    hints = {
        400: "the server rejected the request before JSON-RPC: check the headers it carried "
        "(MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*)",
        404: "no MCP endpoint at this URL: check the path (often /mcp); a server of the old HTTP+SSE transport "
        "(2024-11-05) answers a GET with an `endpoint` event instead",
        405: f"the server does not take {method} at this URL: check the path of the MCP endpoint",
        406: "the server did not accept `Accept: application/json, text/event-stream`: "
        "it may not speak Streamable HTTP",
        408: "the server gave up waiting: send the request again",
        413: "the message is too large for the server",
        415: "the server did not accept `Content-Type: application/json`: it may not speak Streamable HTTP",
        429: "rate limited: wait and send again" + _retry_after(headers),
    }
    if status in hints:
        return FaultText(kind, message, hints[status])
    if 300 <= status < 400:
        location = headers.get("location")
        where = f"use {location} as the URL" if location else "the server sent no Location"
        return FaultText(
            kind,
            message,
            f"the server redirects ({where}); redirects are not followed, so "
            "credentials never travel to another URL unasked",
        )
    if status >= 500:
        return FaultText(kind, message, "the server failed: look at its logs; the request was not retried")
    return FaultText(kind, message, "an HTTP error below JSON-RPC: check the URL and the server's logs")


def exception_fault(exc: httpx.HTTPError, url: str, *, response_started: bool) -> FaultText:
    """The fault for an httpx exception: refused connections, TLS, timeouts, cut streams."""
    parts = urlsplit(url)
    host = parts.netloc or url
    detail = str(exc) or type(exc).__name__
    lost = "the request was not retried; send it again"
    if isinstance(exc, httpx.ConnectTimeout):
        return FaultText(
            "timeout", f"no connection to {host} within the timeout", "is the host reachable? check the URL"
        )
    if isinstance(exc, httpx.TimeoutException):
        what = "the rest of the response" if response_started else "a response"
        return FaultText(
            "timeout", f"no {what} from {host} within the read timeout", f"the server is slow or stuck; {lost}"
        )
    if isinstance(exc, httpx.ConnectError | httpx.UnsupportedProtocol) and _is_tls(exc):
        return FaultText(
            "tls",
            f"TLS with {host} failed: {detail}",
            "check http:// versus https://, and that the certificate is valid for this host name "
            "(or trusted through SSL_CERT_FILE)",
            fatal=True,
        )
    if isinstance(exc, httpx.ConnectError | httpx.UnsupportedProtocol):
        return FaultText(
            "connect", f"could not connect to {host}: {detail}", "is the server running? check the URL and port", True
        )
    if isinstance(exc, httpx.LocalProtocolError):
        return FaultText(
            "invalid-request",
            f"the request could not be written: {detail}",
            "a header holds characters HTTP does not allow (send values through the base64 sentinel)",
        )
    if response_started:
        return FaultText("stream-cut", f"the response from {host} was cut off: {detail}", lost)
    return FaultText("network", f"the connection to {host} broke before a response: {detail}", lost)


def _is_tls(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    for _ in range(8):
        if seen is None:
            return False
        if isinstance(seen, ssl.SSLError) or "SSL" in str(seen) or "CERTIFICATE" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _retry_after(headers: Mapping[str, str]) -> str:
    value = headers.get("retry-after")
    return f" (Retry-After: {value})" if value else ""


def _reason_phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""
