"""``inspector listen``: a subscription, headless. Each event is a line on stderr as it comes; at the end, the
subscription's call (its acknowledgement, every event, how it ended) is printed, or is the ``--json`` document.

2026-07-28 servers get one ``subscriptions/listen`` with the filters asked; 2025-11-25 servers get
``resources/subscribe`` for each ``--uri`` (their list changes come unasked). The subscription ends after
``--duration`` seconds, after ``--count`` events, on Ctrl-C (the client's end: exit 0), when the server ends it
(exit 0), or when the stream is lost (exit 3: listen again).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from typing import Annotated

import typer

from inspector.cli.options import ConnectOptions, Group, connects
from inspector.cli.run import run_and_exit, say_error
from inspector.session.listen_span import wanted
from inspector.session.outcome import Outcome
from inspector.session.session import InspectorSession
from inspector.session.timeline_events import CallFinished, RoundUpdated, TimelineEvent

LISTEN = (Group.SERVER, Group.TARGET, Group.ERA, Group.ANSWERS, Group.HELPERS, Group.RECORD, Group.JSON)


class StopWhen:
    """Sets ``stop`` when the subscription has had ``count`` events (a timeline listener)."""

    def __init__(self, count: int | None, stop: asyncio.Event) -> None:
        self._count = count
        self._stop = stop

    def __call__(self, event: TimelineEvent) -> None:
        if self._count is None or not isinstance(event, RoundUpdated | CallFinished):
            return
        span = event.call.listen
        if span is not None and len(span.events) >= self._count:
            self._stop.set()


@connects(*LISTEN)
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
    *,
    opts: ConnectOptions,
) -> None:
    """Subscribe to list changes, resource updates and task status (every list change when nothing is picked)
    and print each event as it comes (exit 0 when the client or the server ends it, 3 when it is lost)."""
    uris, task_ids = uri or [], task or []
    asked = wanted(tools, prompts, resources, uris, task_ids)

    async def operation(session: InspectorSession) -> Outcome:
        stop = asyncio.Event()
        session.timeline.subscribe(StopWhen(count, stop))
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, stop.set)
        timer = loop.call_later(duration, stop.set) if duration is not None else None
        try:
            if session.negotiated is not None and session.negotiated.legacy:
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


def register(app: typer.Typer) -> None:
    """Add ``listen`` to ``app``."""
    app.command()(listen)
