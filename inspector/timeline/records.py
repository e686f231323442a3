"""The recording format: one JSON object per line; the same records build the live timeline and its replay. This
docstring is where the format is written down (the README points here); every record is made by a function below.

Line 1 is the header ``{"recording": "inspector", "version": 1, "target": ..., "transport": ..., "era": ...}``.
Every later line is a record with ``t`` (seconds since the session started) and ``dir``:

- ``"c2s"`` / ``"s2c"``: ``raw`` is the exact wire text, or ``msg``, the object, for a message we wrote ourselves
  (decided, not drift: its text is exactly its compact serialization, so the object is kept and the quote escaping
  saved, about a tenth of a recording; ``raw_text`` gives the exact text of either, and every reader goes through
  it); ``call`` (c2s) names the call it
  belongs to; ``http`` holds status and headers (secrets redacted), and for a body that was not JSON-RPC the body
  verbatim (``body``, cut at 1 MiB with ``body_truncated``); ``reply_to`` (s2c on HTTP) the id of the POST whose
  stream carried it; ``bytes`` (base64) the exact bytes when they were not valid UTF-8 (``raw`` is then their
  decoding with U+FFFD). ``note: "sse"`` marks an s2c record that is no message: SSE comment or keep-alive lines,
  or a block without data, verbatim in ``raw``.
- ``"stderr"``: ``raw`` is one stderr line of the server.
- ``"event"``: what the wire cannot tell: a call started (``event: "call"``, with ``resends``: the call it sent
  again, for an edited resend), an answer, its source and whose time it took (``"answer"``: ``party`` person,
  model or client, and ``model_ms`` when a model computed part of it; a recording made before them has neither:
  read as ``timeline.time_split.party_of`` says), a call ended (``"end"``), a finding the session raised
  (``"finding"``), the era decision (``"era"``), a transport fault (``"fault"``), the end of the connection
  (``"closed"``), the server instance a request is about to go to (``"instance"``, written before the request by
  ``inspector lab``), a call answered from the client's cache with nothing sent (``"cached"``: its ``result``,
  ``age_ms``, the call ``of`` which it was the result, ``pages``).
- ``"auth"``: one step of an OAuth login (an exchange or a decision), for the request that needed it:
  ``{"step", "outcome", "what", "why"?, "hint"?, "for"?, "http"?}``, ``for`` the JSON-RPC id of that request and
  ``http`` its exchange, redacted (made by ``auth_records``, read back by ``build.login_records``).
"""

from __future__ import annotations

import base64
from typing import Any, Final, Literal

from inspector.answers.source import Answer
from inspector.protocol.jsonrpc import JsonObject, RequestId
from inspector.protocol.wire_text import dumps
from inspector.timeline.http_info import HttpInfo
from inspector.timeline.model import Finding

FORMAT: Final = "inspector"
FORMAT_VERSION: Final = 1

Record = dict[str, Any]


def instant(t: float) -> float:
    """``t`` to the microsecond, as every record keeps it (the live timeline is built from this same float, so it
    equals the replay's). ``round(t * 1e6) / 1e6`` rather than ``round(t, 6)``: the same kind of float (its shortest
    repr has at most six decimals), in 150 ns instead of 390 (timeit), and a call makes three records; measured
    end to end by ``tests/perf/bench_instructions.py``."""
    return round(t * 1e6) / 1e6


def header(target: str, transport: str, era: str, *, started: str, inspector_version: str) -> Record:
    """The first line of a recording."""
    return {
        "recording": FORMAT,
        "version": FORMAT_VERSION,
        "target": target,
        "transport": transport,
        "era": era,
        "started": started,
        "inspector": inspector_version,
    }


def wire(
    t: float,
    direction: Literal["c2s", "s2c"],
    raw: str,
    *,
    call: int | None = None,
    http: HttpInfo | None = None,
    reply_to: RequestId | None = None,
    message: JsonObject | None = None,
    undecodable: bytes | None = None,
) -> Record:
    """A message that crossed the wire.

    ``message`` may be given only when ``raw`` is exactly ``wire_text.dumps(message)`` (a message we wrote ourselves):
    the record then keeps the object as ``msg`` instead of the escaped text, which ``raw_text`` turns back into the
    same bytes. That saves the quote escaping, about a tenth of a recording.
    """
    record: Record = {"t": instant(t), "dir": direction}
    if message is not None:
        record["msg"] = message
    else:
        record["raw"] = raw
    if call is not None:
        record["call"] = call
    if http is not None:
        record["http"] = http.to_json()
    if reply_to is not None:
        record["reply_to"] = reply_to
    if undecodable is not None:
        record["bytes"] = base64.b64encode(undecodable).decode("ascii")
    return record


