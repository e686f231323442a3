"""Logging out: the stored tokens revoked at the authorization server (RFC 7009), where it offers revocation.

Best effort: a logout forgets the login locally whatever the server says; what it said is reported, with no token
in it.
"""

from __future__ import annotations

import base64
from urllib.parse import quote

import httpx

from inspector.protocol.oauth_record import LoginRecord

REVOKE_TIMEOUT_S = 10.0


async def revoke(record: LoginRecord, timeout: float = REVOKE_TIMEOUT_S) -> list[str]:
    """Revoke the record's refresh and access tokens; one line per attempt, saying what the server answered."""
    endpoint = (record.as_metadata or {}).get("revocation_endpoint")
    tokens = record.tokens or {}
    if not isinstance(endpoint, str) or not tokens:
        return ["the authorization server offers no revocation: the tokens stay valid until they expire"]
    client = record.client
    client_id = str(client.get("client_id", ""))
    secret = client.get("client_secret")
    method = client.get("token_endpoint_auth_method")
    said: list[str] = []
    async with httpx.AsyncClient(timeout=timeout, follow_redirects=False) as http:
        for kind in ("refresh_token", "access_token"):
            token = tokens.get(kind)
            if not isinstance(token, str) or not token:
                continue
            data = {"token": token, "token_type_hint": kind, "client_id": client_id}
            headers: dict[str, str] = {}
            if isinstance(secret, str) and secret and method == "client_secret_basic":
                pair = f"{quote(client_id, safe='')}:{quote(secret, safe='')}"
                headers["Authorization"] = "Basic " + base64.b64encode(pair.encode()).decode()
            elif isinstance(secret, str) and secret:
                data["client_secret"] = secret
            try:
                answer = await http.post(endpoint, data=data, headers=headers)
            except httpx.HTTPError as exc:
                said.append(f"the {kind.replace('_', ' ')} was not revoked: no answer from {endpoint} ({exc})")
                continue
            verdict = "revoked" if answer.status_code == 200 else "not revoked"  # (its body may echo the token)
            said.append(f"the {kind.replace('_', ' ')} at {endpoint}: HTTP {answer.status_code}, {verdict}")
    return said
