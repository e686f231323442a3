"""The main screen's live session: built by the injected factory, connected, its catalog listed, calls made, closed.

``LiveSession`` is held by the main screen (a recording has none) and knows nothing of widgets: the screen runs its
coroutines in workers and shows what they return. Every call is made with the one answers source the session was
built with (``switch``), which answers interactively, or with a resend's edited answers while that resend runs.
With ``tasks`` off (the tasks toggle), a tools/call declares no Tasks extension (the session's ``--no-tasks``, one
call at a time: in the 2026 era its ``_meta`` leaves it out, in 2025-11-25 it carries no ``params.task``). A server
that declares the Skills extension has its skills listed with the catalog (``skills/list``: no file is read); one is
loaded only when the person asks (``load_skill``: its SKILL.md read and verified, ``SkillShelf``).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from inspector.protocol.envelope import client_capabilities
from inspector.protocol.methods import CATALOG, CATALOG_KINDS, CatalogKind
from inspector.session.skill_shelf import SkillLoad, SkillShelf
from inspector.targets import known as known_targets
from inspector.ui.composer.resend import SwitchableAnswers
from inspector.ui.interactive_answers import calling

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable
    from pathlib import Path

    from inspector.answers.source import AnswerSource
    from inspector.protocol.jsonrpc import JsonObject
    from inspector.targets.target import Target
    from inspector.ui.composer.call_composer import CallRequest
    from inspector.ui.session_port import SessionFactory, SessionPort
    from inspector.ui.widgets.catalog import Section

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
        self.tasks = True
        """Calls declare the Tasks extension (the tasks toggle)."""
        self.skill_loads: dict[str, SkillLoad] = {}
        """The skills loaded, by uri: the last load of each (verified, or why not)."""

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

    def offers(self, kind: CatalogKind) -> bool:
        """Whether the server declared the capability that offers ``kind`` (or declared nothing we know of)."""
        return self._session().timeline.offers(kind)

    async def catalog(self, *, fresh: bool = False) -> AsyncIterator[tuple[Section, list[dict[str, Any]] | None]]:
        """Each catalog kind, listed (every page), as it comes back; None for a kind the server did not declare,
        which is not asked for (a tools-only server is never sent prompts/list). Then the skills, when the server
        declared the extension (their entries only). ``fresh``: the session's cache is emptied first and every list
        asked of the server (the refresh key)."""
        if fresh:
            self._session().forget_cached()
        for kind in CATALOG_KINDS:
            if not self.offers(kind):
                yield kind, None
                continue
            items = await self.relist(kind, fresh=fresh)
            if items is not None:
                yield kind, items
        shelf = SkillShelf(self._session())
        if shelf.offered():
            entries, failed = await shelf.list_all()
            yield "skills", entries if failed is None else []

    async def load_skill(self, entry: JsonObject, started: Callable[[int], object] | None = None) -> SkillLoad:
        """Load one skill: its SKILL.md read (a call on the timeline; ``started`` is told its number) and checked
        against ``entry``; a mismatch is an error finding on that call, and the text is not to be used."""
        loaded = await SkillShelf(self._session()).load(entry, started)
        self.skill_loads[loaded.uri] = loaded
        return loaded

    async def relist(self, kind: CatalogKind, *, fresh: bool = False) -> list[dict[str, Any]] | None:
        """List one kind again (every page; from the session's cache while it is fresh there, unless ``fresh``);
        None when the listing failed (the timeline says why)."""
        outcome = await self._session().list_all(kind, fresh=fresh)
        if not outcome.ok or outcome.result is None:
            return None
        items = next((value for value in outcome.result.values() if isinstance(value, list)), [])
        return [item for item in items if isinstance(item, dict)]

    @property
    def legacy(self) -> bool:
        """The session speaks the legacy era (its subscriptions are 2025-11-25 ``resources/subscribe``)."""
        era = self._session().timeline.era
        return era is not None and era.era == "legacy"

    async def call(self, request: CallRequest, started: Callable[[int], object] | None = None) -> None:
        """Make one call, answered by the request's answers if given (a resend's edited answers), else
        interactively; the modals it opens are titled with it. A resend is recorded as one, so replay shows it.
        ``started`` is told the call's number before anything of it is sent."""
        session = self._session()
        kind, name, arguments, resends = request.kind, request.name, request.arguments, request.resend_of
        method = CATALOG[kind].use_method
        with calling(f"{method} {name}"), self.switch.using(request.answers):
            if kind == "tools":
                capabilities = None if self.tasks else self.no_tasks
                await session.call_tool(name, arguments, capabilities=capabilities, resends=resends, started=started)
            elif kind == "prompts":
                texts = {k: str(v) for k, v in (arguments or {}).items()}
                await session.get_prompt(name, texts, resends=resends, started=started)
            else:
                await session.read_resource(name, resends=resends, started=started)

    no_tasks: JsonObject = client_capabilities(tasks=False)
    """What a call declares with the tasks toggle off."""

    async def cancel(self, call: int) -> bool:
        """Cancel a call's request in flight (a task's: tasks/cancel); False when none was on the wire."""
        return await self._session().cancel(call)

    async def listen(self, notifications: JsonObject, stop: asyncio.Event) -> None:
        """A subscription until the server ends it, it is lost, or ``stop`` is set: ``subscriptions/listen``, or
        on a legacy server ``resources/subscribe`` for the URIs asked."""
        session = self._session()
        if self.legacy:
            uris = notifications.get("resourceSubscriptions")
            await session.subscribe([str(uri) for uri in uris] if isinstance(uris, list) else [], stop)
        else:
            await session.listen(notifications, stop)

    async def close(self) -> None:
        """Close the session (bounded; whatever it raises is not the user's problem any more)."""
        if self.session is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.session.close(), CLOSE_TIMEOUT_S)
