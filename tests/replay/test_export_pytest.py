"""``inspector export RECORDING --as pytest``, run for real: the module exported from a recording of every demo flow
passes against the demo (elicitation, sampling and roots answered from the recording), fails against a server whose
``add`` changed with the difference in the failure, and passes there again when the changed paths are ignored. A
recording of hostile tool names gives a module whose names are identifiers and whose server text is literals only,
and running it does nothing but the calls.

Each module runs in a ``python -m pytest`` subprocess with plugin autoloading off: it needs the inspector and pytest,
nothing else. The three runs of the demo module start at once; each starts its one server."""

from __future__ import annotations

import ast
import asyncio
import json
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from http_interop_support import CliRun, cli_env, run_cli, start_many
from replay_support import CHANGED, FIXTURES

from inspector.answers.build import build_answer_source
from inspector.cli.wiring import build_session
from inspector.targets.target import Target

pytestmark = pytest.mark.external  # (these tests start processes: not in --fast-lane)

PYTEST_TIMEOUT = 180.0
DEMO_TESTS = [
    "test_05_tools_call_add",
    "test_06_tools_call_get_weather",
    "test_07_tools_call_update_work_item",
    "test_08_tools_call_ask_capital",
    "test_09_tools_call_rolling_login",
    "test_10_tools_call_heavy_report",
    "test_11_tools_call_show_roots",
    "test_12_tools_call_book_meeting",
    "test_13_tools_call_open_dashboard",
    "test_14_tools_call_slow_count",
    "test_15_prompts_get_code_review",
    "test_16_resources_read_demo_report",
    "test_17_tools_call_deploy_release",
    "test_18_tools_call_nightly_build",
]
"""Every demo flow the re-run makes (not the handshake, not the three lists), named after its call."""
HOSTILE = [
    'x"); import os; os.system("touch PWNED_1") #',
    'x"""\nimport os; os.system("touch PWNED_2")\n"""',
    "x'''; __import__('os').system('touch PWNED_3') #",
    'x\u2028import os; os.system("touch PWNED_4")\u2029#',
    'x\rimport os; os.system("touch PWNED_5")\r#',
    "nul\x00byte\x1b[2J",
]


def _pytest(module: Path, env: dict[str, str], server: list[str] | None = None) -> subprocess.Popen[str]:
    """``python -m pytest MODULE`` in the module's folder, no plugin but pytest's own, nothing written beside it."""
    settings = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    if server is not None:
        settings["INSPECTOR_SERVER"] = shlex.join(server)
    return subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rA", module.name],
        cwd=module.parent, env={**env, **settings}, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip


def _finished(started: dict[str, subprocess.Popen[str]]) -> dict[str, CliRun]:
    """Each run's exit code and output, bounded; none is left running, whatever happens."""
    runs: dict[str, CliRun] = {}
    try:
        for name, process in started.items():
            output, _ = process.communicate(timeout=PYTEST_TIMEOUT)
            runs[name] = CliRun([name], process.returncode, output, "")
    finally:
        for process in started.values():
            if process.poll() is None:
                process.kill()
                process.communicate(timeout=5)
    return runs


def _write(folder: Path, name: str, run: CliRun) -> Path:
    assert run.code == 0, run.stderr
    folder.mkdir()
    module = folder / name
    module.write_text(run.stdout, encoding="utf-8")
    return module


@dataclass
class DemoRuns:
    module: Path
    runs: dict[str, CliRun]


@pytest.fixture(scope="module")
def demo_runs(tmp_path_factory: pytest.TempPathFactory) -> DemoRuns:
    folder = tmp_path_factory.mktemp("export-pytest")
    env = cli_env(folder / "data", INSPECTOR_DEMO_TASK_SCALE="0.1")  # (the demo's tasks work a tenth of their time)
    recording = folder / "demo.jsonl"
    recorded = run_cli("demo", "--headless", "--record", str(recording), env=env)
    assert recorded.code == 0, recorded.stderr[-3000:]
    export = ["export", str(recording), "--as", "pytest"]
    ignored = ["--ignore", "content[*].text", "--ignore", "structuredContent"]
    exports = start_many({"plain": export, "ignoring": [*export, *ignored]}, env).wait()
    module = _write(folder / "plain", "test_recorded.py", exports["plain"])
    ignoring = _write(folder / "ignoring", "test_recorded_ignoring.py", exports["ignoring"])
    started = {
        "recorded": _pytest(module, env),
        "changed": _pytest(module, env, CHANGED),
        "ignoring": _pytest(ignoring, env, CHANGED),
    }
    return DemoRuns(module, _finished(started))


