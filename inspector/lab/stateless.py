"""Seed 004's random-routing test, groups 1 and 2, on the main session (one Connection across A and B).

1. ``server/discover`` went to A at connect; now ``tools/list`` and every call go to B, all of their rounds. B must
   answer from what each request carries alone: the same catalog, the same results as the all-on-A run.
2. Every multi-round call again, its rounds alternating between the instances (A, B, A...; then B, A, B...), each
   retry with a new id: the final result must match the all-on-A run. A failure says what the rounds point to
   (``evidence``).
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable

from inspector.lab import evidence
from inspector.lab.baseline import Baseline, Reference, compared
from inspector.lab.lab_report import Row
from inspector.lab.lab_session import LabSession, Ran
from inspector.lab.plan import LabOptions
from inspector.lab.routing import Route
from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import CATALOG, CatalogKind
from inspector.protocol.sanitize import one_line
from inspector.replay.rerun import Comparison
from inspector.timeline.model import Round

AddRow = Callable[[Row], None]
OTHER_ORDER = (
    "the same tools in another order: a host's prompt cache would not survive a reconnect (seed 004: lists are "
    "ordered stably)"
)
STABLE_ORDER = "sort the list the same way on every instance (by name, say), never by a map or set of this process"
SAME_CATALOG = (
    "tools/list MUST NOT vary per connection (2026-07-28): every instance must serve the same catalog (two "
    "different lists are two versions: see --server OLD --server NEW)"
)


def _verdict_text(comparison: Comparison) -> str:
    return evidence.describe(comparison.differences)


async def group_one(main: LabSession, baseline: Baseline, options: LabOptions, add: AddRow) -> None:
    """tools/list and each call on B, all rounds."""
    legacy = main.session.negotiated is not None and main.session.negotiated.legacy
    main.answers.fresh()
    listing = await main.list_on("B", "tools")
    if baseline.tools is not None:
        comparison = compared(baseline.tools.call, listing, options)
        if not comparison.matches and reordered(baseline.tools.outcome.result, listing.outcome.result, "tools"):
            add(Row("stateless 1", "tools/list on B", listing.route, "fail", OTHER_ORDER, STABLE_ORDER,
                    call=listing.call.index))  # fmt: skip
        elif comparison.matches:
            add(Row("stateless 1", "tools/list on B", listing.route, "pass", "the same tools as A's",
                    call=listing.call.index))  # fmt: skip
        else:
            cause = evidence.alone_cause(listing.call, legacy, listing.outcome.detail)
            why, hint = cause if cause is not None else (f"B's list differs: {_verdict_text(comparison)}", SAME_CATALOG)
            add(Row("stateless 1", "tools/list on B", listing.route, "fail", why, hint, call=listing.call.index))
    for reference in baseline.references:
        if not reference.usable:
            continue
        main.answers.same_as(reference.ran.call)
        live = await main.run(reference.call, "B")
        add(_judged_alone(reference, live, options, legacy))


def reordered(reference: JsonObject | None, live: JsonObject | None, kind: CatalogKind) -> bool:
    """Whether two list results hold the same items (each whole, byte for byte as JSON) in another order."""
    field = CATALOG[kind].items_field
    before, after = (result.get(field) if result is not None else None for result in (reference, live))
    if not isinstance(before, list) or not isinstance(after, list) or before == after:
        return False
    canonical = [[json.dumps(item, sort_keys=True) for item in items] for items in (before, after)]
    return sorted(canonical[0]) == sorted(canonical[1])


def _judged_alone(reference: Reference, live: Ran, options: LabOptions, legacy: bool) -> Row:
    label = f"{reference.call.label} on B"
    comparison = compared(reference.ran.call, live, options)
    if comparison.matches:
        why = "the same result as on A, from what the requests carried alone"
        return Row("stateless 1", label, live.route, "pass", why, call=live.call.index)
    cause = evidence.alone_cause(live.call, legacy, live.outcome.detail, reference.ran.call)
    if cause is None:
        cause = (
            f"B answers otherwise than A: {_verdict_text(comparison)}",
            "B must need nothing but the request: no data from A's process, the same version of the tool",
        )
    return Row("stateless 1", label, live.route, "fail", cause[0], cause[1], call=live.call.index)


async def group_two(main: LabSession, baseline: Baseline, options: LabOptions, add: AddRow) -> None:
    """Every multi-round call with its retries crossing instances, both ways."""
    crossing = [r for r in baseline.references if r.usable and r.multi_round]
    single = [r.call.label for r in baseline.references if r.usable and not r.multi_round]
    if not crossing:
        why = "no call took more than one round: no retry to send to the other instance"
        if single:
            why += f" ({', '.join(single)})"
        add(Row("stateless 2", "multi-round calls", "", "skip", why, "add a --call that answers input_required"))
        return
    for reference in crossing:
        for first in main.routed.names:
            main.answers.same_as(reference.ran.call)
            live = await main.run(reference.call, first, alternate=True)
            add(_judged_crossing(reference, live, options, Route(first, alternate=True).label(main.routed.names)))


def _task_followed(rounds: list[Round]) -> str:
    """What the call's task rounds show when they went to both instances (the task lives where both find it)."""
    on_tasks = [r for r in rounds if r.method.startswith("tasks/")]
    if len({r.instance for r in on_tasks}) < 2:
        return ""
    counts = ", ".join(f"{n} {method}" for method, n in Counter(r.method for r in on_tasks).items())
    return f"; its task was followed on both instances ({counts})"


def _judged_crossing(reference: Reference, live: Ran, options: LabOptions, route_label: str) -> Row:
    label = f"{reference.call.label} · {route_label}"
    comparison = compared(reference.ran.call, live, options)
    rounds = [r for r in live.call.rounds if r.kind == "request"]
    if comparison.matches:
        crossings = sum(1 for a, b in itertools.pairwise(rounds) if a.instance != b.instance)
        carried = sum(1 for r in rounds if r.echoed_state is not None)
        crossed = f"{crossings} crossing{'' if crossings == 1 else 's'}"
        why = (
            f"the same result as on A after {crossed}; {carried} retr{'y' if carried == 1 else 'ies'} carried a "
            "requestState the other instance had minted"
            if carried
            else f"the same result as on A after {crossed} (no requestState: the answers alone sufficed)"
        )
        return Row("stateless 2", label, live.route, "pass", why + _task_followed(rounds), call=live.call.index)
    cause = evidence.crossing_cause(live.call, reference.ran.call)
    if cause is None:
        detail = f" ({one_line(live.outcome.detail, 120)})" if live.outcome.detail else ""
        cause = (
            f"after crossing, the call ends otherwise{detail}: {_verdict_text(comparison)}",
            evidence.KEEP_IT_IN_STATE,
        )
    return Row("stateless 2", label, live.route, "fail", cause[0], cause[1], call=live.call.index)
