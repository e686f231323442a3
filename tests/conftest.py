"""Shared test fixtures. Keep this file small: helpers for one test folder live in that folder."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

# The demo's task flows work ~3 s at full scale; suites that run every demo flow need them done, not timed. Set
# for the whole run (module-scoped servers start before any function fixture), inherited by every subprocess;
# the task flows' own tests (tests/demo) pass the scale they need.
os.environ.setdefault("INSPECTOR_DEMO_TASK_SCALE", "0.1")

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
