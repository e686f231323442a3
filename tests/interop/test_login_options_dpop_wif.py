"""The login options of DPoP and the workload's grant as the command line reads them, in process: what each
becomes in the transport's login config (``cli.wiring.login_config``), and the usage errors that stop a run before
anything is sent (exit 2, saying which option). Logging in with them against real servers:
``test_conformance_dpop_wif.py``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from inspector.cli import app
from inspector.cli.options import ConnectOptions
from inspector.cli.wiring import login_config
from inspector.targets.target import Target
from inspector.transport.oauth.token_store import open_store

URL = "http://127.0.0.1:9/mcp"
"""Nothing listens there: a usage error must stop the run before it is ever tried."""


def config(**given: Any) -> Any:
    auth = login_config(Target.from_spec(URL), ConnectOptions(**given).login(), store=open_store("memory"))
    assert auth is not None
    return auth


def test_dpop_is_auto_unless_a_flag_says_on_or_off() -> None:
    assert [config().dpop, config(dpop=True).dpop, config(dpop=False).dpop] == ["auto", "on", "off"]


def test_an_assertion_file_is_a_workload_login_read_at_each_token_request(tmp_path: Path) -> None:
    file = tmp_path / "token"
    file.write_text("a.b.c\n")
    auth = config(jwt_bearer_assertion_file=file, client_id="workload-1")
    given = auth.credentials
    assert (given.grant, given.client_id, given.assertion.file, given.assertion.value) == (
        "jwt_bearer", "workload-1", str(file), None,
    )  # fmt: skip
    assert not given.needs_person, "no browser, no terminal: it runs where no person is"


def test_an_assertion_in_a_variable_is_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKLOAD_JWT", "x.y.z")
    given = config(jwt_bearer_assertion_env="WORKLOAD_JWT").credentials
    assert given.grant == "jwt_bearer" and given.secrets() == ["x.y.z"] and "x.y.z" not in repr(given)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--jwt-bearer-assertion-file", "{missing}"], "cannot read"),
        (["--jwt-bearer-assertion-file", "{empty}"], "is empty"),
        (["--jwt-bearer-assertion-env", "NO_SUCH_VARIABLE_31"], "that variable is not set"),
        (["--jwt-bearer-assertion-file", "{token}", "--jwt-bearer-assertion-env", "HOME"], "give one of"),
        (["--jwt-bearer-assertion-file", "{token}", "--client-id", "c", "--client-secret", "s"], "assertion alone"),
        (["--jwt-bearer-assertion-file", "{token}", "--no-login"], "--no-login forbids a workload's login"),
    ],
)
def test_a_workload_login_that_cannot_work_is_a_usage_error(tmp_path: Path, args: list[str], said: str) -> None:
    (tmp_path / "token").write_text("a.b.c")
    (tmp_path / "empty").write_text("\n")
    paths = {"missing": tmp_path / "missing", "empty": tmp_path / "empty", "token": tmp_path / "token"}
    filled = [arg.format(**paths) for arg in args]
    result = CliRunner().invoke(app, ["call", "t", "--server", URL, "--no-record", *filled])
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.output.replace("│", " ").split()), result.output  # (unboxed, unwrapped)
