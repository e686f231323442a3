"""``ScriptedSession``: a session without a server, for tests, the dev runner and benchmarks.

It writes the same records the real session writes (``inspector.session.records``) through the same
``TimelineBuilder``, so the timeline it produces is shaped exactly like a live one; the "server" is a handful of
canned flows that mirror the demo server's (``update_work_item`` asks two questions across three rounds).
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from inspector.answers.base import AnswerSource, CallCancelled, NoAnswer
from inspector.protocol.jsonrpc import JsonObject
from inspector.session import records
from inspector.session.builder import TimelineBuilder
from inspector.session.outcome import Outcome

if TYPE_CHECKING:
    from inspector.session.timeline import CallStatus, EraDecision, Timeline
    from inspector.ui.session_port import ListKind

VERSION = "2026-07-28"
CACHE: JsonObject = {"cacheScope": "private", "ttlMs": 0}
Flow = Callable[[JsonObject, dict[str, Any]], JsonObject]
"""(arguments, answers so far by key) -> the result of this round."""


def _state(data: dict[str, Any]) -> str:
    return base64.b64encode(json.dumps(data, separators=(",", ":")).encode()).decode()


def _form(message: str, prop: str, schema: JsonObject) -> JsonObject:
    return {
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": message,
            "requestedSchema": {"type": "object", "properties": {prop: schema}, "required": [prop]},
        },
    }


def _text(text: str, *, error: bool = False) -> JsonObject:
    result: JsonObject = {"resultType": "complete", "content": [{"type": "text", "text": text}]}
    if error:
        result["isError"] = True
    return result


def _accepted(answers: dict[str, Any], key: str, field: str) -> Any:
    answer = answers.get(key)
    if isinstance(answer, dict) and answer.get("action") == "accept" and isinstance(answer.get("content"), dict):
        return answer["content"].get(field)
    return None


def update_work_item(args: JsonObject, answers: dict[str, Any]) -> JsonObject:
    """Two questions over three rounds, the resolution carried in requestState."""
    item = args.get("workItemId", 0)
    resolution = _accepted(answers, "resolution", "resolution")
    if resolution is None:
        enum = {"type": "string", "title": "Resolution", "enum": ["Fixed", "Won't Fix", "Duplicate", "By Design"]}
        return {
            "resultType": "input_required",
            "inputRequests": {"resolution": _form(f"How was work item #{item} resolved?", "resolution", enum)},
        }
    duplicate = _accepted(answers, "duplicate_of", "duplicate_of")
    if resolution == "Duplicate" and duplicate is None:
        ask = _form(
            f"Work item #{item} duplicates which item?",
            "duplicate_of",
            {"type": "integer", "title": "Duplicate of", "minimum": 1},
        )
        return {
            "resultType": "input_required",
            "inputRequests": {"duplicate_of": ask},
            "requestState": _state({"resolution": resolution}),
        }
    suffix = f" of #{duplicate}" if duplicate is not None else ""
    return _text(f"Work item #{item} resolved as {resolution}{suffix}.")


def get_weather(args: JsonObject, answers: dict[str, Any]) -> JsonObject:
    """One question, then the weather."""
    login = _accepted(answers, "github_login", "name")
    if login is None:
        ask = _form("Please provide your GitHub username", "name", {"type": "string"})
        return {
            "resultType": "input_required",
            "inputRequests": {"github_login": ask},
            "requestState": _state({"location": args.get("location")}),
        }
    return _text(f"Weather in {args.get('location')} for @{login}: 22°C, clear skies.")


def heavy_report(args: JsonObject, answers: dict[str, Any]) -> JsonObject:
    """A result of about 5 MB."""
    rows = [{"row": i, "value": f"item-{i:06d}", "ok": i % 3 != 0} for i in range(int(args.get("rows", 100_000)))]
    return {
        "resultType": "complete",
        "content": [{"type": "text", "text": "report"}],
        "structuredContent": {"rows": rows},
    }


def add(args: JsonObject, answers: dict[str, Any]) -> JsonObject:
    """a + b."""
    return _text(str(int(args.get("a", 0)) + int(args.get("b", 0))))


def _schema(**props: JsonObject) -> JsonObject:
    return {"type": "object", "properties": props, "required": list(props)}


TOOLS: dict[str, tuple[JsonObject, Flow]] = {
    "get_weather": (
        {
            "name": "get_weather",
            "title": "Weather",
            "description": "Weather for a location; asks your GitHub login first.",
            "inputSchema": _schema(location={"type": "string"}),
            "annotations": {"readOnlyHint": True},
        },
        get_weather,
    ),
    "update_work_item": (
        {
            "name": "update_work_item",
            "description": "Resolve a work item (two questions, three rounds).",
            "inputSchema": _schema(workItemId={"type": "integer"}, fields={"type": "object"}),
            "annotations": {"destructiveHint": True},
        },
        update_work_item,
    ),
    "heavy_report": (
        {"name": "heavy_report", "description": "A 5 MB result.", "inputSchema": {"type": "object", "properties": {}}},
        heavy_report,
    ),
    "add": (
        {
            "name": "add",
            "title": "Add",
            "description": "Adds two integers.",
            "inputSchema": _schema(a={"type": "integer"}, b={"type": "integer"}),
            "annotations": {"readOnlyHint": True, "idempotentHint": True},
        },
        add,
    ),
}
HOSTILE_TOOL: JsonObject = {
    "name": "[bold red]x",
    "description": "[link=https://evil.example]click[/link] \x1b[2J\x1b[31mred",
    "inputSchema": {"type": "object"},
}


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
    ) -> None:
        self.answers = answers
        self._builder = TimelineBuilder(timeline)
        self.timeline.target = self.timeline.target or "python -m inspector.demo"
        self.timeline.transport = self.timeline.transport or "stdio"
        self._stderr = stderr
        self._connect_error = connect_error
        self._delay = delay
        self._step = step_ms / 1000.0
        self._t = 0.0
        self._ids = itertools.count(1)
        self._hostile = hostile
        self.tools: dict[str, JsonObject] = {}
        self.closed = False

    @property
    def timeline(self) -> Timeline:
        """The timeline being built."""
        return self._builder.timeline

    def _tick(self) -> float:
        self._t += self._step
        return self._t

    def _write(self, record: records.Record) -> None:
        self._builder.apply(record)

    async def _pause(self) -> None:
        await asyncio.sleep(self._delay)

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

    async def list_all(self, kind: ListKind) -> Outcome:
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
            return await self._one_round("tools/call", params, lambda: _text(f"unknown tool {name}", error=True))
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
        """Nothing is ever in flight long enough to cancel."""
        return False

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
        return Outcome(found, status, result, None, detail)

    async def _round(self, call: int, method: str, params: JsonObject, result: JsonObject) -> JsonObject:
        request_id = next(self._ids)
        sent = {**params, "_meta": {"io.modelcontextprotocol/protocolVersion": VERSION}}
        request = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": sent}
        self._write(records.wire(self._tick(), "c2s", json.dumps(request), call=call))
        await self._pause()
        self._write(
            records.wire(self._tick(), "s2c", json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}))
        )
        return result

    async def _one_round(self, method: str, params: JsonObject, respond: Callable[[], JsonObject]) -> Outcome:
        call = self._start(method, params)
        result = await self._round(call, method, params, respond())
        return self._end(call, "tool-error" if result.get("isError") else "complete", result=result)

    async def _mrtr(self, method: str, params: JsonObject, respond: Callable[[dict[str, Any]], JsonObject]) -> Outcome:
        call = self._start(method, params)
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
            state = _state({"r": round_}) if round_ < rounds - 1 else None
            result: JsonObject = (
                _text(str(index + 1)) if state is None else {"resultType": "input_required", "requestState": state}
            )
            t += 0.004
            builder.apply(records.wire(t, "s2c", json.dumps({"jsonrpc": "2.0", "id": next_id, "result": result})))
            next_id += 1
        builder.apply(records.call_ended(t, index, "complete"))
    builder.timeline.target = "recorded"
    builder.timeline.transport = "stdio"
    return builder.timeline
