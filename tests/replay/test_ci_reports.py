"""What CI reads, without a process or a socket (the fast lane): the JUnit writer the lab and the re-run share (its
counts, its attributes, and a valid file whatever text a server sent), the lab's and the re-run's test cases in it,
and the pytest export's names and literals for a session against the in-process demo, hostile tool names included.
Real commands and real servers: test_junit_rerun.py and test_export_pytest.py."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from replay_support import invoke

from inspector.answers.build import build_answer_source
from inspector.cli.demo_flows import example_answers_path
from inspector.demo.in_process import NAME, serve
from inspector.demo.server import build_server
from inspector.junit import JunitCase, JunitSuite, junit_document
from inspector.lab.lab_report import LabReport, Row
from inspector.lab.report_formats import junit_xml
from inspector.replay.diff import Difference
from inspector.replay.pytest_export import export_pytest, function_name, identifier_words
from inspector.replay.rerun import Comparison, RerunReport
from inspector.replay.rerun_report import report_junit
from inspector.session.session import InspectorSession
from inspector.timeline.model import Call
from inspector.transport.memory import MemoryTransport

HOSTILE = [
    'x"); import os; os.system("id") #',
    'x"""\nimport os; os.system("touch PWNED")\n"""',
    "x\u2028import os\u2029#",
    "x'''; __import__('os').system('id') #\r\n",
    "nul\x00byte and a bell\x07",
]
RECORDS = {"RecordedCall", "RecordedAnswer"}
MODULE_NAMES = {"RECORDING", "RECORDED_SERVER", "SERVER", "ERA", "IGNORE"}
NOT_XML = 'esc\x1b[31m red, nul \x00, lone \ud800, \ufffe\uffff, ]]> <tag> & "quotes" \u202e'


def _cases(root: ElementTree.Element) -> list[ElementTree.Element]:
    return [case for suite in root for case in suite]


def test_the_writer_counts_every_suite_and_the_whole_run() -> None:
    suites = [
        JunitSuite(
            "first",
            [
                JunitCase("c", "passes", "pass", seconds=0.25),
                JunitCase("c", "fails", "fail", "one line", "the whole\ntext"),
                JunitCase("c", "skips", "skip", "why not"),
            ],
        ),
        JunitSuite("second", [JunitCase("c", "warns", "pass", output="warning: look")]),
    ]
    root = ElementTree.fromstring(junit_document("a run", suites))
    assert root.tag == "testsuites" and root.get("name") == "a run"
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("4", "1", "0", "1")
    first, second = root
    assert (first.get("name"), first.get("tests"), first.get("failures"), first.get("skipped")) == (
        "first",
        "3",
        "1",
        "1",
    )
    assert (second.get("tests"), second.get("failures"), second.get("skipped")) == ("1", "0", "0")
    passes, fails, skips = first
    assert passes.get("time") == "0.250" and list(passes) == []
    failure = fails.find("failure")
    assert failure is not None and failure.get("message") == "one line" and failure.text == "the whole\ntext"
    skipped = skips.find("skipped")
    assert skipped is not None and skipped.get("message") == "why not"
    assert second[0].findtext("system-out") == "warning: look"


def test_any_text_a_server_sent_gives_a_file_that_parses_and_shows_nothing_hidden() -> None:
    case = JunitCase(NOT_XML, NOT_XML, "fail", NOT_XML, NOT_XML, output=NOT_XML)
    document = junit_document(NOT_XML, [JunitSuite(NOT_XML, [case])])
    document.encode("utf-8")  # (a lone surrogate would not even encode)
    root = ElementTree.fromstring(document)
    [testcase] = _cases(root)
    failure = testcase.find("failure")
    assert failure is not None
    for text in (testcase.get("name") or "", failure.get("message") or "", failure.text or ""):
        assert ']]> <tag> & "quotes"' in text, "markup characters are escaped, not lost"
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff\ufffe\uffff\u202e]", text), text
        assert "⟨U+D800⟩" in text and "⟨U+202E⟩" in text and "␛" in text


def test_the_lab_writes_a_suite_per_group_and_its_connect_failure() -> None:
    report = LabReport({"A": "a", "B": "b"}, ("stateless",))
    report.add(Row("stateless 1", "tools/call add on B", "B", "pass", "the same"))
    report.add(Row("stateless 2", "tools/call x · A⇄B", "A B", "fail", "asked again", hint="keep state in it"))
    report.add(Row("stateless 2", "tools/call x · B⇄A", "B A", "warn", "slower"))
    report.add(Row("stateless 3", "task tools", "", "skip", "no task tools seen"))
    root = ElementTree.fromstring(junit_xml(report))
    assert [s.get("name") for s in root] == ["lab stateless 1", "lab stateless 2", "lab stateless 3"]
    assert [(s.get("tests"), s.get("failures"), s.get("skipped")) for s in root] == [
        ("1", "0", "0"),
        ("2", "1", "0"),
        ("1", "0", "1"),
    ]
    crossing = root[1]
    assert [c.get("name") for c in crossing] == ["tools/call x · A⇄B [A B]", "tools/call x · B⇄A [B A]"]
    assert crossing[0].get("classname") == "lab.stateless2"
    failure = crossing[0].find("failure")
    assert failure is not None and failure.get("message") == "asked again"
    assert failure.text == "asked again\ntry: keep state in it"
    assert crossing[1].findtext("system-out") == "warning: slower"
    unreached = LabReport({"A": "a", "B": "b"}, ("stateless",), connect_error="could not start A")
    [suite] = ElementTree.fromstring(junit_xml(unreached))
    assert (suite.get("name"), suite.get("tests"), suite.get("failures")) == ("lab connect", "1", "1")


def _call(index: int, method: str, name: str | None = None, status: str = "complete") -> Call:
    call = Call(index, method, {"name": name} if name else {}, 0.0)
    call.status = status  # type: ignore[assignment]
    return call


def test_the_re_run_writes_a_case_per_recorded_call_in_order() -> None:
    report = RerunReport("golden.jsonl", "python -m server", "modern 2026-07-28", "modern 2026-07-28")
    add, echo = _call(3, "tools/call", "add"), _call(4, "tools/call", "echo")
    changed = [Difference("content[0].text", "changed", "5", "6"), Difference("isError", "added", live=True)]
    report.comparisons = [Comparison(add, add, "complete", changed), Comparison(echo, echo, "complete", notes=["n"])]
    report.skipped = [_call(1, "server/discover"), _call(2, "tools/list")]
    report.not_comparable = [(_call(5, "tools/call", "slow", "cancelled"), "not comparable: cancelled when recorded")]
    root = ElementTree.fromstring(report_junit(report))
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("5", "1", "3")
    [suite] = root
    assert suite.get("name") == "re-run of golden.jsonl against python -m server"
    names = [case.get("name") for case in suite]
    assert names == [
        "#1 server/discover",
        "#2 tools/list",
        "#3 tools/call add",
        "#4 tools/call echo",
        "#5 tools/call slow",
    ]
    failure = suite[2].find("failure")
    assert failure is not None
    assert failure.get("message") == 'content[0].text: "5" → "6"; isError: added true'
    assert failure.text == 'content[0].text: "5" → "6"\nisError: added true'
    skips = {case.get("name"): case.find("skipped") for case in suite if case.find("skipped") is not None}
    said = {name: element.get("message") for name, element in skips.items() if element is not None}
    assert said == {
        "#1 server/discover": "not re-run: the live session makes its own handshake",
        "#2 tools/list": "not re-run: catalog lists are compared with --lists",
        "#5 tools/call slow": "not comparable: cancelled when recorded",
    }
    assert suite[3].findtext("system-out") == "note: n"
    report.connect_error = "the server exited before it answered"
    [unreached] = ElementTree.fromstring(report_junit(report))
    [connect] = unreached
    assert connect.get("name") == "connect" and connect.find("failure") is not None


@pytest.mark.parametrize(
    ("method", "name", "expected"),
    [
        ("tools/call", "echo", "test_03_tools_call_echo"),
        ("tools/call", "getWeather", "test_03_tools_call_get_weather"),
        ("resources/read", "demo://report", "test_03_resources_read_demo_report"),
        ("tools/call", 'x"); import os; os.system("id") #', "test_03_tools_call_x_import_os_os_system_id"),
        ("tools/call", "天気\u2028", "test_03_tools_call"),
        ("prompts/get", None, "test_03_prompts_get"),
    ],
)
def test_a_test_is_named_after_its_call_in_identifier_characters(method: str, name: str | None, expected: str) -> None:
    assert function_name(_call(3, method, name), 2) == expected
    assert identifier_words("a" * 200 + "!") == "a" * 200
    assert len(function_name(_call(7, "tools/call", "a" * 200), 3)) == len("test_007_") + 60


async def test_hostile_tool_names_stay_literals_of_the_exported_module() -> None:
    """Against the in-process demo, which answers an unknown tool with a JSON-RPC error: each hostile name is a call
    of the export, named in identifier characters, its name nowhere but in string literals."""
    answers = build_answer_source(example_answers_path(), "fail", True, [])
    session = InspectorSession(MemoryTransport(serve(build_server), name=NAME), answers, timeout=30.0)
    try:
        await session.connect()
        await session.call_tool("add", {"a": 2, "b": 3})
        for name in HOSTILE:
            await session.call_tool(name, {"note": name})
    finally:
        await session.close()
    module = export_pytest(session.timeline, recording='x"""\n#.jsonl', ignore=["content[*].text"])
    tree = ast.parse(module)
    compile(tree, "exported.py", "exec")
    defs = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert defs[0] == "live" and all(re.fullmatch(r"test_\d{2}_[a-z0-9_]+", name) for name in defs[1:]), defs
    assert defs[1] == "test_02_tools_call_add" and len(defs) == 2 + len(HOSTILE)
    assert defs[2] == "test_03_tools_call_x_import_os_os_system_id"
    kinds = {type(node).__name__ for node in tree.body}
    assert kinds == {"Expr", "ImportFrom", "Import", "Assign", "FunctionDef"}, "no statement of any other kind"
    calls = {ast.unparse(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    assert calls <= {"json.loads", "os.environ.get", "pytest.fixture", "LiveRerun", "live.check", *RECORDS}, calls
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert names <= {*MODULE_NAMES, *RECORDS, "json", "os", "pytest", "Iterator", "LiveRerun", "live", "session"}
    texts = [
        node.args[0] for node in ast.walk(tree) if isinstance(node, ast.Call) and ast.unparse(node.func) == "json.loads"
    ]
    literals = [
        json.loads(text.value) for text in texts if isinstance(text, ast.Constant) and isinstance(text.value, str)
    ]
    assert len(literals) == len(texts), "json.loads reads only string literals"
    called = [value["name"] for value in literals if isinstance(value, dict) and "arguments" in value]
    assert sorted(called) == sorted(["add", *HOSTILE]), "each name is data, read back exactly as the server got it"
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    docstrings = [ast.get_docstring(tree) or "", *(ast.get_docstring(function) or "" for function in functions)]
    assert not any("import os" in doc or "PWNED" in doc for doc in docstrings), "server text is never in a docstring"
    assert [line for line in module.splitlines() if line.lstrip().startswith("#")] == [], "nor in a comment"


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--as", "pytest", "--call", "3"], "--as pytest exports every call of the recording: leave --call out"),
        (["--as", "curl"], "--as curl exports one call: give --call N"),
        (["--as", "json", "--call", "1", "--ignore", "content"], "--ignore goes with --as pytest"),
        (["--as", "pytest", "--ignore", "a..b"], "--ignore"),
        (["--as", "yaml", "--call", "1"], "--as must be one of curl, json, python, pytest"),
    ],
)
def test_export_usage_errors_exit_2(args: list[str], said: str, tmp_path: Path) -> None:
    result = invoke("export", str(tmp_path / "none.jsonl"), *args)
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.stderr.split()), result.stderr


def test_junit_without_a_re_run_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke("replay", str(tmp_path / "none.jsonl"), "--junit", str(tmp_path / "out.xml"))
    assert result.exit_code == 2 and "--junit goes with --against" in " ".join(result.stderr.split())
