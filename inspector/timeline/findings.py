"""Protocol lint: the findings an inspector raises about traffic, with the explanation a server author needs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import msgspec
from pydantic_core import ValidationError

from inspector.protocol.methods import INPUT_REQUEST_METHODS
from inspector.protocol.wire_text import dumps
from inspector.timeline.model import Finding, Severity
from inspector.timeline.result_models import result_validator

# code -> (severity, hint). The hint says why it matters; the message (built where raised) says what happened.
CATALOG: Mapping[str, tuple[Severity, str]] = {
    "missing-result-type": (
        "warning",
        '2026-07-28 results MUST carry resultType; clients treat a missing one as "complete" (legacy servers omit it).',
    ),
    "unknown-result-type": ("error", "A client MUST treat an unrecognised resultType as an invalid response."),
    "input-required-forbidden": (
        "error",
        "Only tools/call, prompts/get and resources/read may answer input_required (SEP-2322).",
    ),
    "malformed-input-required": (
        "error",
        "An InputRequiredResult needs inputRequests (a map of key -> {method, params}) and/or a string requestState.",
    ),
    "schema-invalid": ("warning", "The result does not match the official schema for the negotiated protocol version."),
    "unknown-response-id": ("error", "The server answered an id we never sent (or one we already gave up on)."),
    "duplicate-response-id": ("error", "The server answered the same request id twice; the second reply is ignored."),
    "invalid-message": ("error", "Every line on stdout must be one JSON-RPC message; logs belong on stderr."),
    "round-cap": (
        "error",
        "The server kept answering input_required; SDKs stop after 10 rounds. Raise --max-rounds if this is expected.",
    ),
    "no-answer": ("warning", "Pass --answers FILE, --on-missing decline|cancel|defaults, or --stub-model."),
    "answer-refused": ("warning", "The answer does not satisfy the requestedSchema, so it was not sent."),
    "timeout": ("error", "The server did not answer within the request timeout; a cancellation was sent."),
    "skill-unverified": (
        "error",
        "A fetched skill file MUST match its skills/list entry (size, sha256 digest, SKILL.md frontmatter); a host "
        "MUST NOT use unverified content (SEP-2640), so nothing more of the skill was read.",
    ),
    "transport": ("error", "The connection failed underneath JSON-RPC."),
    "disconnected": (
        "error",
        "The server went away (it exited or closed its output) before answering; its stderr usually says why.",
    ),
    "state-not-echoed": ("error", "A retry MUST echo requestState byte for byte (and omit it when there was none)."),
    "server-request-in-modern": (
        "error",
        "In 2026-07-28 servers MUST NOT send requests; input travels inside InputRequiredResult.",
    ),
    "unsupported-schema": (
        "warning",
        "requestedSchema must be a flat object of primitive properties; the form falls back to a JSON editor.",
    ),
    "era": ("info", "How the protocol era was chosen."),
    "listen-ack-not-first": (
        "error",
        "A server MUST acknowledge a subscription before anything else for it; the client cannot know what comes.",
    ),
    "listen-ack-twice": ("error", "A subscription is acknowledged once; a second acknowledgement leaves it ambiguous."),
    "listen-ack-differs": (
        "info",
        "The server honours only part of what was asked; what it left out will never arrive (re-check what you need).",
    ),
    "listen-ack-extra": (
        "error",
        "The acknowledgement lists kinds that were not asked for; servers MUST NOT send them.",
    ),
    "listen-unrequested": ("error", "A notification of a kind the subscription does not honour came on its stream."),
    "subscription-lost": (
        "warning",
        "The stream ended without the listen's response or a server cancel: the subscription was lost; listen again.",
    ),
    "late-response": (
        "info",
        "The server answered after the client stopped waiting (a cancel or a timeout); the answer is shown, unused.",
    ),
    "late-notification": (
        "info",
        "A notification came for a request that had already ended or been cancelled: the server went on working.",
    ),
    "progress-not-increasing": ("warning", "Progress MUST increase with each notification; a bar cannot go back."),
    "unsafe-url": (
        "error",
        "A URL with control or invisible characters can hide where it leads; it is never opened or copied as is.",
    ),
    "invalid-utf8": (
        "error",
        "MCP messages are UTF-8 JSON; each bad sequence is shown as U+FFFD, and the exact bytes are kept.",
    ),
    "unexpected-content-type": (
        "warning",
        "A Streamable HTTP server answers with application/json or text/event-stream; clients may refuse the rest.",
    ),
    "invalid-x-mcp-header": (
        "warning",
        "Tools with an invalid x-mcp-header MUST be excluded from the client's tool list (SEP-2243).",
    ),
    # Caching (2026-07-28, SEP-2549, digest §1.4; seed 004)
    "cache-hints-missing": (
        "warning",
        "Complete results of server/discover, the lists and resources/read carry ttlMs and cacheScope; without them "
        "a client reads ttlMs 0 and caches nothing, so every reconnect asks for the whole catalog again.",
    ),
    "cache-hints-on-input-required": (
        "warning",
        "An input_required result carries no cache hints: the final result comes from a retry, which MUST NOT be "
        "cached, and a question is not a result to keep.",
    ),
    "cache-scope-public-varies": (
        "warning",
        "A result that depends on the login must be cacheScope private: a public one MAY be shared across "
        "authorization contexts, so one user's result would be served to another.",
    ),
    "list-order-changed": (
        "warning",
        "Lists are ordered stably (seed 004): a host hands the catalog to the model in the order listed and its "
        "prompt cache matches the prompt byte for byte, so another order after a reconnect (or from another "
        "instance) misses that cache and the whole catalog is paid for again. Sort by name, never by a map's order.",
    ),
    # Tool results (seed 004, "Tool Result")
    "two-stories": (
        "info",
        "The text content is a JSON serialization of structuredContent, and the two disagree: a program reads one "
        "value and the model the other (seed 004). Make both from one internal result.",
    ),
    # The Tasks extension (ext-tasks specification/draft/tasks.md; 2025-11-25 basic/utilities/tasks.mdx)
    "malformed-task": (
        "error",
        "A task carries taskId, status, createdAt and lastUpdatedAt (2026: ttlMs too); the client follows it by them.",
    ),
    "task-forbidden": ("error", "Only tools/call may create a task; a CreateTaskResult on another method is invalid."),
    "task-not-declared": (
        "error",
        "A server MUST NOT answer a task to a request that did not declare the Tasks extension (-32021 instead).",
    ),
    "task-unrequested": ("error", "2025-11-25: a server creates a task only for a request that carried params.task."),
    "task-get-result-type": (
        "warning",
        "tasks/get answers resultType complete (its status says where the task is); ext-tasks' examples show task.",
    ),
    "unknown-task-status": (
        "error",
        "A task is working, input_required, completed, failed or cancelled; a client cannot act on another status.",
    ),
    "task-terminal-changed": (
        "error",
        "completed, failed and cancelled are terminal: a task's status never changes after one of them.",
    ),
    "task-input-key-reused": (
        "error",
        "Input request keys are unique for a task's whole life: one key asking two things makes its answer ambiguous.",
    ),
    "task-input-missing": (
        "error",
        "A task in input_required carries its inputRequests (tasks/get, notifications/tasks): else nobody can answer.",
    ),
    "task-result-missing": (
        "error",
        "tasks/get on a completed task inlines result (the call's own result): without it the outcome is lost.",
    ),
    "task-failed-not-rpc": (
        "warning",
        "failed is only for a JSON-RPC error {code, message}; a tool's isError result makes the task completed.",
    ),
    "task-error-missing": (
        "error",
        "tasks/get on a failed task inlines error (a JSON-RPC error object): without it nobody can say why.",
    ),
    "task-poll-interval": (
        "warning",
        "pollIntervalMs says how often to ask tasks/get; the inspector keeps to 50 ms - 5 min, so 0 is no busy loop "
        "and a huge hint no hang.",
    ),
    "task-timeout": (
        "warning",
        "A task that never ends would be polled for as long as the session lasts; after --task-timeout (10 min by "
        "default, 0: no limit) the inspector asks the server to cancel it.",
    ),
    "task-related-meta-missing": (
        "warning",
        "2025-11-25: tasks/result carries _meta io.modelcontextprotocol/related-task, naming the task it is for.",
    ),
}


def make(
    code: str, message: str, *, call: int | None = None, round_: int | None = None, hint: str | None = None
) -> Finding:
    """A finding from the catalog (unknown codes are warnings with no hint)."""
    severity, default_hint = CATALOG.get(code, ("warning", ""))
    return Finding(code, severity, message, default_hint if hint is None else hint, call, round_)


VERDICTS_KEPT: Final = 1024
"""How many validation verdicts ``schema_problems`` remembers, by the exact value of the result."""
VERDICT_TEXT_LIMIT: Final = 16_384
"""Results whose message is longer than this are validated every time (their text would cost more to keep)."""
_verdicts: dict[tuple[str, str, bytes | str], tuple[str, ...]] = {}
_packed = msgspec.msgpack.Encoder().encode
"""The key a result's verdict is remembered by: its MessagePack bytes, which tell every JSON value apart as its JSON
text does (an integer from a float, ``true`` from ``1``, ``NaN`` from ``null``, where msgspec's JSON encoder writes
``null`` for ``NaN``), and cost 0.3 us against 2.3 us for the JSON text of an echo result (timeit): 12,000 (5%) of a
load call's instructions (``tests/perf/bench_instructions.py --as-load --concurrency 10``: the README's perf table).
What it cannot pack (an integer beyond 64 bits, a lone surrogate) is keyed by its JSON text, a ``str``, which never
equals a ``bytes`` key."""


def schema_problems(method: str, version: str, result: Mapping[str, Any], *, size: int = 0) -> tuple[str, ...]:
    """Why ``result`` fails the official ``mcp-types`` model for (method, version); empty when it passes.

    The verdict is a function of the result's exact value, so the last ``VERDICTS_KEPT`` are remembered by it: a
    server that answers the same result again (a load run, a poll that did not change) is not validated again.
    ``tests/perf/bench_instructions.py`` counted 480,000 instructions per stdio ``tools/call`` with a validation each
    time and 456,000 with this (no validation at all: 387,000, most of the rest being the official models, imported
    for the first validation, in the collector's walks).
    ``size`` is the length of the message the result came in (0: unknown, remember nothing)."""
    if 0 < size <= VERDICT_TEXT_LIMIT:
        try:
            exact: bytes | str = _packed(result)
        except Exception:  # (OverflowError, UnicodeEncodeError: what MessagePack cannot hold)
            exact = dumps(result)
        key = (method, version, exact)
        known = _verdicts.get(key)
        if known is None:
            known = _verdicts[key] = _validate(method, version, result)
            if len(_verdicts) > VERDICTS_KEPT:
                del _verdicts[next(iter(_verdicts))]  # the oldest (dicts keep insertion order)
        return known  # (a tuple: shared, never changed)
    return _validate(method, version, result)


def _validate(method: str, version: str, result: Mapping[str, Any]) -> tuple[str, ...]:
    validator = result_validator(method, version, result.get("resultType") == "input_required")
    if validator is None:
        return ()
    try:
        validator.validate_python(result, by_name=False)
    except ValidationError as exc:
        problems = []
        for error in exc.errors()[:4]:
            where = ".".join(str(part) for part in error["loc"]) or "result"
            problems.append(f"{where}: {error['msg']}")
        return tuple(problems)
    return ()


def input_required_problems(result: Mapping[str, Any]) -> list[str]:
    """Shape problems of an InputRequiredResult that the generated models do not catch."""
    problems: list[str] = []
    requests = result.get("inputRequests")
    state = result.get("requestState")
    if requests is None and state is None:
        problems.append("neither inputRequests nor requestState is present")
    if state is not None and not isinstance(state, str):
        problems.append(f"requestState is a JSON {type(state).__name__}, not a string")
    if requests is not None:
        if not isinstance(requests, dict):
            problems.append("inputRequests is not an object")
        else:
            for key, entry in requests.items():
                if not isinstance(entry, dict):
                    problems.append(f"inputRequests[{key!r}] is not an object")
                elif entry.get("method") not in INPUT_REQUEST_METHODS:
                    problems.append(f"inputRequests[{key!r}].method is {entry.get('method')!r}")
    return problems
