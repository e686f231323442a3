"""The pure OAuth facts: reading a challenge, taking every secret out of what a login exchanged (headers, URLs,
forms, JSON, free text: the authorization code rides in a redirect's Location and in its HTML body), reading a
pasted redirect, and the login record's two halves."""

from __future__ import annotations

import json

import pytest

from inspector.protocol.oauth import (
    BadRedirect,
    Challenge,
    auth_params,
    is_auth_fault,
    is_challenge,
    parse_landing,
    redact_body,
    redact_headers,
    redact_text,
    redact_url,
    scopes,
)
from inspector.protocol.oauth_record import LoginRecord
from inspector.protocol.redact import REDACTED

CALLBACK = "http://127.0.0.1:43117/callback"


def test_a_challenge_is_read_with_quotes_escapes_and_bare_values() -> None:
    header = 'Bearer error="insufficient_scope", scope="a b", resource_metadata="https://x/.well-known/p", realm=mcp'
    assert auth_params(header) == {
        "error": "insufficient_scope",
        "scope": "a b",
        "resource_metadata": "https://x/.well-known/p",
        "realm": "mcp",
    }
    assert auth_params('Bearer error_description="say \\"no\\""') == {"error_description": 'say "no"'}
    challenge = Challenge.of(403, header)
    assert challenge.step_up and challenge.scope == "a b"
    assert challenge.describe() == (
        "HTTP 403, error insufficient_scope, scope 'a b', resource metadata at https://x/.well-known/p"
    )
    assert is_challenge(401, None) and is_challenge(403, header) and not is_challenge(403, 'Bearer error="x"')
    assert scopes("b a  b") == frozenset({"a", "b"}) and scopes(None) == frozenset()
    assert is_auth_fault("auth-token") and not is_auth_fault("http-401") and not is_auth_fault(None)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            f"{CALLBACK}?code=SECRETCODE&state=s1&iss=https%3A%2F%2Fa",
            f"{CALLBACK}?code=[redacted]&state=s1&iss=https%3A%2F%2Fa",
        ),
        ("https://a/authorize?client_id=c&state=s", "https://a/authorize?client_id=c&state=s"),
        ("https://a/cb?access_token=T0K&x=1", "https://a/cb?access_token=[redacted]&x=1"),
    ],
)
def test_urls_lose_their_secret_query_values(text: str, shown: str) -> None:
    assert redact_url(text) == shown


def test_free_text_loses_field_values_in_every_shape() -> None:
    body = f"Found. Redirecting to {CALLBACK}?code=SECRETCODE&state=s1"
    assert redact_text(body) == f"Found. Redirecting to {CALLBACK}?code=[redacted]&state=s1"
    assert "SECRETCODE" not in redact_text("code%3DSECRETCODE; refresh_token=R3FR3SH")
    assert (
        redact_text('{"access_token": "AT", "token_type": "Bearer"')
        == '{"access_token": "[redacted]", "token_type": "Bearer"'
    )
    assert redact_text("the postcode=12345 stays") == "the postcode=12345 stays"


def test_bodies_lose_their_secret_fields_forms_and_json_at_any_depth() -> None:
    form = "grant_type=authorization_code&code=C0DE&code_verifier=V3R&client_secret=S3C&client_id=c"
    shown = redact_body(form, "application/x-www-form-urlencoded")
    assert shown == (
        "grant_type=authorization_code&code=[redacted]&code_verifier=[redacted]&client_secret=[redacted]&client_id=c"
    )
    answer = json.dumps({"access_token": "AT", "refresh_token": "RT", "nested": [{"client_secret": "S"}], "n": 1})
    assert json.loads(redact_body(answer, "application/json")) == {
        "access_token": REDACTED,
        "refresh_token": REDACTED,
        "nested": [{"client_secret": REDACTED}],
        "n": 1,
    }
    assert redact_body("<p>code=abc</p>", "text/html") == "<p>code=[redacted]</p>"


def test_headers_keep_the_scheme_and_lose_credentials_and_the_location_code() -> None:
    shown = redact_headers(
        [
            ("Authorization", "Basic aWQ6c2VjcmV0"),
            ("Set-Cookie", "s=1"),
            ("Location", f"{CALLBACK}?code=SECRETCODE&state=s"),
            ("X-Api", "k"),
            ("X-Api", "k2"),
        ],
        secret=["x-api"],
    )
    assert shown == {
        "Authorization": "Basic [redacted]",
        "Set-Cookie": REDACTED,
        "Location": f"{CALLBACK}?code=[redacted]&state=s",
        "X-Api": f"{REDACTED}, {REDACTED}",
    }


def test_a_pasted_redirect_is_read_whole_or_as_its_query_and_checked() -> None:
    whole = parse_landing(f"  {CALLBACK}?code=C&state=S&iss=https%3A%2F%2Fa\n", CALLBACK)
    assert (whole.code, whole.state, whole.iss, whole.how) == ("C", "S", "https://a", "pasted")
    assert "C" not in repr(whole) and whole.describe() == "a code, iss, state"
    assert parse_landing("?error=access_denied&state=S", CALLBACK).error == "access_denied"
    for wrong, why in (
        ("", "nothing was pasted"),
        ("http://127.0.0.1:1/callback?code=C", "not to http://127.0.0.1:43117/callback"),
        ("https://evil.example/callback?code=C", "evil.example"),
        (f"{CALLBACK}?state=S", "neither a code nor an error"),
    ):
        with pytest.raises(BadRedirect, match=why):
            parse_landing(wrong, CALLBACK)


def test_a_login_record_splits_into_a_public_half_with_no_secret() -> None:
    record = LoginRecord(
        server="https://mcp.example/mcp",
        issuer="https://as.example/",
        registration="dynamic",
        client={"client_id": "c1", "client_secret": "CS3CR3T", "redirect_uris": ["http://127.0.0.1:4711/callback"]},
        tokens={"access_token": "AT0K3N", "refresh_token": "RT0K3N", "scope": "a b", "token_type": "Bearer"},
        expires_at=2_000_000_000.0,
        as_metadata={"issuer": "https://as.example/", "revocation_endpoint": "https://as.example/revoke"},
        saved_at=1.0,
    )
    public, secret = record.split()
    assert not {"CS3CR3T", "AT0K3N", "RT0K3N"} & set(json.dumps(public).split('"'))
    assert public["scope"] == "a b" and public["refresh_token"] is True and public["tokens"] is True
    assert LoginRecord.join(public, secret) == record
    assert LoginRecord.from_json(json.loads(json.dumps(record.to_json()))) == record
    assert sorted(record.secrets()) == ["AT0K3N", "CS3CR3T", "RT0K3N"]
    assert record.redirect_port == 4711 and record.expires_in(now=1_999_999_000.0) == 1000.0
    dropped = record.without_tokens()
    assert dropped.tokens is None and dropped.expires_in() is None and dropped.client == record.client
    half = LoginRecord.join(public, None)  # the secret half lost (another machine's keyring): no tokens, no secret
    assert half is not None and half.tokens is None and "client_secret" not in half.client
    assert LoginRecord.join({"no": "server"}, secret) is None
