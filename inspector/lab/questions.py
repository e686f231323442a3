"""Seed 004's four questions, answered from what the lab saw: for each piece of cross-request state, who keeps
it, by which handle it is found, when it expires, how it is recovered after a disconnect.

Three kinds are seen on the wire: a requestState (held by the client, echoed on the retry), a task id (held by the
server, with ``ttlMs``), and a business handle (an id a result returned that a later call sent back as an
argument). A 2025-era ``Mcp-Session-Id`` is the fourth: a protocol session held by one server instance.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Final

from inspector.lab import evidence
from inspector.lab.alterations import REPLAYED
from inspector.lab.baseline import Baseline, Reference
from inspector.lab.lab_report import HeldState, Row
from inspector.protocol.sanitize import one_line

MIN_HANDLE: Final = 6
"""A string shorter than this is too likely to match by chance (``"ok"``, ``"red"``) to call it a handle."""


def _verdicts(rows: list[Row], group: str, label: str) -> str:
    mine = [r.verdict for r in rows if r.group == group and r.check.startswith(label)]
    if not mine:
        return "not tried"
    return "worked here" if all(v == "pass" for v in mine) else "failed here (see the rows above)"


def _strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every (path, string) in a JSON value, JSON inside strings included."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{path}.{key}" if path else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, f"{path}[{index}]")
    elif isinstance(value, str):
        stripped = value.strip()
        if stripped[:1] in ("{", "["):
            try:
                yield from _strings(json.loads(stripped), path)
                return
            except ValueError:
                pass
        yield path, value


def _handles(references: list[Reference]) -> Iterator[tuple[Reference, str, Reference, str, str]]:
    """(made by, where in its result, used by, which argument, the value) for ids sent back later."""
    for i, maker in enumerate(references):
        result = maker.ran.outcome.result or {}
        made = {value: path for path, value in _strings(result) if len(value) >= MIN_HANDLE}
        for user in references[i + 1 :]:
            for arg_path, value in _strings(user.call.params.get("arguments", {})):
                if value in made:
                    yield maker, made[value], user, arg_path, value


def held_states(baseline: Baseline, rows: list[Row], *, session_ids: list[str]) -> list[HeldState]:
    """The four answers for every piece of cross-request state the all-on-A runs showed."""
    found: list[HeldState] = []
    told: set[str] = set()
    for reference in baseline.references:
        if reference.call.label in told:
            continue  # (the same tool called again with other arguments keeps its state the same way)
        told.add(reference.call.label)
        states = [r.request_state for r in reference.ran.call.rounds if r.request_state is not None]
        if states:
            value = states[0].value
            replayed = [r for r in rows if r.group == "tamper" and r.check.startswith(reference.call.label)
                        and r.experiment == REPLAYED]  # fmt: skip
            expires = "the wire does not say" + (
                "" if evidence.readable(value) else " (a sealed state may carry its own)"
            )
            if replayed and replayed[0].verdict == "warn":
                expires += "; still accepted after its call had completed"
            found.append(
                HeldState(
                    f"requestState of {reference.call.label} (minted in {len(states)} round"
                    f"{'' if len(states) == 1 else 's'})",
                    f"the client: {evidence.state_form(value)}, {_size(len(value))}",
                    "echoed on the retry of the same request (a new JSON-RPC id)",
                    expires,
                    f"the client retries the original request with it, on any instance: "
                    f"{_verdicts(rows, 'stateless 2', reference.call.label)}",
                )
            )
        span = reference.ran.call.task
        if span is not None:
            found.append(
                HeldState(
                    f"task of {reference.call.label}",
                    "the server, by taskId",
                    f"taskId {one_line(span.task_id, 40)} (tasks/get)",
                    f"ttlMs {span.ttl_ms} after it was made" if span.ttl_ms is not None else "no ttlMs: unlimited",
                    f"tasks/get by id from a new client: {_verdicts(rows, 'stateless 3', reference.call.label)}",
                )
            )
    for maker, made_at, user, arg_path, value in _handles(baseline.references):
        found.append(
            HeldState(
                f"handle {one_line(value, 40)!r} ({made_at} of {maker.call.label}'s result)",
                "the server (a business handle: it must define its owner, TTL and cleanup)",
                f"the argument {arg_path} of {user.call.label}",
                "the wire does not say",
                f"sent again as a tool argument: {_verdicts(rows, 'stateless 1', user.call.label)} on B",
            )
        )
    for session_id in session_ids[:1]:
        found.append(
            HeldState(
                "a 2025-era protocol session",
                "the one server instance that answered initialize",
                f"the Mcp-Session-Id header ({len(session_id)} chars)",
                "when that instance forgets it (404)",
                "initialize again: nothing carries over to another instance",
            )
        )
    return found


def _size(length: int) -> str:
    """A state's size as the report says it: a sealed state's length moves by a few characters with its time
    stamps from run to run, so past 100 it is given to the nearest ten (the same report every run)."""
    return f"{length} chars" if length < 100 else f"about {round(length, -1)} chars"