def test_the_module_reads_like_tests_a_person_would_write(demo_runs: DemoRuns) -> None:
    tree = ast.parse(demo_runs.module.read_text(encoding="utf-8"))
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert [f.name for f in functions] == ["live", *DEMO_TESTS]
    assert all([ast.unparse(a.annotation) for a in f.args.args if a.annotation] == ["LiveRerun"] for f in functions[1:])
    doc = ast.get_docstring(tree) or ""
    assert "INSPECTOR_SERVER" in doc and "python -m pytest" in doc, "the module says at its top how to point it"
    imported = {node.module for node in tree.body if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names}
    packages = {name.split(".")[0] for name in imported if name}
    assert packages == {"__future__", "json", "os", "collections", "pytest", "inspector"}, "it needs nothing else"


def test_the_exported_module_passes_against_the_recorded_server(demo_runs: DemoRuns) -> None:
    run = demo_runs.runs["recorded"]
    assert run.code == 0, run.stdout[-4000:]
    assert f"{len(DEMO_TESTS)} passed" in run.stdout
    assert all(f"PASSED test_recorded.py::{name}" in run.stdout for name in DEMO_TESTS), run.stdout[-4000:]


def test_a_changed_result_fails_its_test_with_the_difference(demo_runs: DemoRuns) -> None:
    run = demo_runs.runs["changed"]
    assert run.code == 1, run.stdout[-4000:]
    assert f"1 failed, {len(DEMO_TESTS) - 1} passed" in run.stdout
    assert "FAILED test_recorded.py::test_05_tools_call_add - AssertionError" in run.stdout
    output = run.stdout.splitlines()
    said = "E       AssertionError: #5 tools/call add ended differently from the recording (against "
    assert any(line.startswith(said) for line in output), run.stdout[-4000:]
    assert 'E         content[0].text: "5" → "6"' in output
    assert "E         structuredContent.result: 5 → 6" in output


def test_ignored_paths_are_left_out_of_every_test(demo_runs: DemoRuns) -> None:
    run = demo_runs.runs["ignoring"]
    assert run.code == 0, run.stdout[-4000:]
    assert f"{len(DEMO_TESTS)} passed" in run.stdout


def _record_hostile(folder: Path) -> Path:
    """Calls of the bad fixture server (stdlib, stdio) under hostile tool names (each answered with a JSON-RPC error
    that repeats the name), and its ``echo`` given a hostile argument (its result repeats it)."""
    server = shlex.join([sys.executable, str(FIXTURES / "bad_server.py"), "ok"])
    recording = folder / "hostile.jsonl"

    async def record() -> None:
        session = build_session(Target.from_spec(server), build_answer_source(), record=recording)
        try:
            await session.connect()
            await session.call_tool("echo", {"text": HOSTILE[0]})
            for name in HOSTILE:
                await session.call_tool(name, {"note": name})
        finally:
            await session.close()

    asyncio.run(record())
    return recording


def test_hostile_names_become_identifiers_and_literals_and_the_module_runs_only_the_calls(tmp_path: Path) -> None:
    recording = _record_hostile(tmp_path)
    env = cli_env(tmp_path / "data")
    exported = run_cli("export", str(recording), "--as", "pytest", env=env)
    scratch = tmp_path / "scratch"
    module = _write(scratch, "test_hostile.py", exported)
    text = module.read_text(encoding="utf-8")
    tree = ast.parse(text)
    compile(tree, str(module), "exec")
    assert {type(node).__name__ for node in tree.body} == {"Expr", "ImportFrom", "Import", "Assign", "FunctionDef"}
    functions = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert functions == [
        "live",
        "test_02_tools_call_echo",
        "test_03_tools_call_x_import_os_os_system_touch_pwned_1",
        "test_04_tools_call_x_import_os_os_system_touch_pwned_2",
        "test_05_tools_call_x_import_os_system_touch_pwned_3",
        "test_06_tools_call_x_import_os_os_system_touch_pwned_4",
        "test_07_tools_call_x_import_os_os_system_touch_pwned_5",
        "test_08_tools_call_nul_byte_2_j",
    ]
    loaded = [
        json.loads(node.args[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and ast.unparse(node.func) == "json.loads"
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]
    named = sorted(value["name"] for value in loaded if isinstance(value, dict) and "arguments" in value)
    assert named == sorted(["echo", *HOSTILE]), "every name is data, read back as the server got it"
    errors = [value["message"] for value in loaded if isinstance(value, dict) and "code" in value]
    assert sorted(errors) == sorted(f"Unknown tool: {name}" for name in HOSTILE)
    assert "PWNED" not in (ast.get_docstring(tree) or "")
    assert not [line for line in text.splitlines() if line.lstrip().startswith("#")]
    run = _finished({"hostile": _pytest(module, env)})["hostile"]
    assert run.code == 0, run.stdout[-4000:]
    assert f"{len(HOSTILE) + 1} passed" in run.stdout, "the server answers each name as recorded"
    assert [path.name for path in scratch.iterdir()] == ["test_hostile.py"], "nothing but the calls happened"
