"""The URL consent modal (elicitation in URL mode): its reading of a URL (no fetching: the real domain, what it warns
about, whether a browser may open it), pilot tests of what it returns, and SVG snapshots (each docstring says what
a person should see)."""

from __future__ import annotations

import sys
import webbrowser
from collections.abc import Callable
from typing import Any

import pytest
from modal_support import SIZE, SnapCompare, settle, wait_until
from textual.pilot import Pilot
from textual.widgets import Button, Static, TextArea

from inspector.ui.devtools.preview import SAMPLES, AnswersHost, ModalHost
from inspector.ui.modals.answer_dialog import AskedFor
from inspector.ui.modals.url_check import analyse, open_in_browser, registrable_domain
from inspector.ui.modals.url_consent import UrlConsentModal


# ---------------------------------------------------------------------------------------------------- the URL read
@pytest.mark.parametrize(
    ("host", "domain"),
    [
        ("docs.github.com", "github.com"),
        ("www.example.co.uk", "example.co.uk"),
        ("localhost", "localhost"),
        ("10.0.0.1", "10.0.0.1"),
    ],
)
def test_registrable_domain(host: str, domain: str) -> None:
    assert registrable_domain(host) == domain


def test_plain_https_on_the_servers_domain_has_no_warning() -> None:
    view = analyse("https://auth.github.com/device", "api.github.com")
    assert (view.prefix, view.host, view.rest) == ("https://", "auth.github.com", "/device")
    assert view.warnings == () and view.openable


def test_userinfo_disguise_punycode_and_foreign_domain() -> None:
    view = analyse("https://paypal.com@xn--pypal-4ve.com/login", "paypal.com")
    assert view.host == "xn--pypal-4ve.com"
    assert view.prefix == "https://paypal.com@"
    text = " ".join(view.warnings)
    assert "user name before '@'" in text
    assert "punycode" in text and "pаypal.com" in text  # decoded, with its Cyrillic "а"
    assert "not the server's (paypal.com)" in text


def test_non_ascii_http_ip_and_server_names() -> None:
    assert any("non-ASCII" in w for w in analyse("https://gооgle.com/", None).warnings)
    assert any("not encrypted" in w for w in analyse("http://example.com/", None).warnings)
    assert analyse("http://localhost:8080/cb", "localhost").warnings == ()
    assert any("bare IP" in w for w in analyse("https://203.0.113.9/x", None).warnings)
    assert any("unrelated to the server" in w for w in analyse("https://evil.example/x", "github-tools").warnings)
    assert analyse("https://github.com/login", "github-tools").warnings == ()
    assert analyse("https://anything.example/x", "demo-server").warnings == ()


def test_other_schemes_are_never_openable() -> None:
    for url in ("javascript:alert(1)", "file:///etc/passwd", "not a url"):
        view = analyse(url, None)
        assert not view.openable
        assert view.warnings


def test_no_display_means_no_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)

    def never(*_args: object, **_kwargs: object) -> object:
        raise AssertionError("no browser may be looked up without a display")

    monkeypatch.setattr(webbrowser, "get", never)
    assert open_in_browser("https://example.com") is False


def test_console_browsers_are_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    class Lynx:
        name = "/usr/bin/lynx"

        def open(self, url: str, new: int = 0) -> bool:
            raise AssertionError("a console browser would take over the terminal")

    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(webbrowser, "get", lambda: Lynx())
    assert open_in_browser("https://example.com") is False


# ---------------------------------------------------------------------------------------------------- pilot tests
def url_modal(url: str, opener: Callable[[str], bool], server_host: str | None = "github.com") -> ModalHost:
    params = {"mode": "url", "message": "Authorize [b]me[/b]", "url": url}
    asked = AskedFor("tools/call login", "auth")
    return ModalHost(lambda: UrlConsentModal(params, asked, server_host=server_host, opener=opener))


async def test_url_consent_opens_then_retry_accepts() -> None:
    opened: list[str] = []

    def opener(url: str) -> bool:
        opened.append(url)
        return True

    url = "https://github.com/login/oauth/authorize?client_id=abc"
    app = url_modal(url, opener)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, UrlConsentModal))
        modal = app.screen
        assert isinstance(modal, UrlConsentModal)
        assert modal.view.warnings == ()
        assert opened == []  # nothing is opened (or fetched) before consent
        await pilot.press("r")  # "Done, retry" means nothing before the URL was opened
        await pilot.pause()
        assert app.results == []
        await pilot.press("o")
        await wait_until(pilot, lambda: modal.opened is not None)
        assert opened == [url]
        assert "Opened in your browser" in str(modal.query_one("#url-status", Static).render())
        assert not modal.query_one("#done", Button).disabled
        await pilot.press("r")
        await wait_until(pilot, lambda: bool(app.results))
    assert app.results == [{"action": "accept"}]


