"""Looking at an elicitation URL without fetching it: its parts, its real domain, what to warn about, and how it is
shown (``url_text``: literally, its real domain highlighted; the consent modal and the login screen both show it so).

The spec says the client MUST show the full URL, MUST NOT prefetch it, SHOULD highlight the domain and warn about
punycode. Here the URL is only parsed: the host is the part after any ``user@`` (the classic disguise), a
punycode (``xn--``) label is decoded so the look-alike shows, and the domain is compared with the server's.
Opening happens only in ``open_in_browser``, and only in a graphical browser: a console browser (lynx, w3m) would
take over the terminal the inspector runs in.
"""

from __future__ import annotations

import ipaddress
import os
import sys
import webbrowser
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from rich.text import Text

from inspector.ui.safe_text import clean

if TYPE_CHECKING:
    from rich.style import Style

WEB_SCHEMES: Final = ("http", "https")
LOCAL_HOSTS: Final = ("localhost", "127.0.0.1", "::1")
CONSOLE_BROWSERS: Final = frozenset({"www-browser", "lynx", "w3m", "links", "elinks", "links2", "browsh"})
_SECOND_LEVEL: Final = frozenset({"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "go"})
_GENERIC_WORDS: Final = frozenset({"mcp", "server", "demo", "stdio", "http", "local", "test", "the", "app"})


@dataclass(frozen=True, slots=True)
class UrlView:
    """A URL split for display: ``prefix`` (scheme, ``//`` and any user info), ``host``, ``rest``."""

    url: str
    prefix: str
    host: str
    rest: str
    scheme: str
    warnings: tuple[str, ...] = field(default=())

    @property
    def openable(self) -> bool:
        """Only web pages are opened; anything else (``file:``, ``javascript:``) is copied instead."""
        return self.scheme in WEB_SCHEMES and bool(self.host)


def url_text(view: UrlView, host: str | Style, around: str | Style) -> Text:
    """The full URL, literally (a newline in it shown as ⏎, like any hidden character), its real domain in ``host``
    and the rest (scheme, user info, path) in ``around``."""
    text = Text(no_wrap=False, overflow="fold")
    for part, style in ((view.prefix, around), (view.host, host), (view.rest, around)):
        text.append(clean(part, keep_newlines=False), style)
    return text


def registrable_domain(host: str) -> str:
    """The part of a host name that an organisation registers (``docs.github.com`` -> ``github.com``).

    A small approximation of the public suffix list: two labels, or three under a two-letter country code with a
    generic second level (``example.co.uk``). IP addresses and single labels are returned whole.
    """
    host = host.lower().rstrip(".")
    if _is_ip(host) or "." not in host:
        return host
    labels = host.split(".")
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in _SECOND_LEVEL:
        return ".".join(labels[-3:])
    return ".".join(labels[-2:])


def analyse(url: str, server_host: str | None = None) -> UrlView:
    """Split ``url`` for display and list the reasons to look twice before opening it."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        return UrlView(url, "", "", url, "", ("This is not a valid URL; it will not be opened.",))
    scheme = parts.scheme.lower()
    netloc = parts.netloc
    at = netloc.rfind("@")
    host_in_netloc = netloc[at + 1 :] if at >= 0 else netloc
    start = url.find(host_in_netloc) if host_in_netloc else -1
    if start < 0:
        prefix, shown_host, rest = "", "", url
    else:
        prefix, shown_host, rest = (
            url[:start],
            url[start : start + len(host_in_netloc)],
            url[start + len(host_in_netloc) :],
        )
    warnings = _warnings(scheme, host, at >= 0, server_host)
    return UrlView(url, prefix, shown_host, rest, scheme, tuple(warnings))


def _warnings(scheme: str, host: str, has_userinfo: bool, server_host: str | None) -> list[str]:
    warnings: list[str] = []
    if scheme not in WEB_SCHEMES:
        warnings.append(f"This is a {scheme or 'scheme-less'} address, not a web page: it will be copied, not opened.")
        return warnings
    if not host:
        return [*warnings, "The URL has no domain; it will not be opened."]
    if has_userinfo:
        warnings.append(f"The URL has a user name before '@': the site it opens is {host}, not what comes before '@'.")
    if any(label.startswith("xn--") for label in host.split(".")):
        warnings.append(
            f"The domain uses punycode (xn--); it reads as {_decoded(host)!r} and may imitate another site."
        )
    elif not host.isascii():
        warnings.append(f"The domain has non-ASCII characters ({_encoded(host)}); it may imitate another site.")
    if scheme == "http" and host not in LOCAL_HOSTS:
        warnings.append("The link is not encrypted (http, not https).")
    if _is_ip(host) and host not in LOCAL_HOSTS:
        warnings.append("The URL points at a bare IP address, not a domain name.")
    unlike = _unlike_server(host, server_host)
    if unlike:
        warnings.append(unlike)
    return warnings


def _unlike_server(host: str, server_host: str | None) -> str | None:
    if not server_host:
        return None
    server = server_host.lower()
    target = registrable_domain(host)
    if "." in server or _is_ip(server) or server in LOCAL_HOSTS:
        if server in LOCAL_HOSTS or _is_ip(server):
            return (
                None
                if host in LOCAL_HOSTS or host == server
                else f"The domain {target} is not the server's ({server})."
            )
        if registrable_domain(server) != target:
            return f"The domain {target} is not the server's ({registrable_domain(server)})."
        return None
    words = {w for w in "".join(c if c.isalnum() else " " for c in server).split() if len(w) >= 3}
    words -= _GENERIC_WORDS
    if words and not any(word in target for word in words):
        return f"The domain {target} looks unrelated to the server {server_host!r}."
    return None


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def _decoded(host: str) -> str:
    try:
        return host.encode("ascii").decode("idna")
    except UnicodeError:
        return host


def _encoded(host: str) -> str:
    try:
        return host.encode("idna").decode("ascii")
    except UnicodeError:
        return host.encode("ascii", "backslashreplace").decode("ascii")


def open_in_browser(url: str) -> bool:
    """Open ``url`` in a graphical browser; False (so the caller copies it) when there is none.

    No browser is tried without a display on Linux, and a console browser is never used: it would take over the
    terminal that the inspector is drawing in.
    """
    linux_like = sys.platform.startswith(("linux", "freebsd", "openbsd"))
    if linux_like and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return False
    name = Path(str(getattr(browser, "name", "") or "")).name
    if name in CONSOLE_BROWSERS:
        return False
    try:
        return bool(browser.open(url, new=2))
    except (OSError, webbrowser.Error):
        return False
