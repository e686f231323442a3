"""JUnit XML, the report every CI system reads: the one writer of ``lab --junit`` and ``replay --against --junit``.

Each face says what its test cases are (``JunitCase``: passed, failed with a message, skipped with a reason) and in
which suites; this module writes them in the shape the common readers take (Jenkins, GitLab, GitHub test-report
actions, pytest's own ``--junitxml``): ``<testsuites>`` with the totals, one ``<testsuite>`` each with ``tests``,
``failures``, ``errors`` and ``skipped``, a ``<testcase classname name>`` each, a ``<failure message>`` holding the
whole text, a ``<skipped message>``, and ``<system-out>`` for what passed with something to say.

It sits beside the layers, not in one: the lab and replay are faces of different layers and both write JUnit, and
it imports nothing of the package but the sanitizer, so every layer may import it. Server text reaches these files
(a tool's name, a diff of its result): every text goes through ``clean`` (no control or invisible character, no
escape sequence for the terminal a CI log is shown in) and loses what XML 1.0 cannot hold at all (lone surrogates,
U+FFFE, U+FFFF), so the file parses whatever a server sent.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal
from xml.etree import ElementTree

from inspector.paths import open_private
from inspector.protocol.sanitize import clean, one_line

Verdict = Literal["pass", "fail", "skip"]
MESSAGE_WIDTH: Final = 300
"""A failure's or skip's ``message`` attribute is one line this long at most (readers show it as a title); the
whole text is the element's body."""
_NOT_XML: Final = re.compile("[\ud800-\udfff\ufffe\uffff]")
"""What ``clean`` leaves that XML 1.0 has no character for (it already replaced every C0 control but tab and
newline)."""


def xml_text(text: str) -> str:
    """``text`` fit for an XML 1.0 document and a CI log: ``clean``, then what XML cannot hold as ``⟨U+D800⟩``."""
    return _NOT_XML.sub(lambda match: f"⟨U+{ord(match.group()):04X}⟩", clean(text))


def _line(text: str) -> str:
    return xml_text(one_line(text, MESSAGE_WIDTH))


@dataclass(frozen=True, slots=True)
class JunitCase:
    """One test case: what it is called, its verdict, and what it says."""

    classname: str
    name: str
    verdict: Verdict
    message: str = ""
    """A failure's or a skip's reason, shown on one line (its first ``MESSAGE_WIDTH`` characters)."""
    text: str = ""
    """A failure's whole text (the message when empty)."""
    output: str = ""
    """What a case has to say besides its verdict (a warning, a note): its ``system-out``."""
    seconds: float | None = None


@dataclass(slots=True)
class JunitSuite:
    """One test suite and its cases, in order."""

    name: str
    cases: list[JunitCase] = field(default_factory=list)

    def count(self, verdict: Verdict) -> int:
        """How many of its cases have ``verdict``."""
        return sum(1 for case in self.cases if case.verdict == verdict)


def _counts(element: ElementTree.Element, suites: list[JunitSuite]) -> None:
    element.set("tests", str(sum(len(suite.cases) for suite in suites)))
    element.set("failures", str(sum(suite.count("fail") for suite in suites)))
    element.set("errors", "0")
    element.set("skipped", str(sum(suite.count("skip") for suite in suites)))
    timed = [case.seconds for suite in suites for case in suite.cases if case.seconds is not None]
    if timed:
        element.set("time", f"{sum(timed):.3f}")


def junit_document(title: str, suites: list[JunitSuite]) -> str:
    """The suites as one JUnit XML document (``title`` names the whole run), with its XML declaration."""
    root = ElementTree.Element("testsuites", name=_line(title))
    _counts(root, suites)
    for suite in suites:
        element = ElementTree.SubElement(root, "testsuite", name=_line(suite.name))
        _counts(element, [suite])
        for case in suite.cases:
            testcase = ElementTree.SubElement(
                element, "testcase", classname=_line(case.classname), name=_line(case.name)
            )
            if case.seconds is not None:
                testcase.set("time", f"{case.seconds:.3f}")
            if case.verdict == "fail":
                failure = ElementTree.SubElement(testcase, "failure", message=_line(case.message))
                failure.text = xml_text(case.text or case.message)
            elif case.verdict == "skip":
                ElementTree.SubElement(testcase, "skipped", message=_line(case.message))
            if case.output:
                ElementTree.SubElement(testcase, "system-out").text = xml_text(case.output)
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def save_junit(path: Path, document: str) -> None:
    """Write ``document`` to ``path``, making its folder first (CI names a results folder that does not exist
    yet); an ``OSError`` says why it could not be written. The file is the user's alone (0600, its new folders
    0700), as a recording is: its failures quote what a server answered."""
    fd = open_private(path)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(document)
