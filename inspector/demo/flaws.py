"""Demo servers that fail ``inspector lab`` on purpose: ``inspector demo-server --flaw F``.

Each flaw is a *state policy*: how the demo's MRTR flows write and read their requestState, and where they read the
client's capabilities from. The flows ask ``current()`` (``mrtr.encode_state``, ``decode_state`` and the
``require_*`` checks do), and a middleware installed by ``apply`` sets the policy for every request of that server,
so a server built without a flaw (the TUI's demo, the screenshots, the tests' in-process servers) is never touched.

- sound (no flaw): the state is the flow's data, base64url JSON, sealed on the wire by the SDK's
  ``RequestStateBoundary``; with ``$INSPECTOR_DEMO_STATE_KEY`` set, every instance seals under that one key, so
  instance B opens what A sealed (``inspector lab --demo`` sets it for both processes).
- ``sticky-state``: the data stays in this process's memory and requestState is only a handle to it, so a retry
  that lands on another instance finds nothing and the flow asks its first question again.
- ``session-capabilities``: the client's capabilities are the ones seen at ``server/discover``, not the ones of each
  request's ``_meta`` (2026-07-28: servers MUST NOT infer them from prior requests); an instance that never saw
  the discover believes the client can do nothing and answers -32021.
- ``trusting-state``: no boundary at all: the state is plaintext JSON, and whatever it says is believed, so a
  changed byte changes the outcome (the spec: a server MUST validate every requestState it gets back).
- ``own-key``: sound flows, but sealed under a key this process made for itself (the SDK's default,
  ``RequestStateSecurity.ephemeral()``), whatever ``$INSPECTOR_DEMO_STATE_KEY`` says: B cannot open A's state.
- ``own-tasks``: sound flows, but its tasks stay in this process's memory, whatever ``$INSPECTOR_DEMO_TASK_DIR``
  says (``task_share.py``): B does not know a task A made (``server.build_server`` leaves the folder out).
- ``unstable-order``: sound flows, but its tools/list comes in an order of this process's own (the same on every
  call to it, another on every other instance): the same tools, so a host's prompt cache built on A's list would
  not survive a reconnect to B (seed 004: lists are ordered stably).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import uuid
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any, Final, Protocol

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp_types import ClientCapabilities
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from inspector.demo.flaw_names import FLAWS, STATE_KEY_ENV


class StatePolicy(Protocol):
    """How a demo flow keeps its state between rounds and learns what the client can do."""

    def encode(self, data: dict[str, Any]) -> str:
        """The requestState to send for ``data``."""
        ...

    def decode(self, text: str | None) -> dict[str, Any]:
        """The data an echoed requestState stands for ({} when there is none or it says nothing usable)."""
        ...

    def capabilities(self, ctx: Context[Any, Any]) -> ClientCapabilities | None:
        """The client's capabilities for this request."""
        ...


class SoundState:
    """The flow's data itself, as base64url JSON (the SDK seals it on the wire); capabilities from this request."""

    def encode(self, data: dict[str, Any]) -> str:
        raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def decode(self, text: str | None) -> dict[str, Any]:
        if not text:
            return {}
        try:
            value = json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def capabilities(self, ctx: Context[Any, Any]) -> ClientCapabilities | None:
        return ctx.client_capabilities


class StickyState(SoundState):
    """The flaw ``sticky-state``: round one's answers kept in this process, requestState a handle to them."""

    def __init__(self) -> None:
        self.memory: dict[str, dict[str, Any]] = {}

    def encode(self, data: dict[str, Any]) -> str:
        handle = f"sticky-{uuid.uuid4().hex}"
        self.memory[handle] = dict(data)
        return handle

    def decode(self, text: str | None) -> dict[str, Any]:
        return dict(self.memory.get(text or "", {}))


