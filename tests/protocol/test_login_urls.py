"""The one judge of a login's addresses (``protocol.login_urls.LoginUrlJudge``): a user name before '@', another
origin than the resource's and the authorization server metadata's, plain http off this machine, and addresses
that are not web pages at all. Pure: no network."""

from __future__ import annotations

import pytest

from inspector.protocol.login_urls import LoginUrlJudge, Role, is_loopback, origin

SERVER = "https://mcp.example.com/mcp"
ISSUER = "https://auth.example.com/"


def kinds(url: str, role: Role = "authorization endpoint") -> list[str]:
    judge = LoginUrlJudge(SERVER, [ISSUER])
    return [risk.kind for risk in judge.judge(role, url)]


def test_the_authorization_servers_own_endpoints_are_no_warning() -> None:
    assert kinds("https://auth.example.com/authorize?state=x") == []
    assert kinds("https://AUTH.example.com:443/oauth/token", "token endpoint") == []  # one origin, two spellings
    assert kinds("https://mcp.example.com/authorize") == []  # the resource's origin (2025-03-26 fallbacks)


def test_a_user_name_before_the_at_sign_is_a_disguise() -> None:
    judge = LoginUrlJudge("http://127.0.0.1:8000/mcp", ["http://127.0.0.1:8001/"])
    [risk] = judge.judge("authorization endpoint", "http://accounts.google.com@127.0.0.1:8001/authorize?state=s")
    assert risk.kind == "userinfo" and risk.url == "http://accounts.google.com@127.0.0.1:8001/authorize"
    assert "user name before '@' ('accounts.google.com')" in risk.message
    assert "it goes to 127.0.0.1:8001, not to accounts.google.com" in risk.message
    [with_password] = judge.judge("authorization endpoint", "http://accounts.google.com:pw@127.0.0.1:8001/a")
    assert "not to accounts.google.com" in with_password.message


def test_another_origin_says_where_the_secrets_would_go() -> None:
    [risk] = LoginUrlJudge(SERVER, [ISSUER]).judge("token endpoint", "https://collector.example.net/token")
    assert risk.kind == "other-origin"
    assert "(https://collector.example.net) than the server and its authorization server's metadata" in risk.message
    assert "(https://mcp.example.com, https://auth.example.com)" in risk.message
    assert "the code, the PKCE verifier and any client secret would be sent there" in risk.message
    assert kinds("https://auth.example.com:8443/token", "token endpoint") == ["other-origin"]  # another port
    assert kinds("http://auth.example.com/token", "token endpoint") == ["other-origin", "plain-http"]
    local = LoginUrlJudge("http://127.0.0.1:8000/mcp", ["http://127.0.0.1:8001/"])
    assert [r.kind for r in local.judge("token endpoint", "http://127.0.0.1:8002/token")] == ["other-origin"]


def test_plain_http_is_a_warning_off_this_machine_only() -> None:
    local = LoginUrlJudge("http://127.0.0.1:8000/mcp", ["http://127.0.0.1:8001/", "http://localhost:8002/"])
    assert local.judge("authorization endpoint", "http://127.0.0.1:8001/authorize") == ()
    assert local.judge("authorization endpoint", "http://localhost:8002/authorize") == ()
    remote = LoginUrlJudge("http://127.0.0.1:8000/mcp", ["http://127.0.0.1:8001/"])
    risks = remote.judge("authorization endpoint", "http://example.test/authorize")
    assert [r.kind for r in risks] == ["other-origin", "plain-http"]
    assert "is plain http to example.test, which is not this machine" in risks[1].message
    same = LoginUrlJudge("http://mcp.example.com/mcp", ["http://mcp.example.com/"])
    assert [r.kind for r in same.judge("token endpoint", "http://mcp.example.com/token")] == ["plain-http"]


@pytest.mark.parametrize("url", ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,hi", "http:///x"])
def test_an_address_that_is_not_a_web_page_is_never_used(url: str) -> None:
    [risk] = LoginUrlJudge(SERVER, [ISSUER]).judge("authorization endpoint", url)
    assert risk.kind == "not-web" and "it is never opened or used" in risk.message


@pytest.mark.parametrize(
    ("host", "loopback"),
    [("127.0.0.1", True), ("127.8.9.1", True), ("[::1]", True), ("localhost", True), ("app.localhost", True),
     ("example.test", False), ("10.0.0.1", False), ("127.0.0.1.example.com", False)],
)  # fmt: skip
def test_loopback_is_this_machine_only(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_one_origin_however_it_is_spelled() -> None:
    assert (
        origin("HTTPS://Auth.Example.com/x")
        == origin("https://auth.example.com:443/y")
        == "https://auth.example.com:443"
    )
    assert origin("http://user@127.0.0.1:80/") == "http://127.0.0.1:80"
    assert origin("http://[::1]:9/") == "http://[::1]:9"


def test_accepting_a_risk_covers_its_place_not_its_query() -> None:
    judge = LoginUrlJudge(SERVER, [ISSUER])
    [first] = judge.judge("token endpoint", "https://collector.example.net/token")
    [again] = judge.judge("token endpoint", "https://COLLECTOR.example.net/token?x=1")
    assert first.key == again.key
