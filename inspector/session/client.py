"""``InspectorSession``: one connection to one server, in either era, feeding one Timeline.

The faces (TUI, headless CLI, replay re-runs) only call these methods and read ``timeline``. Every operation is a
Call on the timeline; MRTR rounds and legacy server requests become its rounds. Connecting and sending live in
``handshake.py``, the shared bookkeeping in ``session_base.py``.
"""

from __future__ import annotations

import asyncio

from inspector.answers.base import CallCancelled, NoAnswer
from inspector.protocol.headers import x_mcp_header_problems
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import CATALOG, INPUT_REQUIRED_METHODS, RESULT_TYPES, CatalogKind
from inspector.session import findings as lint
from inspector.session import heap
from inspector.session.errors import RequestFailed, RpcError
from inspector.session.handshake import SessionHandshake
from inspector.session.mrtr import (
    MalformedInputRequired,
    RoundCapReached,
    drive_input_required,
    is_input_required,
)
from inspector.session.outcome import Outcome
from inspector.session.session_base import ConnectError, EraMode, forbidden_input_required
from inspector.session.timeline import CallStatus
from inspector.session.url_elicitation import URL_ELICITATION_REQUIRED, elicitation_key, url_elicitations


class InspectorSession(SessionHandshake):
    """A live session. ``connect`` first; every other method returns an ``Outcome`` and never raises for the server."""

    async def list_all(self, kind: CatalogKind) -> Outcome:
        """Fetch every page of a catalog list; each page is a round of one call. ``result`` holds all items."""
        entry = CATALOG[kind]
        method, field = entry.list_method, entry.items_field
        call = self._start_call(method, {})
        items: list[JsonObject] = []
        cursor: str | None = None
        seen: set[str] = set()
        try:
            while True:
                params: JsonObject = {} if cursor is None else {"cursor": cursor}
                page = await self._rpc(call, method, params, None)
                if is_input_required(page):
                    return self._end_call(call, "failed", forbidden_input_required(method), result=page)
                found = page.get(field)
                if isinstance(found, list):
                    items.extend(item for item in found if isinstance(item, dict))
                next_cursor = page.get("nextCursor")
                if not isinstance(next_cursor, str) or next_cursor in seen:
                    break
                seen.add(next_cursor)
                cursor = next_cursor
        except RpcError as error:
            return self._end_call(call, "error", f"{error.code} {error.message}", error=error.to_json())
        except RequestFailed as failure:
            return self._request_failed(call, failure)
        except asyncio.CancelledError:
            self._interrupted(call)
            raise
        if kind == "tools":
            items = self._admit_tools(call, items)
        return self._end_call(call, "complete", result={field: items})

    def _admit_tools(self, call: int, tools: list[JsonObject]) -> list[JsonObject]:
        admitted: list[JsonObject] = []
        for tool in tools:
            schema = tool.get("inputSchema")
            problems = (
                x_mcp_header_problems(schema) if isinstance(schema, dict) and self.transport.kind == "http" else []
            )
            if problems:
                self._finding(
                    lint.make(
                        "invalid-x-mcp-header",
                        f"tool {tool.get('name')!r} left out: {'; '.join(problems)}",
                        call=call,
                        hint="Tools with an invalid x-mcp-header MUST be excluded from the tool list (SEP-2243).",
                    )
                )
                continue
            admitted.append(tool)
        self.tools = {str(tool.get("name")): tool for tool in admitted}
        return admitted

    async def call_tool(
        self, name: str, arguments: JsonObject | None = None, *, capabilities: JsonObject | None = None
    ) -> Outcome:
        """``tools/call``, driving MRTR rounds to the end."""
        params: JsonObject = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        return await self.request("tools/call", params, capabilities=capabilities)

    async def get_prompt(self, name: str, arguments: dict[str, str] | None = None) -> Outcome:
        """``prompts/get``, driving MRTR rounds to the end."""
        params: JsonObject = {"name": name}
        if arguments:
            params["arguments"] = arguments
        return await self.request("prompts/get", params)

    async def read_resource(self, uri: str) -> Outcome:
        """``resources/read``, driving MRTR rounds to the end."""
        return await self.request("resources/read", {"uri": uri})

    async def request(self, method: str, params: JsonObject, *, capabilities: JsonObject | None = None) -> Outcome:
        """Any request as one call; MRTR is driven for the three methods that allow it."""
        call = self._start_call(method, params)
        try:
            result = await self._first_round(call, method, params, capabilities)
            if is_input_required(result) and method in INPUT_REQUIRED_METHODS:

                async def answer(key: str, request: JsonObject) -> JsonObject:
                    return await self._answer(call, key, request)

                async def retry(responses: JsonObject | None, state: str | None) -> JsonObject:
                    again = dict(params)
                    if responses is not None:
                        again["inputResponses"] = responses
                    if state is not None:
                        again["requestState"] = state
                    return await self._rpc(call, method, again, capabilities)

                result = (
                    await drive_input_required(result, answer=answer, retry=retry, max_rounds=self.max_rounds)
                ).result
            elif is_input_required(result):
                return self._end_call(call, "failed", forbidden_input_required(method), result=result)
        except RpcError as error:
            return self._end_call(call, "error", f"{error.code} {error.message}", error=error.to_json())
        except RequestFailed as failure:
            return self._request_failed(call, failure)
        except MalformedInputRequired as bad:
            detail = f"{method} returned a malformed InputRequiredResult: {bad}; it was not retried"
            return self._end_call(call, "failed", detail, result=bad.result)
        except NoAnswer as missing:
            self._finding(lint.make("no-answer", missing.reason, call=call))
            return self._end_call(call, "no-answer", missing.reason)
        except CallCancelled:
            return self._end_call(call, "cancelled", "the user cancelled the call")
        except asyncio.CancelledError:
            self._interrupted(call)
            raise
        except RoundCapReached as cap:
            self._finding(lint.make("round-cap", f"still input_required after {cap.rounds} rounds", call=call))
            return self._end_call(
                call,
                "round-cap",
                f"stopped after {cap.rounds} rounds; raise --max-rounds if the server needs more",
                result=cap.last,
            )
        if self._answerer is not None and call in self._answerer.cancelled:
            return self._end_call(call, "cancelled", "the user cancelled the call", result=result)
        if self._answerer is not None and call in self._answerer.unanswered:
            return self._end_call(call, "no-answer", self._answerer.unanswered[call], result=result)
        result_type = result.get("resultType")
        if result_type is not None and result_type not in RESULT_TYPES:
            return self._end_call(
                call,
                "failed",
                f"{method} answered resultType {result_type!r}, which is not a result type: an invalid response",
                result=result,
            )
        status: CallStatus = "tool-error" if result.get("isError") is True else "complete"
        if result_type is None or result_type == "complete":
            return self._ended_by_wire(call, status, result)
        return self._end_call(call, status, result=result)

    async def _first_round(
        self, call: int, method: str, params: JsonObject, capabilities: JsonObject | None
    ) -> JsonObject:
        """The request; in the legacy era a -32042 (URL elicitation required) is surfaced as input requests: each
        URL is put to the answers source (consent, never a fetch) and, once all are accepted, the request is sent
        again with a new id, as a 2025-11-25 client does after the user finished in the browser."""
        for attempt in range(self.max_rounds):
            try:
                return await self._rpc(call, method, params, capabilities)
            except RpcError as error:
                wanted = url_elicitations(error.data)
                if error.code != URL_ELICITATION_REQUIRED or not self.legacy or not wanted:
                    raise
                if attempt + 1 >= self.max_rounds:
                    raise RoundCapReached(attempt + 1, error.to_json()) from None
                for index, elicitation in enumerate(wanted):
                    request: JsonObject = {"method": "elicitation/create", "params": {"mode": "url", **elicitation}}
                    response = await self._answer(call, elicitation_key(elicitation, index), request)
                    if response.get("action") != "accept":
                        raise RpcError(
                            error.code, f"{error.message} (the user answered {response.get('action')!r})", error.data
                        ) from None
        raise AssertionError("unreachable")  # pragma: no cover

    async def cancel(self, call: int) -> bool:
        """Cancel a call in flight (stdio: notifications/cancelled; HTTP: close its stream)."""
        return await self.connection.cancel_call(call) > 0

    async def close(self) -> None:
        """Close the connection (bounded), with every record written."""
        await self.connection.close()
        self.log.flush()
        heap.release_session()


__all__ = ["ConnectError", "EraMode", "InspectorSession"]
