"""Shared test fixtures. Keep this file small: helpers for one test folder live in that folder."""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Final

import pytest

# The demo's task flows work ~3 s at full scale; suites that run every demo flow need them done, not timed. Set
# for the whole run (module-scoped servers start before any function fixture), inherited by every subprocess;
# the task flows' own tests (tests/demo) pass the scale they need.
os.environ.setdefault("INSPECTOR_DEMO_TASK_SCALE", "0.1")

# The official result models' schemas (inspector/timeline/result_models.py) are kept in one cache folder for the
# whole run, never the user's: the first process of the run that validates a result builds each, every later one
# reads it. Made by the first process that loads this file (xdist's workers and every subprocess inherit it).
if "INSPECTOR_CACHE_DIR" not in os.environ:
    os.environ["INSPECTOR_CACHE_DIR"] = tempfile.mkdtemp(prefix="inspector-test-cache-")
    atexit.register(shutil.rmtree, os.environ["INSPECTOR_CACHE_DIR"], ignore_errors=True)

BAD_SERVER = Path(__file__).parent / "fixtures" / "bad_server.py"
"""The misbehaving stdio MCP server (stdlib only); its docstring lists the modes."""


@pytest.fixture
def bad_server() -> Callable[[str], list[str]]:
    """``bad_server(mode)`` is the argv that runs ``tests/fixtures/bad_server.py`` in that mode."""
    return lambda mode: [sys.executable, str(BAD_SERVER), mode]


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Default recordings (and anything else under ``$INSPECTOR_DATA_DIR``) go to a temporary folder, never the
    user's; subprocesses inherit it."""
    monkeypatch.setenv("INSPECTOR_DATA_DIR", str(tmp_path_factory.mktemp("inspector-data")))
    monkeypatch.setenv("INSPECTOR_CONFIG_DIR", str(tmp_path_factory.mktemp("inspector-config")))


# ---------------------------------------------------------------------------------------------------- the fast lane
# ``pytest --fast-lane`` runs the tests that need no subprocess, no socket and no peer, and drive no TUI: the inner
# loop while developing (README, "While developing"). A module whose tests start a process or open a socket says so
# with ``pytestmark = pytest.mark.external``; every test under tests/ui is a TUI pilot or snapshot (marked ``tui``
# here). In the fast lane a test that reaches outside anyway fails saying which mark it lacks, so the lane stays
# what it claims to be.
UI_TESTS = Path(__file__).parent / "ui"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fast-lane",
        action="store_true",
        help="only the tests that need no subprocess, socket or peer and drive no TUI (the inner loop)",
    )


LONGEST_FIRST: Final = (
    "interop/test_conformance.py",
    "ui/test_modal_sizes.py",
    "ui/test_main_screen.py",
    "demo/test_demo_tasks_session.py",
    "ui/test_long_work.py",
    "ui/test_elicitation_modal.py",
    "ui/test_compose_screen.py",
)
"""The files that take longest, started first. ``-n auto --dist loadfile`` hands each file to one worker in the
order collected; the conformance file (54 scenarios, about 75 s with two at a time) came to a worker near the end
and ran alone for its last minute while the other worker sat idle. Measured with ``--durations`` over the suite."""


def _started_early(item: pytest.Item) -> int:
    path = item.path.as_posix()
    return next((rank for rank, name in enumerate(LONGEST_FIRST) if path.endswith(name)), len(LONGEST_FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_started_early)  # (stable: each file's tests keep their order)
    for item in items:
        if UI_TESTS in item.path.parents:
            item.add_marker(pytest.mark.tui)
    if not config.getoption("--fast-lane"):
        return
    kept = [item for item in items if not any(item.iter_markers("external")) and not any(item.iter_markers("tui"))]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept


class _OutsideTheProcess(Exception):
    """A fast-lane test started a process or opened a network socket."""


@pytest.fixture(autouse=True)
def _fast_lane_stays_in_process(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """In the fast lane, starting a process or opening an IP socket fails the test with the mark it lacks."""
    if not request.config.getoption("--fast-lane"):
        return
    hint = "; it is not for the fast lane: mark its module with `pytestmark = pytest.mark.external`"

    def no_process(*args: object, **kwargs: object) -> None:
        raise _OutsideTheProcess(f"{request.node.nodeid} starts a process{hint}")

    def guarded(original: Callable[..., object]) -> Callable[..., object]:
        def call(self: socket.socket, *args: object) -> object:
            if self.family in (socket.AF_INET, socket.AF_INET6):
                raise _OutsideTheProcess(f"{request.node.nodeid} opens a network socket{hint}")
            return original(self, *args)

        return call

    monkeypatch.setattr(subprocess.Popen, "_execute_child", no_process)
    monkeypatch.setattr(socket.socket, "connect", guarded(socket.socket.connect))
    monkeypatch.setattr(socket.socket, "bind", guarded(socket.socket.bind))