class SessionCapabilities(SoundState):
    """The flaw ``session-capabilities``: the capabilities of the last ``server/discover`` this process saw stand
    for every later modern request (legacy requests keep their session's, which is right for them)."""

    def __init__(self) -> None:
        self.seen_at_discover: ClientCapabilities | None = None

    def capabilities(self, ctx: Context[Any, Any]) -> ClientCapabilities | None:
        if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            return ctx.client_capabilities
        return self.seen_at_discover


class TrustingState(SoundState):
    """The flaw ``trusting-state``: plaintext JSON, believed as it comes back."""

    def encode(self, data: dict[str, Any]) -> str:
        return json.dumps(data, separators=(",", ":"), sort_keys=True)

    def decode(self, text: str | None) -> dict[str, Any]:
        try:
            value = json.loads(text or "{}")
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}


_SOUND: Final = SoundState()
_POLICY: ContextVar[StatePolicy] = ContextVar("inspector_demo_state_policy", default=_SOUND)


def current() -> StatePolicy:
    """The policy of the request being handled (sound outside a flawed server's requests)."""
    return _POLICY.get()


class _PolicyMiddleware:
    """Sets the server's policy for each request it handles; under ``session-capabilities`` it also remembers
    the capabilities a ``server/discover`` declared."""

    def __init__(self, policy: StatePolicy) -> None:
        self.policy = policy

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "server/discover" and isinstance(self.policy, SessionCapabilities):
            self.policy.seen_at_discover = ctx.session.client_capabilities
        token = _POLICY.set(self.policy)
        try:
            return await call_next(ctx)
        finally:
            _POLICY.reset(token)


class _UnstableOrder:
    """The flaw ``unstable-order``: tools/list sorted by a hash salted per process, so each instance has its own
    order (two instances agree with odds of one in 12!)."""

    def __init__(self) -> None:
        self.salt = os.urandom(16)

    def _rank(self, tool: object) -> bytes:
        name = tool.get("name") if isinstance(tool, dict) else getattr(tool, "name", "")
        return hashlib.sha256(self.salt + str(name).encode()).digest()

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method != "tools/list":
            return result
        if isinstance(result, dict) and isinstance(result.get("tools"), list):
            return {**result, "tools": sorted(result["tools"], key=self._rank)}
        tools = getattr(result, "tools", None)
        if result is not None and not isinstance(result, dict) and isinstance(tools, list):
            return result.model_copy(update={"tools": sorted(tools, key=self._rank)})
        return result


def shared_security(flaw: str | None, environ: Mapping[str, str] = os.environ) -> RequestStateSecurity | None:
    """The requestState policy of a demo process: sealed under ``$INSPECTOR_DEMO_STATE_KEY`` when it is set and
    the flaw is not ``own-key``; None (the SDK's ephemeral per-process key) otherwise."""
    key = environ.get(STATE_KEY_ENV, "")
    if flaw == "own-key" or not key:
        return None
    return RequestStateSecurity(keys=[key])


def apply(server: MCPServer[Any], flaw: str | None) -> None:
    """Give ``server`` the flaw's state policy (nothing for the sound demo, for ``own-key``, whose flaw is its key
    alone, and for ``own-tasks``, whose flaw is where its tasks are kept); ``unstable-order`` reorders tools/list
    instead."""
    if flaw is None or flaw in ("own-key", "own-tasks"):
        return
    if flaw not in FLAWS:
        raise ValueError(f"unknown flaw {flaw!r}: one of {', '.join(FLAWS)}")
    if flaw == "unstable-order":
        server.middleware.append(_UnstableOrder())
        return
    policy: StatePolicy
    if flaw == "sticky-state":
        policy = StickyState()
    elif flaw == "session-capabilities":
        policy = SessionCapabilities()
    else:
        policy = TrustingState()
        # The SDK has no switch for its boundary (on purpose); the flaw is exactly a server without one.
        chain = server.middleware
        chain[:] = [m for m in chain if not isinstance(m, RequestStateBoundary)]
    server.middleware.append(_PolicyMiddleware(policy))
