"""A lab report for people (a rich table), for scripts (``--json``) and for CI (``--junit FILE``).

Every text that came from a server goes through ``sanitize`` into ``Text`` objects (never markup), and the report
holds only what the sessions' redactors let through, so secrets stay out of all three.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from inspector.junit import JunitCase, JunitSuite, junit_document
from inspector.lab.lab_report import QUESTIONS, HeldState, LabReport, Row
from inspector.protocol.sanitize import clean, one_line

STYLE = {"pass": "green", "fail": "bold red", "warn": "yellow", "skip": "dim"}
MARK = {"pass": "✓ pass", "fail": "✗ fail", "warn": "⚠ warn", "skip": "– skip"}
TABLE_WIDTH = 120
"""Below this many columns a six-column table leaves `why` a word or two a line (a pipe is 80 wide): each row is
printed as a block instead, its check on one line and the route, why and try below it (and so the questions)."""
FOUR_QUESTIONS = "seed 004's four questions"


def _text(value: str, style: str = "") -> Text:
    return Text(clean(value), style=style)


def print_report(console: Console, report: LabReport) -> None:
    """The instances, the era, one table of every row, the four questions, the summary, the recordings."""
    for name, spec in report.instances.items():
        console.print(Text(f"instance {name}: ", style="bold") + _text(one_line(spec, 160)))
    if report.connect_error is not None:
        console.print(Text("error: ", style="bold red") + _text(report.connect_error))
        if report.connect_hint:
            console.print(Text("try: ", style="bold") + _text(report.connect_hint))
        return
    if report.era is not None:
        console.print(Text("era: ", style="bold") + _text(f"{report.era.era} {report.era.version} ({report.era.why})"))
    if console.width >= TABLE_WIDTH:
        _print_table(console, report)
    else:
        _print_blocks(console, report)
    if report.held:
        _print_questions(console, report.held)
    elif report.rows:
        console.print(Text("seed 004's four questions: no cross-request state seen (every call stood alone)"))
    style = "bold red" if report.failed else "bold green"
    console.print(Text(f"lab: {report.summary()}", style=style))
    for part, path in report.recordings.items():
        console.print(Text(f"recorded {part} to {path}", style="dim"))


def _check(row: Row) -> Text:
    check = _text(row.check)
    if row.experiment is not None:
        check.append(" [experiment]", style="magenta")
    return check


def _verdict(row: Row) -> Text:
    verdict = Text(MARK[row.verdict], style=STYLE[row.verdict])
    if row.security:
        verdict.append(" security", style="bold red")
    return verdict


def _print_table(console: Console, report: LabReport) -> None:
    table = Table(show_lines=False, expand=True, title="inspector lab", title_justify="left")
    table.add_column("group", no_wrap=True)
    table.add_column("check", ratio=3)
    table.add_column("route", ratio=2)
    table.add_column("verdict", no_wrap=True)
    table.add_column("why", ratio=5)
    table.add_column("try", ratio=3)
    for row in report.rows:
        table.add_row(_text(row.group), _check(row), _text(row.route), _verdict(row), _text(row.why),
                      _text(row.hint, "dim"))  # fmt: skip
    console.print(table)


def _print_blocks(console: Console, report: LabReport) -> None:
    console.print(Text("inspector lab", style="italic"))
    for row in report.rows:
        console.print(_verdict(row) + Text("  ") + _text(row.group, "bold") + Text(" · ") + _check(row))
        for label, value, style in (("route", row.route, ""), ("why", row.why, ""), ("try", row.hint, "dim")):
            if value:
                console.print(Padding(Text(f"{label}: ", style="bold") + _text(value, style), (0, 0, 0, 8)))


def _print_questions(console: Console, held: list[HeldState]) -> None:
    answers = [(s.what, s.answers) for s in held]
    if console.width >= TABLE_WIDTH:
        questions = Table(title=FOUR_QUESTIONS, title_justify="left", expand=True)
        for column in ("state", *QUESTIONS):
            questions.add_column(column, ratio=1)
        for what, said in answers:
            questions.add_row(_text(what), *(_text(v) for v in said))
        console.print(questions)
        return
    console.print(Text(FOUR_QUESTIONS, style="italic"))
    for what, said in answers:
        console.print(_text(what, "bold"))
        for question, answer in zip(QUESTIONS, said, strict=True):
            console.print(Padding(Text(f"{question}: ", style="bold") + _text(answer), (0, 0, 0, 8)))


def row_json(row: Row) -> dict[str, Any]:
    """One row as JSON."""
    out: dict[str, Any] = {
        "group": row.group,
        "check": row.check,
        "route": row.route,
        "verdict": row.verdict,
        "why": row.why,
        "try": row.hint or None,
        "part": row.part,
        "call": row.call,
    }
    if row.experiment is not None:
        out["experiment"] = row.experiment
    if row.security:
        out["security"] = True
    return out


def held_json(held: HeldState) -> dict[str, str]:
    """One piece of cross-request state and its four answers."""
    return {
        "state": held.what,
        "keptBy": held.kept_by,
        "foundBy": held.found_by,
        "expires": held.expires,
        "afterDisconnect": held.recovered,
    }


def report_json(report: LabReport) -> dict[str, Any]:
    """The whole report as one JSON document."""
    era = report.era
    return {
        "exitCode": report.exit_code,
        "instances": report.instances,
        "checks": list(report.checks),
        "era": {"era": era.era, "version": era.version, "why": era.why} if era is not None else None,
        "error": report.connect_error,
        "hint": report.connect_hint or None,
        "summary": {verdict: report.count(verdict) for verdict in ("pass", "fail", "warn", "skip")},
        "rows": [row_json(row) for row in report.rows],
        "questions": [held_json(h) for h in report.held],
        "recordings": report.recordings,
    }


def junit_xml(report: LabReport) -> str:
    """JUnit XML: a test suite per group, a test case per row (fail: a failure; skip: skipped; warn: passed with
    the warning in its output); an instance that could not be reached is the failed case of a ``connect`` suite."""
    suites: dict[str, JunitSuite] = {}
    for row in report.rows:
        name = f"{row.check} [{row.route}]" if row.route else row.check
        classname = f"lab.{row.group.replace(' ', '')}"
        if row.verdict == "fail":
            why = f"{row.why}\ntry: {row.hint}" if row.hint else row.why
            case = JunitCase(classname, name, "fail", row.why, why)
        elif row.verdict == "skip":
            case = JunitCase(classname, name, "skip", row.why)
        else:
            case = JunitCase(classname, name, "pass", output=f"warning: {row.why}" if row.verdict == "warn" else "")
        suites.setdefault(row.group, JunitSuite(f"lab {row.group}")).cases.append(case)
    if report.connect_error is not None:
        suites.setdefault("connect", JunitSuite("lab connect")).cases.append(
            JunitCase("lab.connect", "connect", "fail", report.connect_error)
        )
    return junit_document("inspector lab", list(suites.values()))
