"""Legacy era (2024-11-05 .. 2025-11-25): the ``initialize`` handshake and answering server->client requests.

Server requests (``elicitation/create``, ``sampling/createMessage``, ``roots/list``) are answered through the same
answers interface as MRTR input requests, with no key: they become rounds of the call they interrupted.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from inspector.answers.roots import no_roots_given
from inspector.answers.source import AnswerRefused, AnswerSource, CallCancelled, NoAnswer, ask
from inspector.protocol.envelope import CLIENT_INFO, LATEST_LEGACY, LEGACY_VERSIONS, TASKS_EXTENSION, declares_tasks
from inspector.protocol.jsonrpc import JsonObject, WireParse, error_response, result_response
from inspector.protocol.methods import INPUT_REQUEST_METHODS, ROOTS
from inspector.session.connection import Connection
from inspector.timeline import findings as lint
from inspector.timeline import records
from inspector.timeline.model import Call

USER_REJECTED = -1  # what the official SDKs send when the user declines a sampling request


def legacy_capabilities(modern: JsonObject) -> JsonObject:
    """Session capabilities for ``initialize`` from our per-request ones: roots gains ``listChanged``, the Tasks
    extension becomes 2025-11-25's ``tasks`` capability (listing and cancelling; never ``tasks.requests``: the
    inspector hosts no tasks of the server's), and the other extensions (Skills) stay under ``extensions``, where
    2025-11-25 servers that offer them look."""
    caps: JsonObject = {}
    for key, value in modern.items():
        if key == "extensions":
            others = {k: v for k, v in value.items() if k != TASKS_EXTENSION} if isinstance(value, dict) else {}
            if others:
                caps["extensions"] = others
            continue
        caps[key] = dict(value) if isinstance(value, dict) else value
    if "roots" in caps:
        caps["roots"] = {"listChanged": True}
    if declares_tasks(modern):
        caps["tasks"] = {"list": {}, "cancel": {}}
    return caps


def initialize_params(capabilities: JsonObject, version: str = LATEST_LEGACY) -> JsonObject:
    """Params of the ``initialize`` request."""
    return {
        "protocolVersion": version,
        "capabilities": legacy_capabilities(capabilities),
        "clientInfo": dict(CLIENT_INFO),
    }


def accepted_version(result: JsonObject) -> str | None:
    """The version the server chose, when we speak it."""
    version = result.get("protocolVersion")
    return version if isinstance(version, str) and version in LEGACY_VERSIONS else None


class ServerRequestAnswerer:
    """Answers legacy server->client requests on behalf of the call they interrupted."""

    def __init__(
        self,
        connection: Connection,
        answers: AnswerSource,
        version: str,
        cancel: Callable[[int], Awaitable[object]] | None = None,
    ) -> None:
        self.connection = connection
        self.answers = answers
        self.version = version
        self.cancel = cancel if cancel is not None else connection.cancel_call
        """How a call is cancelled when the person cancels it at one of its server requests: the session's cancel
        (a 2025-11-25 task's ``tasks/cancel``, whose questions come on its ``tasks/result``; anything else on the
        wire), so that Escape on a task's question cancels the task on the server, not only on the screen."""
        self.unanswered: dict[int, str] = {}
        """Calls whose server request found no answer, with the reason (they end as no-answer, exit 5)."""
        self.cancelled: set[int] = set()

    async def __call__(self, parsed: WireParse, owner: Call | None) -> None:
        message = parsed.message or {}
        method = parsed.method or ""
        request_id = parsed.id
        call = owner.index if owner is not None else None
        params = message.get("params")
        log = self.connection.log
        if method == "ping":
            await self._reply(call, result_response(request_id if request_id is not None else 0, {}))
            return
        if method not in INPUT_REQUEST_METHODS:
            await self._reply(call, error_response(request_id, -32601, f"Method not found: {method}"))
            return
        request: JsonObject = {"method": method}
        if isinstance(params, dict):
            request["params"] = params
        try:
            answer = await ask(self.answers, None, request, log.clock)
        except CallCancelled:
            if call is not None:
                self.cancelled.add(call)
            await self._reply(call, error_response(request_id, USER_REJECTED, "The user cancelled the request"))
            if call is not None:
                await self.cancel(call)
            return
        except NoAnswer as missing:
            if call is None and method == ROOTS:
                # A session's roots/list (no call asked for it) with no roots configured: an empty list, never a
                # path the user did not give (the current folder would tell the server where they work).
                answer = no_roots_given()
            else:
                if call is not None:
                    self.unanswered[call] = missing.reason
                code = "answer-refused" if isinstance(missing, AnswerRefused) else "no-answer"
                log.write(records.finding(log.now(), lint.make(code, f"{method}: {missing.reason}", call=call)))
                reason = f"No answer available: {missing.reason}"
                await self._reply(call, error_response(request_id, USER_REJECTED, reason))
                return
        log.write(records.answer_given(log.now(), call, None, answer, server_request_id=request_id))
        await self._reply(call, result_response(request_id if request_id is not None else 0, answer.response))

    async def _reply(self, call: int | None, message: dict[str, Any]) -> None:
        await self.connection.send_response(call, message, protocol_version=self.version)
