"""Reads wire captures of other tools (one ``{"t", "dir", "msg", "http"?}`` object a line) as inspector records.

A capture knows messages but not calls, so calls are inferred as a client would have made them: every request
starts a call, except an MRTR retry (params carry ``inputResponses`` or ``requestState``) which continues the
previous call of the same method and name, and a ``tasks/*`` request about a task a call created, which is a round
of that call. The era comes from the first discover/initialize that succeeded.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from inspector.protocol.jsonrpc import JsonObject, classify
from inspector.protocol.wire_text import dumps
from inspector.timeline import records
from inspector.timeline.http_info import HttpInfo
from inspector.timeline.records import Record


def _http(raw: Any, direction: str) -> HttpInfo | None:
    if not isinstance(raw, dict):
        return None
    headers = raw.get("headers") if isinstance(raw.get("headers"), dict) else {}
    assert isinstance(headers, dict)
    text_headers = {str(k): str(v) for k, v in headers.items()}
    if direction == "c2s":
        return HttpInfo(
            method=str(raw.get("method", "POST")), url=str(raw.get("path", "")), request_headers=text_headers
        )
    status = raw.get("status")
    return HttpInfo(
        method=str(raw.get("req_method", "POST")),
        url=str(raw.get("req_path", "")),
        status=status if isinstance(status, int) else None,
        response_headers=text_headers,
        content_type=text_headers.get("content-type"),
    )


def _call_key(message: JsonObject) -> tuple[str, str | None]:
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    assert isinstance(params, dict)
    name = params.get("name", params.get("uri"))
    return str(message.get("method")), name if isinstance(name, str) else None


def _task_id(params: JsonObject) -> str:
    """The task a ``tasks/*`` request is about: its ``taskId``, or the related-task ``_meta`` of SEP-2322's
    ``tasks/input_response``."""
    task_id = params.get("taskId")
    if isinstance(task_id, str):
        return task_id
    meta = params.get("_meta")
    related = meta.get("io.modelcontextprotocol/related-task") if isinstance(meta, dict) else None
    task_id = related.get("taskId") if isinstance(related, dict) else None
    return task_id if isinstance(task_id, str) else ""


def _created_task(message: JsonObject | None) -> str | None:
    """The id of the task a response created (2026 ``resultType: "task"``, 2025 ``{"task": {...}}``)."""
    result = message.get("result") if message is not None else None
    if not isinstance(result, dict):
        return None
    task = result if result.get("resultType") == "task" else result.get("task")
    task_id = task.get("taskId") if isinstance(task, dict) else None
    return task_id if isinstance(task_id, str) else None


def records_from_capture(lines: Iterable[str]) -> list[Record]:
    """Records (header excluded) that build the same timeline the captured client saw."""
    out: list[Record] = []
    calls = 0
    last_call_of: dict[tuple[str, str | None], int] = {}
    in_flight: list[Any] = []
    era_known = False
    pending_era: dict[Any, str] = {}
    call_of_id: dict[Any, int | None] = {}
    call_of_task: dict[str, int] = {}
    for line in lines:
        if not line.strip():
            continue
        entry = json.loads(line)
        direction = entry.get("dir")
        message = entry.get("msg")
        if message is None:
            continue  # an HTTP exchange without a JSON-RPC body (GET stream open, 202, DELETE): nothing to build
        t = float(entry.get("t", 0.0))
        raw = dumps(message) if not isinstance(message, str) else message
        http = _http(entry.get("http"), str(direction))
        if direction == "c2s":
            parsed = classify(raw)
            call: int | None = None
            if parsed.kind == "request" and parsed.message is not None:
                key = _call_key(parsed.message)
                params = parsed.message.get("params") if isinstance(parsed.message.get("params"), dict) else {}
                assert isinstance(params, dict)
                retry = ("inputResponses" in params or "requestState" in params) and key in last_call_of
                task_call = call_of_task.get(_task_id(params)) if key[0].startswith("tasks/") else None
                if task_call is not None:
                    call = task_call
                elif retry:
                    call = last_call_of[key]
                else:
                    calls += 1
                    call = calls
                    user_params = {
                        k: v for k, v in params.items() if k not in ("_meta", "inputResponses", "requestState")
                    }
                    out.append(records.call_started(t, call, key[0], user_params))
                    last_call_of[key] = call
                in_flight.append(parsed.id)
                call_of_id[parsed.id] = call
                if parsed.method in ("server/discover", "initialize"):
                    pending_era[parsed.id] = parsed.method
            elif parsed.kind == "notification" and parsed.message is not None:
                params = parsed.message.get("params") if isinstance(parsed.message.get("params"), dict) else {}
                assert isinstance(params, dict)
                # notifications/cancelled belongs to the call it cancels; others to the newest call
                call = call_of_id.get(params.get("requestId"), calls or None)
            out.append(records.wire(t, "c2s", raw, call=call, http=http))
        elif direction == "s2c":
            parsed = classify(raw)
            reply_to = in_flight[-1] if in_flight and http is not None and http.method == "POST" else None
            out.append(records.wire(t, "s2c", raw, http=http, reply_to=reply_to if parsed.kind != "response" else None))
            if parsed.kind in ("response", "error") and parsed.id in in_flight:
                in_flight.remove(parsed.id)
            created = _created_task(parsed.message) if parsed.kind == "response" else None
            owner = call_of_id.get(parsed.id)
            if created is not None and owner is not None:
                call_of_task[created] = owner
            if not era_known and parsed.kind == "response" and parsed.id in pending_era and parsed.message is not None:
                result = parsed.message.get("result")
                if isinstance(result, dict):
                    if pending_era[parsed.id] == "initialize":
                        out.append(records.era(t, "legacy", str(result.get("protocolVersion")), "captured initialize"))
                        era_known = True
                    elif "2026-07-28" in (result.get("supportedVersions") or []):
                        out.append(records.era(t, "modern", "2026-07-28", "captured server/discover"))
                        era_known = True
    return out
