"""``ScriptedSession``: a session without a server, for tests, the dev runner and benchmarks.

It writes the same records the real session writes (``inspector.session.records``) through the same
``TimelineBuilder``, so the timeline it produces is shaped exactly like a live one; the "server" is a handful of
canned flows that mirror the demo server's (``update_work_item`` asks two questions across three rounds).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from inspector.answers.base import AnswerSource, CallCancelled, NoAnswer
from inspector.protocol.jsonrpc import JsonObject
from inspector.session import records
from inspector.session.builder import TimelineBuilder
from inspector.session.outcome import Outcome
from inspector.ui.scripted_flows import CACHE, HOSTILE_TOOL, TOOLS, VERSION, state_of, text_result

if TYPE_CHECKING:
    from inspector.protocol.methods import CatalogKind
    from inspector.session.timeline import CallStatus, EraDecision, Timeline


class ScriptedSession:
    """A fake ``InspectorSession``: same methods, same records, canned flows. Deterministic clock (ms steps)."""

    def __init__(
        self,
        answers: AnswerSource | None = None,
        *,
        timeline: Timeline | None = None,
        hostile: bool = False,
        stderr: tuple[str, ...] = (),
        connect_error: Exception | None = None,
        delay: float = 0.0,
        step_ms: float = 12.0,
        sink: Callable[[records.Record], None] | None = None,
        slow: frozenset[str] | None = None,
    ) -> None:
        self.answers = answers
        self._sink = sink
        """Also gets every record (e.g. a ``Recorder``'s ``write``, to make a recording without a server)."""
        self._builder = TimelineBuilder(timeline)
        self.timeline.target = self.timeline.target or "python -m inspector.demo"
        self.timeline.transport = self.timeline.transport or "stdio"
        self._stderr = stderr
        self._connect_error = connect_error
        self._delay = delay
        self._slow = slow
        """When given, only the calls about these names (tools, prompts, URIs) wait ``delay``."""
        self._step = step_ms / 1000.0
        self._t = 0.0
        self._ids = itertools.count(1)
        self._hostile = hostile
        self.tools: dict[str, JsonObject] = {}
        self.closed = False
        self._cancels: dict[int, asyncio.Event] = {}

    @property
    def timeline(self) -> Timeline:
        """The timeline being built."""
        return self._builder.timeline

    def _tick(self) -> float:
        self._t += self._step
        return self._t

    def _write(self, record: records.Record) -> None:
        if self._sink is not None:
            self._sink(record)
        self._builder.apply(record)

    async def _pause(self, call: int) -> None:
        """Wait ``delay`` for the "server", or until ``cancel(call)``; a cancel raises ``_Cancelled``."""
        found = self.timeline.call(call)
        if self._delay <= 0 or (self._slow is not None and (found is None or found.name not in self._slow)):
            return
        cancelled = self._cancels[call] = asyncio.Event()
        try:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(cancelled.wait(), self._delay)
        finally:
            self._cancels.pop(call, None)
        if cancelled.is_set():
            raise _Cancelled

    # ------------------------------------------------------------------------------------------------ the session API
    async def connect(self) -> EraDecision:
        """Write the stderr lines, then fail with ``connect_error`` or discover the (fake) server."""
        for line in self._stderr:
            self._write(records.stderr(self._tick(), line))
        if self._connect_error is not None:
            raise self._connect_error
        info = {
            "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "inspector-demo", "version": "0.1.0"}},
            "capabilities": {"tools": {}, "prompts": {}, "resources": {}},
            "supportedVersions": [VERSION],
            **CACHE,
        }
        await self._one_round("server/discover", {}, lambda: {"resultType": "complete", **info})
        self._write(records.era(self._tick(), "modern", VERSION, "server/discover answered"))
        era = self.timeline.era
        assert era is not None
        return era

    async def list_all(self, kind: CatalogKind) -> Outcome:
        """A one-page list."""
        method, field, items = {
            "tools": (
                "tools/list",
                "tools",
                [spec for spec, _ in TOOLS.values()] + ([HOSTILE_TOOL] if self._hostile else []),
            ),
            "prompts": (
                "prompts/list",
                "prompts",
                [{"name": "code_review", "title": "Code review", "arguments": [{"name": "code", "required": True}]}],
            ),
            "resources": (
                "resources/list",
                "resources",
                [{"uri": "demo://report", "name": "report", "mimeType": "text/plain"}],
            ),
            "templates": ("resources/templates/list", "resourceTemplates", []),
        }[kind]
        outcome = await self._one_round(method, {}, lambda: {"resultType": "complete", field: items, **CACHE})
        if kind == "tools":
            self.tools = {str(t["name"]): t for t in items}
        return outcome

    async def call_tool(self, name: str, arguments: JsonObject | None = None) -> Outcome:
        """Drive the canned flow of ``name`` through its rounds, asking ``answers`` for each input request."""
        params: JsonObject = {"name": name, "arguments": arguments or {}}
        flow = TOOLS.get(name, (None, None))[1]
        if flow is None:
            return await self._one_round("tools/call", params, lambda: text_result(f"unknown tool {name}", error=True))
        return await self._mrtr("tools/call", params, lambda given: flow(arguments or {}, given))

    async def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> Outcome:
        """A prompt with one message."""
        message = {
            "role": "user",
            "content": {"type": "text", "text": f"Review this code: {(arguments or {}).get('code', '')}"},
        }
        return await self._one_round(
            "prompts/get",
            {"name": name, "arguments": arguments or {}},
            lambda: {"resultType": "complete", "messages": [message]},
        )

    async def read_resource(self, uri: str) -> Outcome:
        """A text resource."""
        contents = [{"uri": uri, "mimeType": "text/plain", "text": "Quarterly report: all green."}]
        return await self._one_round(
            "resources/read", {"uri": uri}, lambda: {"resultType": "complete", "contents": contents}
        )

    async def cancel(self, call: int) -> bool:
        """Cancel a call waiting on its "server" (as the real session fails its request in flight)."""
        waiting = self._cancels.get(call)
        if waiting is None:
            return False
        waiting.set()
        return True

    async def close(self) -> None:
        """Write the closed record."""
        if not self.closed:
            self.closed = True
            self._write(records.closed(self._tick(), "closed by the user", 0))

    # ------------------------------------------------------------------------------------------------ plumbing
    def _start(self, method: str, params: JsonObject) -> int:
        index = len(self.timeline.calls) + 1
        self._write(records.call_started(self._tick(), index, method, params))
        return index

    def _end(self, call: int, status: CallStatus, detail: str = "", result: JsonObject | None = None) -> Outcome:
        self._write(records.call_ended(self._tick(), call, status, detail))
        found = self.timeline.call(call)
        assert found is not None
        return Outcome(found.index, status, result, None, detail)

    async def _round(self, call: int, method: str, params: JsonObject, result: JsonObject) -> JsonObject:
        request_id = next(self._ids)
        sent = {**params, "_meta": {"io.modelcontextprotocol/protocolVersion": VERSION}}
        request = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": sent}
        self._write(records.wire(self._tick(), "c2s", json.dumps(request), call=call))
        await self._pause(call)
        self._write(
            records.wire(self._tick(), "s2c", json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}))
        )
        return result

    async def _one_round(self, method: str, params: JsonObject, respond: Callable[[], JsonObject]) -> Outcome:
        call = self._start(method, params)
        try:
            result = await self._round(call, method, params, respond())
        except _Cancelled:
            return self._end(call, "cancelled", "cancelled by the user")
        except asyncio.CancelledError:
            self._end(call, "cancelled", "interrupted before the call finished")
            raise
        return self._end(call, "tool-error" if result.get("isError") else "complete", result=result)

    async def _mrtr(self, method: str, params: JsonObject, respond: Callable[[dict[str, Any]], JsonObject]) -> Outcome:
        call = self._start(method, params)
        try:
            return await self._drive(call, method, params, respond)
        except _Cancelled:
            return self._end(call, "cancelled", "cancelled by the user")
        except asyncio.CancelledError:
            self._end(call, "cancelled", "interrupted before the call finished")
            raise

    async def _drive(
        self, call: int, method: str, params: JsonObject, respond: Callable[[dict[str, Any]], JsonObject]
    ) -> Outcome:
        given: dict[str, Any] = {}
        sent = dict(params)
        for _ in range(10):
            result = await self._round(call, method, sent, respond(given))
            if result.get("resultType") != "input_required":
                return self._end(call, "tool-error" if result.get("isError") else "complete", result=result)
            responses: JsonObject = {}
            for key, request in dict(result.get("inputRequests") or {}).items():
                try:
                    if self.answers is None:
                        raise NoAnswer(f"no answer source for {key!r}")
                    answer = await self.answers.answer(key, request)
                except NoAnswer as missing:
                    return self._end(call, "no-answer", missing.reason)
                except CallCancelled:
                    return self._end(call, "cancelled", "the user cancelled the call")
                self._write(records.answer_given(self._tick(), call, key, answer.response, answer.source))
                responses[key] = answer.response
            given.update(responses)
            sent = {**params, "inputResponses": responses}
            if isinstance(result.get("requestState"), str):
                sent["requestState"] = result["requestState"]
        return self._end(call, "round-cap", "stopped after 10 rounds")


