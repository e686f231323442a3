"""The re-run report, for people (rich) and for CI (``--json``, ``--junit FILE``).

Server text is printed through ``one_line`` into ``Text`` objects, never as markup, like the rest of the headless face;
the JUnit file is written by ``inspector.junit``, which sanitizes every text it is given.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from rich.console import Console
from rich.text import Text

from inspector.junit import JunitCase, JunitSuite, junit_document
from inspector.protocol.sanitize import one_line
from inspector.replay.diff import Difference
from inspector.replay.rerun import Comparison, RerunReport, skip_reason
from inspector.timeline.model import Call

VALUE_WIDTH = 110


def _value(value: Any) -> str:
    return one_line(json.dumps(value, ensure_ascii=False), VALUE_WIDTH)


def _what(call: Call) -> str:
    return f"#{call.index} {call.method}" + (f" {call.name}" if call.name else "")


def difference_line(difference: Difference) -> Text:
    """``path: recorded → live`` (or added / removed)."""
    line = Text("      ")
    line.append(one_line(difference.path, 80), style="bold")
    line.append(": ")
    if difference.kind == "added":
        line.append("added ", style="green")
        line.append(_value(difference.live))
    elif difference.kind == "removed":
        line.append("removed ", style="red")
        line.append(_value(difference.recorded))
    else:
        line.append(_value(difference.recorded), style="red")
        line.append(" → ")
        line.append(_value(difference.live), style="green")
    return line


def differences_text(differences: list[Difference]) -> list[str]:
    """Each difference as the line the report prints (``content[0].text: "5" → "6"``), without its styles: what a
    JUnit failure and an exported test's assertion say."""
    return [difference_line(difference).plain.strip() for difference in differences]


def comparison_lines(comparison: Comparison) -> list[Text]:
    """One call: a mark, what it was, match or different, then each difference and note."""
    head = Text()
    if comparison.matches:
        head.append("✓ ", style="green")
    else:
        head.append("✗ ", style="bold red")
    head.append(one_line(_what(comparison.recorded), 70), style="bold")
    head.append("  ")
    head.append("match" if comparison.matches else "different", style="green" if comparison.matches else "bold red")
    if comparison.live is not None and comparison.live.index != comparison.recorded.index:
        head.append(f"  (live #{comparison.live.index})", style="dim")
    lines = [head]
    lines.extend(difference_line(d) for d in comparison.differences)
    for note in comparison.notes:
        lines.append(Text("      note: ", style="cyan") + Text(one_line(note, 200)))
    return lines


def _skipped_text(skipped: list[Call]) -> str:
    counts = Counter(call.method for call in skipped)
    return ", ".join(f"{method} ×{n}" if n > 1 else method for method, n in counts.items())


def print_report(console: Console, report: RerunReport) -> None:
    """The whole report: header, one block per call, summary line."""
    head = Text("re-run of ", style="bold")
    head.append(one_line(report.recording, 100))
    head.append(" against ", style="bold")
    head.append(one_line(report.against, 100))
    console.print(head)
    facts = f"recorded {report.recorded_era or '?'} · live {report.live_era or '?'}"
    if report.skipped:
        facts += f" · not re-run: {_skipped_text(report.skipped)}"
    if report.ignore:
        facts += f" · ignoring {', '.join(report.ignore)}"
    console.print(Text(one_line(facts, 300), style="dim"))
    for note in report.notes:
        console.print(Text("note: ", style="cyan") + Text(one_line(note, 200)))
    for call, why in report.not_comparable:
        console.print(Text("– ", style="dim") + Text(one_line(_what(call), 70), style="bold") + Text(f"  {why}"))
    for comparison in report.comparisons:
        for line in comparison_lines(comparison):
            console.print(line)
    total = len(report.comparisons)
    different = len(report.different)
    if not total:
        console.print(Text("no calls to re-run in this recording", style="yellow"))
    elif different:
        summary = Text(f"{different} of {total} call{'s' if total != 1 else ''} differ", style="bold red")
        summary.append(f" (exit {report.exit_code})", style="dim")
        console.print(summary)
    else:
        console.print(Text(f"all match: {total} call{'s' if total != 1 else ''} re-run", style="bold green"))


def comparison_json(comparison: Comparison) -> dict[str, Any]:
    """One call of the report as JSON."""
    recorded = comparison.recorded
    return {
        "call": recorded.index,
        "liveCall": comparison.live.index if comparison.live is not None else None,
        "method": recorded.method,
        "name": recorded.name,
        "recordedStatus": recorded.status,
        "liveStatus": comparison.live_status,
        "match": comparison.matches,
        "differences": [d.to_json() for d in comparison.differences],
        "notes": comparison.notes,
    }


def report_json(report: RerunReport) -> dict[str, Any]:
    """The whole report as one JSON document."""
    return {
        "recording": report.recording,
        "against": report.against,
        "recordedEra": report.recorded_era,
        "liveEra": report.live_era,
        "match": not report.different,
        "exitCode": report.exit_code,
        "summary": {
            "rerun": len(report.comparisons),
            "match": len(report.comparisons) - len(report.different),
            "different": len(report.different),
            "skipped": len(report.skipped),
            "notComparable": len(report.not_comparable),
        },
        "ignore": report.ignore,
        "notes": report.notes,
        "calls": [comparison_json(c) for c in report.comparisons],
        "skipped": [{"call": c.index, "method": c.method} for c in report.skipped],
        "notComparable": [{"call": c.index, "method": c.method, "why": why} for c, why in report.not_comparable],
    }


JUNIT_CLASS = "replay.rerun"


def _junit_case(comparison: Comparison) -> JunitCase:
    live = comparison.live
    seconds = live.total_ms / 1000.0 if live is not None and live.total_ms is not None else None
    notes = "\n".join(f"note: {note}" for note in comparison.notes)
    name = _what(comparison.recorded)
    if comparison.matches:
        return JunitCase(JUNIT_CLASS, name, "pass", output=notes, seconds=seconds)
    lines = differences_text(comparison.differences)
    text = "\n".join([*lines, *([notes] if notes else [])])
    return JunitCase(JUNIT_CLASS, name, "fail", "; ".join(lines), text, seconds=seconds)


def report_junit(report: RerunReport) -> str:
    """JUnit XML: one test case per recorded call, in recorded order, named ``#N method name``: a match passes, a
    difference is a failure whose message is the diff, a call not re-run (a handshake, a list without ``--lists``)
    or not comparable (cancelled when recorded) is skipped, saying why. A server that could not be reached is the
    one failed case ``connect``."""
    suite = JunitSuite(f"re-run of {report.recording} against {report.against}")
    if report.connect_error is not None:
        suite.cases.append(JunitCase(JUNIT_CLASS, "connect", "fail", report.connect_error))
        return junit_document("inspector replay", [suite])
    cases: list[tuple[int, JunitCase]] = [(c.recorded.index, _junit_case(c)) for c in report.comparisons]
    for call in report.skipped:  # (a list is among them only when the re-run left lists out)
        why = skip_reason(call) or "not re-run"
        cases.append((call.index, JunitCase(JUNIT_CLASS, _what(call), "skip", why)))
    for call, why in report.not_comparable:
        cases.append((call.index, JunitCase(JUNIT_CLASS, _what(call), "skip", why)))
    suite.cases.extend(case for _, case in sorted(cases, key=lambda pair: pair[0]))
    return junit_document("inspector replay", [suite])
