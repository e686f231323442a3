"""The TUI's Lab screen runs its instances the way ``inspector lab`` does, and logs in to an HTTP instance through the
TUI's own login screen (the face its sessions use), never through the terminal the TUI draws in."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.answers.build import build_answer_source
from inspector.cli.lab_commands import CliTargets
from inspector.cli.login_choices import LoginChoices
from inspector.cli.tui_lab import TuiLabFactory
from inspector.lab.lab_calls import tool_call
from inspector.targets.target import Target
from inspector.ui.lab_port import LabAsk, LabChoice
from inspector.ui.login.tui_login import ScreenLogin

A = "http://127.0.0.1:9/mcp"
B = "http://127.0.0.1:10/mcp"


def started(factory: TuiLabFactory, target: Target, instance_b: str) -> CliTargets:
    ask = LabAsk(target, instance_b, ("stateless",), (LabChoice(tool_call("add"), "suggested"),))
    lab = factory.start(ask, build_answer_source(None))
    assert isinstance(lab.targets, CliTargets)
    return lab.targets


def test_an_http_instance_is_logged_in_to_through_the_tuis_login_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INSPECTOR_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("INSPECTOR_TOKEN_STORE", "file")
    face = ScreenLogin(None)
    targets = started(TuiLabFactory(record=False, login=LoginChoices(), face=face), Target.from_spec(A), B)
    assert set(targets.auth) == {"A", "B"}
    assert all(auth is not None and auth.login is face for auth in targets.auth.values())


def test_no_login_leaves_a_401_standing_and_stdio_needs_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INSPECTOR_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("INSPECTOR_TOKEN_STORE", "file")
    refused = LoginChoices(allowed=False)
    targets = started(TuiLabFactory(record=False, login=refused, face=ScreenLogin(None)), Target.from_spec(A), B)
    assert all(auth is not None and auth.login is None for auth in targets.auth.values())
    stdio = started(TuiLabFactory(record=False), Target.from_spec("python server.py"), "")
    assert stdio.auth == {"A": None, "B": None}
