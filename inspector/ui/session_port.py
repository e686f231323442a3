"""What the UI needs from a session: the methods of ``InspectorSession`` it calls, as a Protocol.

The real ``InspectorSession`` satisfies it, whatever its transport: the tests, the screenshots and the benchmarks
drive it over the memory transport, with a peer in the same process (``inspector.transport.memory``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from inspector.session.skill_shelf import SkillSession

if TYPE_CHECKING:
    import asyncio

    from inspector.answers.source import AnswerSource
    from inspector.protocol.jsonrpc import JsonObject
    from inspector.protocol.methods import CatalogKind
    from inspector.targets.target import Target
    from inspector.timeline.model import EraDecision, Timeline
    from inspector.timeline.outcome import Outcome


class SessionPort(SkillSession, Protocol):
    """The session as the UI sees it (the skills' shelf works on it too: ``request``, ``ledger``)."""

    @property
    def timeline(self) -> Timeline: ...

    async def connect(self) -> EraDecision: ...

    async def list_all(self, kind: CatalogKind, *, fresh: bool = False) -> Outcome: ...

    def forget_cached(self) -> None: ...

    async def call_tool(
        self,
        name: str,
        arguments: JsonObject | None = None,
        *,
        capabilities: JsonObject | None = None,
        resends: int | None = None,
        started: Callable[[int], object] | None = None,
    ) -> Outcome: ...

    async def get_prompt(
        self,
        name: str,
        arguments: dict[str, str] | None = None,
        *,
        resends: int | None = None,
        started: Callable[[int], object] | None = None,
    ) -> Outcome: ...

    async def read_resource(
        self, uri: str, *, resends: int | None = None, started: Callable[[int], object] | None = None
    ) -> Outcome: ...

    async def cancel(self, call: int) -> bool: ...

    async def listen(self, notifications: JsonObject, stop: asyncio.Event) -> Outcome: ...

    async def subscribe(self, uris: list[str], stop: asyncio.Event) -> Outcome: ...

    async def close(self) -> None: ...


SessionFactory = Callable[["Target", "AnswerSource"], SessionPort]
"""Builds transport + session for a target; the answers source is the UI's ``InteractiveAnswers``."""
