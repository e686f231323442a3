"""Two server instances behind one transport: the lab decides where each request goes, the session never knows.

``RoutedTransport`` keeps the ``Transport`` contract, so one ``InspectorSession`` (one Connection: request ids
unique across both instances, one timeline, one recording) drives calls whose rounds land on A or on B. Before a
request leaves, ``on_route(request_id, name)`` is called: the lab writes an ``instance`` record, so each round on
the timeline (and in a replay of the recording) says where it went.

What goes where: a request follows the current ``Route``; ``notifications/cancelled`` goes to the instance of the
request it cancels; our reply to a legacy server request goes back to the instance that asked; any other
notification goes with the last request. An instance that exits or cannot be reached is a fault of the requests it
had (never the end of the session while the other one lives), and a later request routed to it fails at once.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.protocol.jsonrpc import classify
from inspector.transport.base import (
    Closed,
    EventSink,
    OutgoingMessage,
    Received,
    RequestKey,
    StderrLine,
    Transport,
    TransportEvent,
    TransportFault,
    TransportKind,
    TransportStartError,
)

OnRoute = Callable[[RequestKey, str], None]


@dataclass(frozen=True, slots=True)
class Route:
    """Where the next requests go: all to ``first``, or (``alternate``) to ``first``, then the other instance,
    then ``first`` again, one request each (a multi-round call crossing instances at every retry)."""

    first: str
    alternate: bool = False

    def label(self, names: tuple[str, ...]) -> str:
        """``A``, or ``A⇄B`` for an alternating route."""
        if not self.alternate or len(names) < 2:
            return self.first
        other = next(n for n in names if n != self.first)
        return f"{self.first}⇄{other}"


class RoutedTransport:
    """Instances by name (``{"A": ..., "B": ...}``, in that order), one session's transport."""

    def __init__(self, instances: dict[str, Transport], on_route: OnRoute | None = None) -> None:
        if not instances:
            raise ValueError("a routed transport needs at least one instance")
        self.instances = dict(instances)
        self.names: tuple[str, ...] = tuple(instances)
        self.on_route = on_route
        self.kind: TransportKind = "http" if any(t.kind == "http" for t in instances.values()) else "stdio"
        self._route = Route(self.names[0])
        self._sent_on_route = 0
        self._sink: EventSink | None = None
        self._request_at: dict[RequestKey, str] = {}
        """Every request id we sent -> the instance it went to."""
        self._waiting: dict[str, set[RequestKey]] = {name: set() for name in self.names}
        """Requests each instance has not answered yet (failed for it when it goes away)."""
        self._server_request_at: dict[Any, str] = {}
        self._last = self.names[0]
        self.gone: dict[str, str] = {}
        """Instances that went away -> why."""

    # ------------------------------------------------------------------------------------------------ routing
    @property
    def route(self) -> Route:
        """Where requests go now."""
        return self._route

    def route_to(self, first: str, *, alternate: bool = False) -> None:
        """Send the next requests along a new route (the alternation starts again from ``first``)."""
        if first not in self.instances:
            raise KeyError(f"no instance {first!r} (have {', '.join(self.names)})")
        self._route = Route(first, alternate)
        self._sent_on_route = 0

    def instance_of(self, request_id: RequestKey) -> str | None:
        """Where a request we sent went."""
        return self._request_at.get(request_id)

    def _next(self) -> str:
        route = self._route
        index = self._sent_on_route
        self._sent_on_route += 1
        if not route.alternate or len(self.names) < 2 or index % 2 == 0:
            return route.first
        return next(n for n in self.names if n != route.first)

    def _destination(self, message: OutgoingMessage) -> str:
        if message.request_id is not None and message.method is not None:
            name = self._next()
            self._request_at[message.request_id] = name
            self._waiting[name].add(message.request_id)
            self._last = name
            return name
        parsed = _json(message.raw)
        if message.method == "notifications/cancelled":
            params = parsed.get("params") if isinstance(parsed.get("params"), dict) else {}
            target = params.get("requestId") if isinstance(params, dict) else None
            return self._request_at.get(target, self._last) if isinstance(target, int | str) else self._last
        if message.method is None:
            return self._server_request_at.get(parsed.get("id"), self._last)
        return self._last

    # ------------------------------------------------------------------------------------------------ Transport
    def describe(self) -> str:
        """``A: spec · B: spec``."""
        return " · ".join(f"{name}: {t.describe()}" for name, t in self.instances.items())

    async def start(self, sink: EventSink) -> None:
        """Start every instance at once; one that cannot start stops the others and is named in the error."""
        self._sink = sink
        names = list(self.instances)
        results = await asyncio.gather(
            *(self.instances[name].start(self._sink_of(name)) for name in names), return_exceptions=True
        )
        for name, result in zip(names, results, strict=True):
            if isinstance(result, TransportStartError):
                await self.close()
                raise TransportStartError(f"instance {name}: {result.message}", result.hint, result.stderr)
            if isinstance(result, BaseException):
                await self.close()
                raise result

    async def send(self, message: OutgoingMessage) -> None:
        """Put the message on the instance it goes to (after ``on_route`` for a request)."""
        name = self._destination(message)
        if message.request_id is not None and message.method is not None and self.on_route is not None:
            self.on_route(message.request_id, name)
        if name in self.gone:
            self._emit(
                TransportFault(
                    "instance-gone",
                    f"instance {name} is gone ({self.gone[name]}); nothing was sent",
                    f"see what instance {name} said before it went (the console lines marked [{name}])",
                    time.monotonic(),
                    request_id=message.request_id,
                )
            )
            return
        await self.instances[name].send(message)

    async def cancel(self, request_id: RequestKey) -> bool:
        """Abort a request's exchange on the instance it went to."""
        name = self._request_at.get(request_id)
        if name is None or name in self.gone:
            return False
        return await self.instances[name].cancel(request_id)

    async def close(self) -> None:
        """Close every instance (each bounded by its own transport)."""
        await asyncio.gather(*(t.close() for t in self.instances.values()), return_exceptions=True)

    @property
    def session_expired(self) -> bool:
        """A legacy HTTP session of the instance the next request goes to has expired (see ``RequestSender``)."""
        name = self._route.first
        return self.instances[name].session_expired

    async def open_server_stream(self) -> None:
        """Legacy: the standalone stream of the instance that answered ``initialize`` (the last request's)."""
        await self.instances[self._last].open_server_stream()

    # ------------------------------------------------------------------------------------------------ events
    def _emit(self, event: TransportEvent) -> None:
        if self._sink is not None:
            self._sink(event)

    def _sink_of(self, name: str) -> EventSink:
        def sink(event: TransportEvent) -> None:
            if isinstance(event, Received):
                self._received(name, event)
            elif isinstance(event, StderrLine) and len(self.names) > 1:
                event = StderrLine(f"[{name}] {event.text}", event.at, event.undecodable)
            elif isinstance(event, Closed):
                code = f" (exit code {event.returncode})" if event.returncode and "exit" not in event.reason else ""
                self._gone(name, event.reason + code)
                if len(self.gone) < len(self.names):
                    return
                event = Closed("; ".join(f"{n}: {why}" for n, why in self.gone.items()), event.at, event.returncode)
            elif isinstance(event, TransportFault) and event.fatal:
                self._gone(name, event.message)
                if len(self.gone) < len(self.names):
                    event = TransportFault(
                        event.kind, f"instance {name}: {event.message}", event.hint, event.at, event.request_id,
                        event.http, fatal=False,
                    )  # fmt: skip
            self._emit(event)

        return sink

    def _received(self, name: str, event: Received) -> None:
        parsed = classify(event.raw)
        if parsed.kind == "request" and parsed.id is not None:
            self._server_request_at[parsed.id] = name
        elif parsed.kind in ("response", "error"):
            answered = parsed.id if parsed.id is not None else event.in_reply_to
            if isinstance(answered, int | str):
                self._waiting[name].discard(answered)

    def _gone(self, name: str, why: str) -> None:
        """Instance ``name`` went away: each request it had not answered fails now, as a fault of its own."""
        if name in self.gone:
            return
        self.gone[name] = why
        if len(self.names) == 1:
            return
        now = time.monotonic()
        for request_id in sorted(self._waiting[name], key=str):
            self._emit(
                TransportFault(
                    "instance-gone",
                    f"instance {name} went away before it answered: {why}",
                    f"see what instance {name} said before it went (the console lines marked [{name}])",
                    now,
                    request_id=request_id,
                )
            )
        self._waiting[name].clear()


def _json(raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