async def test_url_without_browser_is_copied_and_said_so() -> None:
    url = "https://login.example.org/device?code=XYZ"
    app = url_modal(url, lambda _url: False)
    copied: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        app.copy_to_clipboard = copied.append  # type: ignore[method-assign,assignment]
        await wait_until(pilot, lambda: isinstance(app.screen, UrlConsentModal))
        modal = app.screen
        assert isinstance(modal, UrlConsentModal)
        assert any("not the server's" in warning for warning in modal.view.warnings)
        await pilot.click("#open")
        await wait_until(pilot, lambda: modal.opened is not None)
        assert copied == [url]
        assert "copied to your clipboard" in str(modal.query_one("#url-status", Static).render())
        await pilot.click("#done")
        await wait_until(pilot, lambda: bool(app.results))
    assert app.results == [{"action": "accept"}]


@pytest.mark.parametrize(
    ("key", "expected"), [("d", {"action": "decline"}), ("c", {"action": "cancel"}), ("escape", None)]
)
async def test_url_decline_cancel_escape(key: str, expected: dict[str, str] | None) -> None:
    app = url_modal("https://github.com/x", lambda _url: True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, UrlConsentModal))
        await pilot.press(key)
        await wait_until(pilot, lambda: bool(app.results))
    assert app.results == [expected]


async def test_url_highlights_the_real_domain_and_is_literal() -> None:
    url = "https://github.com@xn--gthub-n4a.com/[bold]x[/bold]\x1b[2J"
    app = url_modal(url, lambda _url: True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, UrlConsentModal))
        modal = app.screen
        assert isinstance(modal, UrlConsentModal)
        text = modal.highlighted()
        assert text.plain == "https://github.com@xn--gthub-n4a.com/[bold]x[/bold]␛[2J"
        bold = [text.plain[span.start : span.end] for span in text.spans if "bold" in str(span.style)]
        assert bold == ["xn--gthub-n4a.com"]
        joined = " ".join(modal.view.warnings)
        assert "user name before '@'" in joined and "punycode" in joined and "not the server's" in joined


async def test_url_consent_focuses_no_button() -> None:
    app = AnswersHost([("login", SAMPLES["url"])])
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, UrlConsentModal))
        assert app.screen.focused is None  # Enter consents to nothing; o, r, d, c work at once
        assert not app.screen.query(TextArea)


# ---------------------------------------------------------------------------------------------------- snapshots
def test_url_consent_with_punycode_warning(snap_compare: SnapCompare) -> None:
    """A dialog titled "The server asks you to open a web page". The message "Sign in to your account to continue";
    a box titled "URL (not fetched)" with the full URL https://accounts.xn--gogle-jye.com/signin?continue=%2Fmcp&
    session=7f3a where only the domain accounts.xn--gogle-jye.com is bold, underlined and in the warning colour (the
    rest dim); then two warnings: punycode ("reads as 'accounts.gоogle.com'") and "The domain xn--gogle-jye.com is
    not the server's (example.com)". Buttons: Open in browser, Done, retry (greyed out), Decline, Cancel; the
    footer lists esc, o, r, d, c."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot, UrlConsentModal)

    app = AnswersHost([("login", SAMPLES["url"])], server_host="example.com")
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)


def test_url_consent_after_open_without_browser(snap_compare: SnapCompare) -> None:
    """The URL dialog after pressing o on a machine with no browser: a green line says "No browser could be opened
    here: the URL was copied to your clipboard. Open it yourself, then choose Done, retry (r)."; "Open in browser"
    is greyed out and "Done, retry" is enabled and focused."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot, UrlConsentModal)
        await pilot.press("o")
        await wait_until(pilot, lambda: not pilot.app.screen.query_one("#done").disabled)
        await pilot.pause()

    app = AnswersHost([("login", SAMPLES["url"])], server_host="accounts.xn--gogle-jye.com")
    assert snap_compare(app, terminal_size=SIZE, run_before=steps)
