"""``inspector conformance-client URL``: the adapter the official conformance suite drives.

The suite appends its test server's URL and sets ``MCP_CONFORMANCE_SCENARIO``, ``MCP_CONFORMANCE_PROTOCOL_VERSION``
and ``MCP_CONFORMANCE_CONTEXT``. We connect at that version (2026-07-28: stateless; earlier: ``initialize``), list
the tools, call each one (answering elicitations with the schema's defaults, the stub model for sampling), list
skills where the Skills extension is declared (loading one, verified, only where the scenario's host loads one),
list resources and prompts where offered (reading and getting the first few), and exit 0 only when every call
completed (a skill that fails verification too: it was not loaded). The suite's own checks judge the wire; we
print our timeline to stderr.

Auth scenarios log in like any run, with three differences: the suite's authorization endpoint answers at once
with a redirect, so the login follows it itself through the recorded client (no browser, no listener); the client
is the one the context names (pre-registered, client credentials, a private-key JWT, an enterprise IdP, a
workload's JWT for the jwt-bearer grant), else the suite's fixed Client ID Metadata Document URL where the server
supports CIMD, else dynamic registration; logins are kept in memory only (never a user's keyring). DPoP is left to
the default (``--dpop`` not given): the DPoP scenarios' servers challenge with the DPoP scheme alone, which is a
server requiring it, so those logins bind their tokens as any user's would.
"""

from __future__ import annotations

import json
import os
from typing import Any

from inspector.answers.build import build_answer_source
from inspector.cli.run import connect_or_report
from inspector.cli.wiring import build_session, quiet_sdk_logging
from inspector.headless.printed_timeline import print_timeline
from inspector.headless.terminal import err_console
from inspector.protocol.envelope import LATEST_MODERN, LEGACY_VERSIONS, MODERN_VERSIONS
from inspector.protocol.oauth import AuthorizationPrompt, Landing, LoginHelpers
from inspector.session.session import InspectorSession
from inspector.session.skill_shelf import SkillShelf
from inspector.targets.target import Target
from inspector.timeline.outcome import Outcome
from inspector.transport.oauth.config import AuthConfig, Credentials, IdentityProvider, WorkloadAssertion
from inspector.transport.oauth.token_store import open_store

CIMD_URL = "https://conformance-test.local/client-metadata.json"
"""The suite's fixed Client ID Metadata Document URL (basic-cimd expects exactly this client_id)."""
PRESERVATION = "json-schema-2020-12-preservation"
FEW = 3
"""Resources read and prompts got per run: enough to exercise each method's request headers."""
LOADS_A_SKILL = frozenset(
    {"sep-2640-client-verify-digest", "sep-2640-client-verify-size", "sep-2640-client-verify-frontmatter"}
)
"""Scenarios whose host loads a skill (the suite checks the fetched SKILL.md is verified and, when tampered, not
used); in every other run skills are only listed, as a host lists them before anything asks for one."""
WORKLOAD = "auth/wif-jwt-bearer"
"""Its context holds the workload's JWT (``valid_jwt``; also ``wrong_audience_jwt`` and ``expired_jwt``, which the
suite keeps for negative runs: a valid one is what a workload's platform gives it)."""


