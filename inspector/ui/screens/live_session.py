"""The main screen's live session: built by the injected factory, connected, its catalog listed, calls made, closed.

``LiveSession`` is held by the main screen (a recording has none) and knows nothing of widgets: the screen runs its
coroutines in workers and shows what they return. Every call is made with the one answers source the session was
built with (``switch``), which answers interactively, or with a resend's edited answers while that resend runs.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from inspector.protocol.methods import CATALOG, CATALOG_KINDS, CatalogKind
from inspector.targets import known as known_targets
from inspector.ui.interactive_answers import calling
from inspector.ui.resend import SwitchableAnswers

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

    from inspector.answers.base import AnswerSource
    from inspector.targets.target import Target
    from inspector.ui.session_port import SessionFactory, SessionPort

CLOSE_TIMEOUT_S = 5.0
"""How long closing may take before the screen stops waiting (the transports bound their own shutdown too)."""


class LiveSession:
    """One target's session, as the screen uses it (see the module docstring)."""

    def __init__(
        self,
        target: Target,
        factory: SessionFactory | None,
        answers: AnswerSource,
        session: SessionPort | None = None,
        *,
        config_dir: Path | None = None,
    ) -> None:
        self.target = target
        self.factory = factory
        self.config_dir = config_dir
        """Where a target that connected is remembered among the recent ones (None: not remembered)."""
        self.switch = SwitchableAnswers(answers)
        """What the session answers with: ``answers``, or a resend's edited answers while it runs."""
        self.session = session
        """The session (None until the factory built it)."""

    def fresh(self, *, retrying: bool) -> tuple[SessionPort, bool]:
        """The session to connect, and whether it is new: the factory builds one when there is none yet, and again
        to retry a failed connect (a session given without a factory is kept)."""
        if self.session is not None and not (retrying and self.factory is not None):
            return self.session, False
        if self.factory is None:
            raise RuntimeError("no session factory was given")
        self.session = self.factory(self.target, self.switch)
        return self.session, True

    def _session(self) -> SessionPort:
        if self.session is None:
            raise RuntimeError("the session was not built yet")
        return self.session

    async def connect(self) -> None:
        """Connect, unless the session already is, and remember the target; raises what the session raises
        (``ConnectError`` ...)."""
        session = self._session()
        if not session.timeline.connected:
            await session.connect()
        if self.config_dir is not None and self.target.source != "replay":
            known_targets.remember(self.config_dir, self.target)

    async def catalog(self) -> AsyncIterator[tuple[CatalogKind, list[dict[str, Any]]]]:
        """Each catalog kind the server offers, listed (every page), as it comes back."""
        session = self._session()
        caps = session.timeline.server_capabilities
        for kind in CATALOG_KINDS:
            if caps is not None and CATALOG[kind].capability not in caps:
                continue
            outcome = await session.list_all(kind)
            if outcome.ok and outcome.result is not None:
                items = next((value for value in outcome.result.values() if isinstance(value, list)), [])
                yield kind, [item for item in items if isinstance(item, dict)]

    async def call(
        self,
        kind: CatalogKind,
        name: str,
        arguments: dict[str, Any] | None,
        answers: AnswerSource | None = None,
        resends: int | None = None,
    ) -> None:
        """Make one call, answered by ``answers`` if given (a resend's edited answers), else interactively; the
        modals it opens are titled with it. ``resends``: the call it sends again (recorded, so replay shows it)."""
        session = self._session()
        method = {"tools": "tools/call", "prompts": "prompts/get"}.get(kind, "resources/read")
        with calling(f"{method} {name}"), self.switch.using(answers):
            if kind == "tools":
                await session.call_tool(name, arguments, resends=resends)
            elif kind == "prompts":
                await session.get_prompt(name, {k: str(v) for k, v in (arguments or {}).items()}, resends=resends)
            else:
                await session.read_resource(name, resends=resends)

    async def cancel(self, call: int) -> bool:
        """Cancel a call's request in flight; False when none was on the wire."""
        return await self._session().cancel(call)

    async def close(self) -> None:
        """Close the session (bounded; whatever it raises is not the user's problem any more)."""
        if self.session is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.session.close(), CLOSE_TIMEOUT_S)
