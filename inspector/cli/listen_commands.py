"""``inspector listen``: a subscription, headless. Each event is a line on stderr as it comes; at the end, the
subscription's call (its acknowledgement, every event, how it ended) is printed, or is the ``--json`` document.

2026-07-28 servers get one ``subscriptions/listen`` with the filters asked; 2025-11-25 servers get
``resources/subscribe`` for each ``--uri`` (their list changes come unasked). The subscription ends after
``--duration`` seconds, after ``--count`` events, on Ctrl-C (the client's end: exit 0), when the server ends it
(exit 0), or when the stream is lost (exit 3: listen again).
"""

from __future__ import annotations

import contextlib
import signal
from typing import TYPE_CHECKING, Annotated

import typer

from inspector.cli.options import ConnectOptions, Group, connects
from inspector.protocol.methods import LISTEN, LISTEN_NEEDS, SUBSCRIBE, listen_kept, listen_offered

if TYPE_CHECKING:
    import asyncio

    from inspector.protocol.jsonrpc import JsonObject
    from inspector.session.session import InspectorSession
    from inspector.timeline.model import TimelineEvent
    from inspector.timeline.outcome import Outcome

# `inspector --help` imports this module: the session and the timeline are imported by the command that runs
# (tests/perf/bench_cold.py).

LISTEN_OPTIONS = (Group.SERVER, Group.TARGET, Group.ERA, Group.ANSWERS, Group.HELPERS, Group.RECORD, Group.JSON)


class StopWhen:
    """Sets ``stop`` when the subscription has had ``count`` events (a timeline listener)."""

    def __init__(self, count: int | None, stop: asyncio.Event) -> None:
        self._count = count
        self._stop = stop

    def __call__(self, event: TimelineEvent) -> None:
        from inspector.timeline.model import CallFinished, RoundUpdated

        if self._count is None or not isinstance(event, RoundUpdated | CallFinished):
            return
        span = event.call.listen
        if span is not None and span.events.count >= self._count:
            self._stop.set()


@connects(*LISTEN_OPTIONS)
def listen(
    tools: Annotated[bool, typer.Option("--tools", help="Tool list changes.")] = False,
    prompts: Annotated[bool, typer.Option("--prompts", help="Prompt list changes.")] = False,
    resources: Annotated[bool, typer.Option("--resources", help="Resource list changes.")] = False,
    uri: Annotated[list[str] | None, typer.Option("--uri", help="Updates of this resource (repeatable).")] = None,
    task: Annotated[list[str] | None, typer.Option("--task", help="Status of this task id (repeatable).")] = None,
    duration: Annotated[
        float | None, typer.Option("--duration", min=0.0, help="End the subscription after S seconds.")
    ] = None,
    count: Annotated[int | None, typer.Option("--count", min=1, help="End it after N events.")] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Ask for what the server did not declare (to see what it answers).")
    ] = False,
    *,
    opts: ConnectOptions,
) -> None:
    """Subscribe to list changes, resource updates and task status (every list change the server offers when
    nothing is picked) and print each event as it comes (exit 0 when the client or the server ends it, 3 when it is
    lost, 7 when the server offers none of it)."""
    import asyncio

    from inspector.cli.run import NotOffered, run_and_exit, say_error
    from inspector.timeline.listen_span import wanted

    uris, task_ids = uri or [], task or []
    picked = bool(tools or prompts or resources or uris or task_ids)

    async def operation(session: InspectorSession) -> Outcome:
        asked = wanted(tools, prompts, resources, uris, task_ids)
        if not force:
            asked = _offered(asked, session, picked)
        stop = asyncio.Event()
        session.timeline.subscribe(StopWhen(count, stop))
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, stop.set)
        timer = loop.call_later(duration, stop.set) if duration is not None else None
        try:
            if session.negotiated is not None and session.negotiated.legacy:
                if uris and not force and not listen_offered("resourceSubscriptions", caps := _declared(session)):
                    raise NotOffered(SUBSCRIBE, "resources.subscribe", caps)
                if task_ids:
                    say_error("a 2025-11-25 server has no task subscriptions: --task is not asked", "")
                return await session.subscribe(uris, stop)
            return await session.listen(asked, stop)
        finally:
            if timer is not None:
                timer.cancel()
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(signal.SIGINT)

    run_and_exit(operation, opts=opts)


def _declared(session: InspectorSession) -> JsonObject | None:
    return session.timeline.server_capabilities


def _offered(asked: JsonObject, session: InspectorSession, picked: bool) -> JsonObject:
    """The filters of ``asked`` the server declared it offers; what it did not is said (when the user picked it)
    and left out. Nothing left: ``NotOffered`` (exit 7). A 2025 server's list changes come unasked: kept as is."""
    from inspector.cli.run import NOT_OFFERED_HINT, NotOffered, say_error

    if session.negotiated is not None and session.negotiated.legacy:
        return asked
    caps = _declared(session)
    kept = listen_kept(asked, caps)
    dropped = [kind for kind in asked if kind not in kept]
    if not kept:
        needs = ", ".join(dict.fromkeys(".".join(LISTEN_NEEDS[kind]) for kind in dropped))
        raise NotOffered(LISTEN, needs, caps)
    if dropped and picked:
        needs = ", ".join(".".join(LISTEN_NEEDS[kind]) for kind in dropped)
        say_error(f"not asked: {', '.join(dropped)} (the server did not declare {needs})", NOT_OFFERED_HINT)
    return kept


def register(app: typer.Typer) -> None:
    """Add ``listen`` to ``app``."""
    app.command()(listen)