def tool_arguments(tool: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """Arguments for a scenario tool: the context's ``arguments`` when given, else schema defaults or simple values."""
    given = context.get("arguments")
    if isinstance(given, dict) and isinstance(given.get(tool.get("name")), dict):
        return dict(given[tool["name"]])
    schema = tool.get("inputSchema") if isinstance(tool.get("inputSchema"), dict) else {}
    assert isinstance(schema, dict)
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    assert isinstance(properties, dict)
    required = schema.get("required") if isinstance(schema.get("required"), list) else []
    assert isinstance(required, list)
    arguments: dict[str, Any] = {}
    for name, prop in properties.items():
        if not isinstance(prop, dict):
            continue
        if "default" in prop:
            arguments[name] = prop["default"]
        elif name in required or "x-mcp-header" in prop:
            arguments[name] = _sample_value(prop)
    return arguments


def _sample_value(prop: dict[str, Any]) -> Any:
    if isinstance(prop.get("enum"), list) and prop["enum"]:
        return prop["enum"][0]
    kind = prop.get("type")
    return {"integer": 1, "number": 1.5, "boolean": True, "array": [], "object": {}}.get(str(kind), "test")


async def run_conformance(url: str) -> int:
    """Run the scenario against ``url``; returns the exit code."""
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    version = os.environ.get("MCP_CONFORMANCE_PROTOCOL_VERSION", LATEST_MODERN)
    try:
        context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT", "{}") or "{}")
    except json.JSONDecodeError:
        context = {}
    if not isinstance(context, dict):
        context = {}
    console = err_console()
    answers = build_answer_source(None, "defaults", True, [])
    target = Target.from_spec(url)
    quiet_sdk_logging()
    auth = AuthConfig(open_store("memory"), FollowRedirect(), credentials(scenario, context))
    if version in MODERN_VERSIONS:
        session = build_session(target, answers, era="modern", modern_version=version, auth=auth)
    else:
        offer = version if version in LEGACY_VERSIONS else LEGACY_VERSIONS[-1]
        session = build_session(target, answers, era="legacy", legacy_offer=offer, auth=auth)
    ok = True
    try:
        if not await connect_or_report(session):
            return 3
        ok = await (_preserve(session) if scenario == PRESERVATION else _exercise(session, context))
    finally:
        await session.close()
        console.print(f"scenario {scenario} at {version}")
        print_timeline(console, session.timeline)
    return 0 if ok else 1


class FollowRedirect:
    """The suite's authorization endpoint redirects at once: follow it through the recorded client (no person)."""

    async def authorize(self, prompt: AuthorizationPrompt, helpers: LoginHelpers) -> Landing:
        return await helpers.follow()


def credentials(scenario: str, context: dict[str, Any]) -> Credentials:
    """Who the client is, from the scenario's context (none: CIMD where supported, else dynamic registration)."""
    client_id = _text(context, "client_id")
    secret = _text(context, "client_secret")
    issuer = _text(context, "issuer")
    if scenario == "auth/client-credentials-basic":
        return Credentials(client_id, secret, issuer, grant="client_credentials")
    if scenario == "auth/client-credentials-jwt":
        return Credentials(
            client_id,
            issuer=issuer,
            grant="private_key_jwt",
            private_key_pem=_text(context, "private_key_pem"),
            signing_algorithm=_text(context, "signing_algorithm") or "ES256",
        )
    if scenario == WORKLOAD:
        workload = WorkloadAssertion(value=_text(context, "valid_jwt"))
        return Credentials(client_id, grant="jwt_bearer", assertion=workload)
    endpoint = _text(context, "idp_token_endpoint")
    if scenario == "auth/enterprise-managed-authorization" and endpoint:
        idp = IdentityProvider(
            endpoint, _text(context, "idp_client_id") or "", _text(context, "idp_id_token") or "",
            _text(context, "idp_issuer"),
        )  # fmt: skip
        return Credentials(client_id, secret, issuer, grant="identity_assertion", idp=idp)
    return Credentials(client_id, secret, issuer, client_metadata_url=CIMD_URL)


def _text(context: dict[str, Any], key: str) -> str | None:
    value = context.get(key)
    return value if isinstance(value, str) and value else None


async def _preserve(session: InspectorSession) -> bool:
    """Send the focal tool's inputSchema, exactly as listed (never normalised), to ``json_schema_echo``."""
    listed = await session.list_all("tools")
    if not listed.ok or listed.result is None:
        return False
    tools = {str(t.get("name")): t for t in listed.result.get("tools", []) if isinstance(t, dict)}
    focal = tools.get("json_schema_2020_12_tool")
    if focal is None or "json_schema_echo" not in tools:
        return False
    outcome = await session.call_tool("json_schema_echo", {"schema": focal.get("inputSchema")})
    return outcome.status == "complete"


async def _exercise(session: InspectorSession, context: dict[str, Any]) -> bool:
    """Call the context's ``toolCalls`` in order when it names them; else every listed tool with default arguments.

    A test server that answers tools/call with -32601 only wants the listing checked (json-schema-ref-no-deref),
    so that error is not a failure of ours; any other error is.
    """
    listed = await session.list_all("tools")
    if not listed.ok or listed.result is None:
        return False
    planned = context.get("toolCalls")
    if isinstance(planned, list) and planned:
        calls = [
            (str(c.get("name")), c.get("arguments") if isinstance(c.get("arguments"), dict) else {})
            for c in planned
            if isinstance(c, dict)
        ]
    else:
        calls = [(str(tool.get("name")), tool_arguments(tool, context)) for tool in listed.result.get("tools", [])]
    ok = True
    for name, arguments in calls:
        outcome = await session.call_tool(name, arguments)
        ok = ok and (outcome.status in ("complete", "tool-error") or _not_implemented(outcome))
    skills = SkillShelf(session)
    skill_files: set[str] = set()
    if skills.offered():
        entries, failed = await skills.list_all()
        ok = ok and failed is None
        skill_files = {uri for entry in entries for uri in _file_uris(entry)}
        if entries and os.environ.get("MCP_CONFORMANCE_SCENARIO", "") in LOADS_A_SKILL:
            ok = (await skills.load(entries[0])).verified and ok
    offered = session.timeline.server_capabilities or {}
    if "resources" in offered:
        ok = await _read_resources(session, skill_files) and ok
    if "prompts" in offered:
        ok = await _get_prompts(session) and ok
    return ok


def _not_implemented(outcome: Outcome) -> bool:
    return outcome.status == "error" and (outcome.error or {}).get("code") == -32601


async def _read_resources(session: InspectorSession, skill_files: set[str]) -> bool:
    """List the resources and read the first few; a skill's files are left alone (read only when it is loaded)."""
    listed = await session.list_all("resources")
    if not listed.ok or listed.result is None:
        return _not_implemented(listed)
    uris = [str(r.get("uri")) for r in listed.result.get("resources", []) if isinstance(r, dict) and r.get("uri")]
    ok = True
    for uri in [u for u in uris if u not in skill_files][:FEW]:
        ok = (await session.read_resource(uri)).ok and ok
    return ok


async def _get_prompts(session: InspectorSession) -> bool:
    """List the prompts and get the first few, each with a value for every argument it declares."""
    listed = await session.list_all("prompts")
    if not listed.ok or listed.result is None:
        return _not_implemented(listed)
    ok = True
    for prompt in [p for p in listed.result.get("prompts", []) if isinstance(p, dict)][:FEW]:
        ok = (await session.get_prompt(str(prompt.get("name")), prompt_arguments(prompt))).ok and ok
    return ok


def prompt_arguments(prompt: dict[str, Any]) -> dict[str, str]:
    """A value for each argument the prompt declares (prompt arguments are strings)."""
    declared = prompt.get("arguments") if isinstance(prompt.get("arguments"), list) else []
    assert isinstance(declared, list)
    return {str(arg["name"]): "test" for arg in declared if isinstance(arg, dict) and arg.get("name")}


def _file_uris(entry: dict[str, Any]) -> list[str]:
    files = entry.get("resources") if isinstance(entry.get("resources"), list) else []
    assert isinstance(files, list)
    return [str(entry.get("uri")), *(str(f.get("uri")) for f in files if isinstance(f, dict))]