def stream_note(t: float, text: str, *, http: HttpInfo | None = None, reply_to: RequestId | None = None) -> Record:
    """SSE lines that carry no message (comments, keep-alives, a block without data), verbatim."""
    record: Record = {"t": instant(t), "dir": "s2c", "raw": text, "note": "sse"}
    if http is not None:
        record["http"] = http.to_json()
    if reply_to is not None:
        record["reply_to"] = reply_to
    return record


def undecodable_bytes(record: Record) -> bytes | None:
    """The exact bytes a wire or stderr record kept because they were not valid UTF-8, else None."""
    value = record.get("bytes")
    if not isinstance(value, str):
        return None
    try:
        return base64.b64decode(value, validate=True)
    except ValueError:
        return None


def raw_text(record: Record) -> str | None:
    """The exact wire text of a wire or stderr record (``raw``, or ``msg`` serialized as we sent it), else None."""
    raw = record.get("raw")
    if isinstance(raw, str):
        return raw
    if "msg" in record:
        return dumps(record["msg"])
    return None


def stderr(t: float, text: str, undecodable: bytes | None = None) -> Record:
    """A stderr line of the server (``undecodable``: its exact bytes when they were not UTF-8)."""
    record: Record = {"t": instant(t), "dir": "stderr", "raw": text}
    if undecodable is not None:
        record["bytes"] = base64.b64encode(undecodable).decode("ascii")
    return record


def event(t: float, name: str, **fields: Any) -> Record:
    """A session event (see the module docstring for the names)."""
    return {"t": instant(t), "dir": "event", "event": name, **fields}


def call_started(t: float, call: int, method: str, params: JsonObject, *, resends: int | None = None) -> Record:
    """A call the user asked for; ``params`` are before ``_meta`` and MRTR fields; ``resends``: the call it sends
    again (edit and resend), so a replay shows it where it was shown live, marked ``↻ #N``."""
    if resends is not None:
        return event(t, "call", call=call, method=method, params=params, resends=resends)
    return event(t, "call", call=call, method=method, params=params)


def answer_given(
    t: float, call: int | None, key: str | None, answer: Answer, server_request_id: RequestId | None = None
) -> Record:
    """An answer to one input request, who gave it and whose time it took (``party``; ``model_ms``: the part a
    model computed, when there is one), ``call`` None: a server request of no call, a session row named by
    ``server_request_id``."""
    fields: JsonObject = {"call": call, "key": key, "response": answer.response, "source": answer.source}
    fields["party"] = answer.party
    if answer.model_ms is not None:
        fields["model_ms"] = round(answer.model_ms, 3)
    if server_request_id is not None:
        fields["server_request"] = server_request_id
    return event(t, "answer", **fields)


def call_ended(t: float, call: int, status: str, detail: str = "") -> Record:
    """The call ended with ``status`` (a CallStatus); ``detail`` only when there is one."""
    return (
        event(t, "end", call=call, status=status, detail=detail)
        if detail
        else event(t, "end", call=call, status=status)
    )


def finding(t: float, found: Finding) -> Record:
    """A finding the session raised (findings computed from the wire are recomputed on replay, not recorded)."""
    return event(
        t,
        "finding",
        code=found.code,
        severity=found.severity,
        message=found.message,
        hint=found.hint,
        call=found.call_index,
        round=found.round_index,
    )


def era(t: float, era_name: str, version: str, why: str) -> Record:
    """The era decision."""
    return event(t, "era", era=era_name, version=version, why=why)


def fault(
    t: float,
    kind: str,
    message: str,
    hint: str,
    *,
    request_id: RequestId | None = None,
    fatal: bool = False,
    http: HttpInfo | None = None,
) -> Record:
    """A transport fault."""
    fields: JsonObject = {"kind": kind, "message": message, "hint": hint, "fatal": fatal}
    if request_id is not None:
        fields["request_id"] = request_id
    if http is not None:
        fields["http"] = http.to_json()
    return event(t, "fault", **fields)


def closed(t: float, reason: str, returncode: int | None = None) -> Record:
    """The connection ended."""
    return event(t, "closed", reason=reason, returncode=returncode)


def instance(t: float, request_id: RequestId, name: str) -> Record:
    """The request ``request_id`` goes to the server instance ``name`` (``inspector lab``'s A or B); written before
    the request itself, so the round starts with it."""
    return event(t, "instance", request=request_id, instance=name)


def served_from_cache(t: float, call: int, result: JsonObject, *, age_ms: float, of: int | None, pages: int) -> Record:
    """Call ``call`` was answered from the client's cache (``session.result_cache``) with ``result``, ``age_ms``
    old, the result of call ``of`` (None: of an earlier session); nothing was sent, so a replay shows the same."""
    return event(t, "cached", call=call, result=result, age_ms=round(age_ms, 3), of=of, pages=pages)
