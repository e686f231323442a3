"""The URL modal's reading of a URL (no fetching): the real domain, and what it warns about."""

from __future__ import annotations

import sys
import webbrowser

import pytest

from inspector.ui.modals.url_check import analyse, open_in_browser, registrable_domain


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