class _Cancelled(Exception):
    """``cancel(call)`` ended the wait for the "server"."""


def recorded_timeline(calls: int) -> Timeline:
    """A timeline of ``calls`` finished calls (every fifth one a three-round update_work_item), for benchmarks."""
    builder = TimelineBuilder()
    t = 0.0
    next_id = 1
    for index in range(1, calls + 1):
        t += 0.01
        builder.apply(records.call_started(t, index, "tools/call", {"name": "add", "arguments": {"a": index, "b": 1}}))
        rounds = 3 if index % 5 == 0 else 1
        state: str | None = None
        for round_ in range(rounds):
            params: JsonObject = {"name": "add", "_meta": {"io.modelcontextprotocol/protocolVersion": VERSION}}
            if state is not None:
                params["requestState"] = state
            request = {"jsonrpc": "2.0", "id": next_id, "method": "tools/call", "params": params}
            builder.apply(records.wire(t, "c2s", json.dumps(request), call=index))
            state = state_of({"r": round_}) if round_ < rounds - 1 else None
            asks: JsonObject = {"resultType": "input_required", "requestState": state}
            result: JsonObject = text_result(str(index + 1)) if state is None else asks
            t += 0.004
            builder.apply(records.wire(t, "s2c", json.dumps({"jsonrpc": "2.0", "id": next_id, "result": result})))
            next_id += 1
        builder.apply(records.call_ended(t, index, "complete"))
    builder.timeline.target = "recorded"
    builder.timeline.transport = "stdio"
    return builder.timeline
