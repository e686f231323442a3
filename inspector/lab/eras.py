"""``lab eras``: the era auto-detection verdict, and the same calls in the legacy and the modern era, diffed.

The main session settled its era (``--era auto`` probes with ``server/discover``); that verdict and its reason are
a row. The calls then run once in each era on A (the main session's run is one of the two when it is modern) and
their results are compared structurally: the same answer passes; a different one is a warning (a dual-era tool may
do era-specific work); an answer in one era and a failure in the other fails. A modern request answered in the
legacy shape is a "silent downgrade" and fails: a result without ``resultType``, a server-to-client request during
a modern call, an ``Mcp-Session-Id`` on a modern response.

Each run is answered by the user's sources, every answer checked against that run's own request
(``era_answers``). So a difference is the server's only when both eras were answered alike: a run the lab could not
answer (no source had an answer, and the other run's did not fit) and runs given different answers are not
compared (skip, saying why), never a warning about the server.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Final

from inspector.answers.source import AnswerSource
from inspector.lab import evidence
from inspector.lab.baseline import Baseline, Reference, compared
from inspector.lab.lab_report import Row
from inspector.lab.lab_session import LabSession, Ran
from inspector.lab.plan import LabOptions, LabTargets
from inspector.protocol.sanitize import one_line
from inspector.replay.diff import JsonPath
from inspector.replay.recorded_answers import recorded_answers
from inspector.timeline.model import Call

AddRow = Callable[[Row], None]
FAILURES = ("error", "failed", "no-answer", "round-cap", "cancelled")
UNANSWERED: Final = frozenset({"no-answer", "answer-refused"})
"""The findings of a question the lab could not answer: no source had an answer, or the one found did not fit (a
legacy server may turn the error reply into a JSON-RPC error, so the call's status alone does not say it)."""
ANSWER_IT = (
    "answer that question in --answers: a legacy request by the key of the same question in the modern era, else "
    'by its method ("elicitation/create"); the other era\'s answer is sent only where it fits the request'
)
DOWNGRADE_FINDINGS = {
    "missing-result-type": "a modern result without resultType (the legacy shape)",
    "server-request-in-modern": "a server-to-client request during a modern call",
}
SESSION_HEADER = "mcp-session-id"
ERA_FIELDS: Final[list[JsonPath]] = [("ttlMs",), ("cacheScope",)]
"""Result fields only 2026-07-28 has (caching hints): their absence in the legacy era is no difference."""
NO_DOWNGRADE = (
    "answer a 2026-07-28 request in the 2026-07-28 shape: resultType on every result, input inside "
    "InputRequiredResult, no Mcp-Session-Id"
)


def unanswered(ran: Ran) -> str | None:
    """Why the lab could not answer a question of this run (None: every question it was asked was answered). The
    server asked it, so the run says nothing of whether the server speaks that era."""
    if ran.outcome.status == "no-answer":
        return ran.outcome.detail or "no answer"
    for finding in ran.call.all_findings():
        if finding.code in UNANSWERED:
            return finding.message
    return None


def downgrades(call: Call) -> list[str]:
    """What in a modern call's rounds is the legacy shape."""
    found: list[str] = []
    for finding in call.all_findings():
        if finding.code in DOWNGRADE_FINDINGS:
            found.append(DOWNGRADE_FINDINGS[finding.code])
    for round_ in call.rounds:
        headers = round_.response.http.response_headers if round_.response and round_.response.http else {}
        if any(name.lower() == SESSION_HEADER for name in headers):
            found.append("an Mcp-Session-Id header on a modern response")
    return sorted(set(found))


async def eras(
    main: LabSession, baseline: Baseline, options: LabOptions, targets: LabTargets, source: AnswerSource, add: AddRow
) -> None:
    """The detection row, then each call in both eras."""
    era = main.session.timeline.era
    pinned = options.era != "auto"
    if era is not None:
        how = f"pinned with --era {options.era}" if pinned else "auto-detection"
        add(Row("eras", f"era ({how})", "A", "pass", f"{era.era} {era.version}: {one_line(era.why, 160)}"))
    runs: dict[str, dict[int, Ran] | str] = {}
    modern_main = era is not None and era.era == "modern"
    if modern_main:
        runs["modern"] = {i: r.ran for i, r in enumerate(baseline.references)}
    answered_in = era.era if era is not None else "main"
    for wanted in ("legacy",) if modern_main else ("modern", "legacy"):
        runs[wanted] = await _run_in(wanted, baseline, targets, source, answered_in)
    modern, legacy = runs["modern"], runs["legacy"]
    if isinstance(modern, str):
        add(Row("eras", "the modern era", "A", "skip", f"the server does not speak 2026-07-28 here: {modern}",
                "a 2025-era server: nothing to compare until it serves 2026-07-28"))  # fmt: skip
    elif era is not None and era.era == "legacy" and not pinned:
        add(Row("eras", "era auto-detection", "A", "fail",
                "the probe settled on legacy, yet the same calls work when pinned to 2026-07-28",
                "answer server/discover with a DiscoverResult that lists 2026-07-28 (the spec's probe)"))  # fmt: skip
    if isinstance(legacy, str):
        add(Row("eras", "the legacy era", "A", "skip", f"the server does not speak a 2025 era: {legacy}",
                "a modern-only server: nothing to compare"))  # fmt: skip
    if isinstance(modern, dict):
        for index, ran in modern.items():
            found = downgrades(ran.call)
            if found:
                add(Row("eras", f"{baseline.references[index].call.label} (modern)", ran.route, "fail",
                        f"silent downgrade: {'; '.join(found)}", NO_DOWNGRADE, call=ran.call.index,
                        part="main" if modern_main else "modern"))  # fmt: skip
    if isinstance(modern, dict) and isinstance(legacy, dict):
        for index, reference in enumerate(baseline.references):
            if index in modern and index in legacy:
                add(_judged(reference, modern[index], legacy[index], options))


async def _run_in(
    era: str, baseline: Baseline, targets: LabTargets, source: AnswerSource, answered_in: str
) -> dict[int, Ran] | str:
    """Every usable call of the baseline in ``era`` on a session of its own, each answered by its own sources (the
    baseline's answers, made in era ``answered_in``, only where they fit); or why that era could not be spoken."""
    session = LabSession(targets, ("A",), source, era="legacy" if era == "legacy" else "modern", part=era)
    try:
        problem = await session.connect()
        if problem is not None:
            return problem[0]
        actual = session.session.timeline.era
        if actual is None or actual.era != era:
            return f"the session settled on {actual.era if actual else 'nothing'}"
        await session.list_on("A", "tools")
        out: dict[int, Ran] = {}
        for index, reference in enumerate(baseline.references):
            if reference.usable:
                session.answers.in_other_era(reference.ran.call, answered_in, reference.call.recorded)
                out[index] = await session.run(reference.call, "A")
        if out and all(ran.outcome.status in FAILURES and unanswered(ran) is None for ran in out.values()):
            # (pinned to an era the server does not speak, the handshake "works" and every call fails)
            return f"every call fails in it ({one_line(actual.why, 120)})"
        return out
    finally:
        await session.close()


def _judged(reference: Reference, modern: Ran, legacy: Ran, options: LabOptions) -> Row:
    label = reference.call.label
    part = "legacy"
    for era, ran in (("modern", modern), ("legacy", legacy)):
        why = unanswered(ran)
        if why is not None:
            return Row("eras", label, "A", "skip", f"not compared: the {era} run could not be answered: "
                       f"{one_line(why, 400)}", ANSWER_IT, call=ran.call.index,
                       part="main" if ran is reference.ran else era)  # fmt: skip
    comparison = compared(modern.call, legacy, options, ERA_FIELDS)
    if comparison.matches:
        return Row("eras", label, "A", "pass", "the same result in both eras", call=legacy.call.index, part=part)
    statuses = (modern.outcome.status, legacy.outcome.status)
    if (statuses[0] in FAILURES) != (statuses[1] in FAILURES):
        failing = "modern" if statuses[0] in FAILURES else "legacy"
        detail = modern.outcome.detail if failing == "modern" else legacy.outcome.detail
        return Row("eras", label, "A", "fail",
                   f"it fails in the {failing} era only ({one_line(detail or statuses[failing == 'legacy'], 120)})",
                   "a dual-era server should answer the same request in both eras",
                   call=legacy.call.index, part=part)  # fmt: skip
    unlike = answered_unlike(modern.call, legacy.call)
    if unlike is not None:
        return Row("eras", label, "A", "skip",
                   f"not compared: the eras were given different answers ({unlike}), so their results may differ",
                   "give the same answers in both eras (--answers) to compare them", call=legacy.call.index,
                   part=part)  # fmt: skip
    return Row("eras", label, "A", "warn",
               f"the eras answer differently (modern → legacy): {evidence.describe(comparison.differences)}",
               "expected only where the tool does era-specific work", call=legacy.call.index, part=part)  # fmt: skip


def answered_unlike(modern: Call, legacy: Call) -> str | None:
    """How the answers the two runs gave differ (None: the same answers, in whatever order and round); a question
    only one era asked is not a different answer, it is the server's era difference."""
    given = {era: Counter(_said(a.method, a.response) for a in recorded_answers(call))
             for era, call in (("modern", modern), ("legacy", legacy))}  # fmt: skip
    only_modern = given["modern"] - given["legacy"]
    only_legacy = given["legacy"] - given["modern"]
    if not only_modern or not only_legacy:
        return None
    return f"modern {one_line(next(iter(only_modern)), 100)}, legacy {one_line(next(iter(only_legacy)), 100)}"


def _said(method: str, response: object) -> str:
    """One answer as answers are told apart (and quoted): its method and its response, compact JSON."""
    return f"{method} {json.dumps(response, sort_keys=True, separators=(',', ':'))}"
