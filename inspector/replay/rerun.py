"""Re-run a recording against a live server and compare each call's final result with the recorded one.

Which calls: every call the user made (``tools/call``, ``prompts/get``, ``resources/read`` and any other request)
is re-driven with the same params, in the recorded order. ``server/discover`` and ``initialize`` are never re-run
(the live session does its own handshake); the catalog lists (``tools/list`` ...) only with ``lists=True``, and
then compared as the whole list of items over every page. The live session lists tools once before the first call,
as ``inspector call`` does (HTTP needs the tool schemas for the Mcp-Param headers); that listing is not compared.

What is compared: the call's status, and its final result (or JSON-RPC error) with ``diff.diff``: requestState
never, ``_meta`` only when asked, ignore patterns as given. Round counts and questions the recording did not have
are notes: shown, but not differences, since the contract is the final result.

A subscription (``subscriptions/listen``, 2025 ``resources/subscribe``) is re-run with what it asked for, for as
long as it lasted when recorded, then ended by the client (it used to wait for a reply a listen never gets). A call
the user cancelled is not re-run: run to its end it would always differ, so it is reported "not comparable".

Each call is re-run from its ``RecordedCall`` (``recorded_call.py``: its request, answers and ending as data), which
is also what a module of ``export --as pytest`` holds: ``redrive`` and ``ending_differences`` are the one way both
make a recorded call again and judge it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Final

from inspector.protocol.jsonrpc import JsonObject
from inspector.protocol.methods import HANDSHAKE_METHODS, LIST_METHODS, SUBSCRIBE, SUBSCRIPTION_METHODS
from inspector.replay.diff import Difference, JsonPath, diff
from inspector.replay.recorded_answers import ReplayAnswers
from inspector.replay.recorded_call import RecordedCall
from inspector.session.session import InspectorSession
from inspector.timeline.model import Call, CallStatus, Timeline
from inspector.timeline.outcome import EXIT_CODES, Outcome

EXIT_MATCH: Final = 0
EXIT_DIFFERENT: Final = 1
_FAILURE_ORDER: Final = (3, 5, 6, 4)
"""When a call's live status differs and is a failure, the run exits as ``inspector call`` would, worst first."""


@dataclass(slots=True)
class Comparison:
    """One recorded call, re-run: what it ended with on each side, the differences and the notes."""

    recorded: Call
    live: Call | None
    live_status: CallStatus | None
    differences: list[Difference] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        """True when status and final result are the same (notes do not count)."""
        return not self.differences

    @property
    def exit_code(self) -> int:
        """0 match; the ``inspector call`` code of a live failure the recording did not have; else 1."""
        if self.matches:
            return EXIT_MATCH
        if self.live_status is not None and self.live_status != self.recorded.status:
            code = EXIT_CODES.get(self.live_status, 3)
            if code in _FAILURE_ORDER:
                return code
        return EXIT_DIFFERENT


@dataclass(slots=True)
class RerunReport:
    """Every comparison of one re-run, and what was left out."""

    recording: str
    against: str
    recorded_era: str | None
    live_era: str | None
    comparisons: list[Comparison] = field(default_factory=list)
    skipped: list[Call] = field(default_factory=list)
    not_comparable: list[tuple[Call, str]] = field(default_factory=list)
    """Calls not re-run because nothing they ended with can be compared, each with why (a call the user cancelled:
    re-running it to its end would always differ)."""
    ignore: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """Session-wide notes (an era that differs, problems reading the recording)."""
    connect_error: str | None = None
    """Why the server could not be reached (nothing was re-run), for the JUnit file CI keeps."""

    @property
    def different(self) -> list[Comparison]:
        """The calls that did not match."""
        return [c for c in self.comparisons if not c.matches]

    @property
    def exit_code(self) -> int:
        """0 all match; 3/5/6/4 (in that order) when a live call failed where the recorded one had not; else 1."""
        codes = {c.exit_code for c in self.comparisons}
        for code in _FAILURE_ORDER:
            if code in codes:
                return code
        return EXIT_DIFFERENT if self.different else EXIT_MATCH


def rerun_plan(recorded: Timeline, *, lists: bool = False) -> tuple[list[Call], list[Call]]:
    """(calls to re-run, calls skipped), in recorded order; a cancelled call is neither (see ``not_comparable``)."""
    chosen: list[Call] = []
    skipped: list[Call] = []
    for call in recorded.calls:
        if skip_reason(call, lists=lists) is not None:
            skipped.append(call)
        elif not_comparable(call) is None:
            chosen.append(call)
    return chosen, skipped


def skip_reason(call: Call, *, lists: bool = False) -> str | None:
    """Why a re-run leaves a recorded call out by design (None: it re-runs it, unless it is ``not_comparable``)."""
    if call.method in HANDSHAKE_METHODS:
        return "not re-run: the live session makes its own handshake"
    if call.method in LIST_METHODS and not lists:
        return "not re-run: catalog lists are compared with --lists"
    return None


def not_comparable(call: Call) -> str | None:
    """Why a recorded call cannot be compared with a re-run (None: it can)."""
    if call.status == "cancelled":
        return "not comparable: cancelled when recorded"
    return None


async def _resubscribe(session: InspectorSession, recorded: RecordedCall) -> Outcome:
    """A recorded subscription, re-run with what it asked for, for its recorded length, then ended by the client."""
    stop = asyncio.Event()
    timer = asyncio.get_running_loop().call_later(recorded.lasted_s, stop.set)
    try:
        if recorded.method == SUBSCRIBE:
            return await session.subscribe(list(recorded.uris), stop)
        notifications = recorded.params.get("notifications")
        return await session.listen(notifications if isinstance(notifications, dict) else {}, stop)
    finally:
        timer.cancel()


async def redrive(session: InspectorSession, recorded: RecordedCall) -> Outcome:
    """Make a recorded call again on ``session`` (its answer source already given the call's answers): a catalog
    list as every page, a subscription for as long as it lasted, any other request with the recorded params."""
    listing = LIST_METHODS.get(recorded.method)
    if listing is not None:
        return await session.list_all(listing.kind)
    if recorded.method in SUBSCRIPTION_METHODS:
        return await _resubscribe(session, recorded)
    return await session.request(recorded.method, dict(recorded.params))


def _payload(status: CallStatus, result: JsonObject | None, error: JsonObject | None) -> tuple[str, Any]:
    if status == "error" and error is not None:
        return "error", error
    if result is not None and "resultType" not in result:
        result = {**result, "resultType": "complete"}  # what a result without one means, in either era
    return "result", result


def ending_differences(
    recorded: RecordedCall, outcome: Outcome, *, ignore: list[JsonPath], compare_meta: bool = False
) -> list[Difference]:
    """How a live call's ending differs from the recorded one: its status, then its final result (or error),
    structurally (``diff.diff``); empty when it ended the same way."""
    found: list[Difference] = []
    if recorded.status != outcome.status:
        found.append(Difference("(status)", "changed", recorded.status, outcome.status))
    kind_recorded, value_recorded = _payload(recorded.status, recorded.result, recorded.error)
    kind_live, value_live = _payload(outcome.status, outcome.result, outcome.error)
    if kind_recorded == kind_live and (value_recorded is not None or value_live is not None):
        for difference in diff(value_recorded, value_live, ignore=ignore, compare_meta=compare_meta):
            path = (
                difference.path if kind_recorded == "result" else f"error.{difference.path}".removesuffix(".(result)")
            )
            found.append(Difference(path, difference.kind, difference.recorded, difference.live))
    elif kind_recorded != kind_live:
        if not found:
            found.append(Difference("(status)", "changed", kind_recorded, kind_live))
        if value_live is not None:
            found.append(Difference(kind_live, "added", live=value_live))
    return found


def compare(recorded: Call, live: Call, outcome: Outcome, *, ignore: list[JsonPath], compare_meta: bool) -> Comparison:
    """Status and final result (or error) of a recorded call against its live call and outcome."""
    found = Comparison(recorded, live, outcome.status)
    found.differences = ending_differences(RecordedCall.of(recorded), outcome, ignore=ignore, compare_meta=compare_meta)
    recorded_rounds = len([r for r in recorded.rounds if r.kind == "request"])
    live_rounds = len([r for r in live.rounds if r.kind == "request"])
    if recorded_rounds != live_rounds:
        found.notes.append(f"{recorded_rounds} round(s) recorded, {live_rounds} live")
    return found


async def rerun(
    recorded: Timeline,
    session: InspectorSession,
    answers: ReplayAnswers,
    *,
    recording: str = "",
    ignore: list[JsonPath] | None = None,
    compare_meta: bool = False,
    lists: bool = False,
) -> RerunReport:
    """Re-drive the recorded calls on ``session`` (connected, answering through ``answers``) and compare them."""
    live_era = session.timeline.era
    report = RerunReport(
        recording,
        session.timeline.target,
        f"{recorded.era.era} {recorded.era.version}" if recorded.era else None,
        f"{live_era.era} {live_era.version}" if live_era else None,
    )
    if report.recorded_era and report.live_era and report.recorded_era != report.live_era:
        report.notes.append(f"recorded in {report.recorded_era}, re-run in {report.live_era}")
    chosen, report.skipped = rerun_plan(recorded, lists=lists)
    report.not_comparable = [(call, why) for call in recorded.calls if (why := not_comparable(call)) is not None]
    patterns = list(ignore or [])
    if chosen and not any(call.method == "tools/list" for call in chosen):
        await session.list_all("tools")
    for call in chosen:
        recorded_call = RecordedCall.of(call)
        answers.use_answers(recorded_call.fresh_answers())
        outcome = await redrive(session, recorded_call)
        comparison = compare(
            call, session.call(outcome.call_index), outcome, ignore=patterns, compare_meta=compare_meta
        )
        comparison.notes.extend(answers.notes)
        unused = answers.unused_note()
        if unused is not None:
            comparison.notes.append(unused)
        report.comparisons.append(comparison)
    return report
