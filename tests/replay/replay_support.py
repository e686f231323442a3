"""Shared pieces of the replay tests: servers to record (the demo, the changed fixture; stdio or HTTP), a live
recorded session of every demo flow, the CLI run in-process, and the folder's fixture (``conftest.py`` names it for
pytest)."""

from __future__ import annotations

import selectors
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from http_interop_support import stop

from inspector.answers.build import build_answer_source
from inspector.cli import app
from inspector.cli.demo_flows import example_answers_path, run_demo_flows
from inspector.session.recorder import Recorder
from inspector.session.session import EraMode, InspectorSession
from inspector.timeline import records
from inspector.timeline.model import Timeline
from inspector.transport.base import Transport

FIXTURES = Path(__file__).parents[1] / "fixtures"
CHANGED_SERVER = FIXTURES / "changed_server.py"
DEMO = [sys.executable, "-m", "inspector.demo"]
CHANGED = [sys.executable, str(CHANGED_SERVER)]
STARTUP_TIMEOUT = 60.0
"""A bound on a hang, not a guess at how long it takes: on a 2-core machine running other suites (load average
6 and more) a server has taken over 20 s to start and four concurrent CLI runs over 60 s; a wait that ends early
when the event comes costs nothing more on an idle machine."""


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every replay test writes recordings under its own temporary folder, never the user's data folder:
    ``$INSPECTOR_DATA_DIR`` and ``$INSPECTOR_CONFIG_DIR`` point into ``tmp_path``; wide output for rich."""
    folder = tmp_path / "data"
    monkeypatch.setenv("INSPECTOR_DATA_DIR", str(folder))
    monkeypatch.setenv("INSPECTOR_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("INSPECTOR_KEEP_RECORDINGS", raising=False)
    monkeypatch.delenv("INSPECTOR_KEEP_MB", raising=False)
    monkeypatch.setenv("COLUMNS", "200")
    yield folder


def invoke(*args: str) -> Result:
    """``inspector ARGS`` in this process; stdout and stderr kept apart."""
    return CliRunner().invoke(app, list(args))


@contextmanager
def http_server(argv: list[str]) -> Iterator[str]:
    """Run ``argv --http --port 0`` and yield the URL it prints on stderr (bounded wait, no sleep)."""
    process = subprocess.Popen(
        [*argv, "--http", "--port", "0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stderr is not None
        deadline = time.monotonic() + STARTUP_TIMEOUT
        url = None
        with selectors.DefaultSelector() as selector:
            selector.register(process.stderr, selectors.EVENT_READ)
            while url is None and (remaining := deadline - time.monotonic()) > 0:
                if not selector.select(timeout=remaining):
                    break
                line = process.stderr.readline()
                if not line:
                    break
                if " on http://" in line:
                    url = line.strip().rsplit(" ", 1)[-1]
        assert url is not None, f"the server did not print its URL (exit code {process.poll()})"
        # (a server shared by several tests logs on: its stderr is read to the end, so a full pipe never stalls it)
        threading.Thread(target=process.stderr.read, daemon=True).start()
        yield url
    finally:
        stop(process)


def transport_for(spec: str | list[str]) -> Transport:
    """Stdio for an argv, Streamable HTTP for a URL."""
    if isinstance(spec, str):
        from inspector.transport.http import StreamableHttpTransport

        return StreamableHttpTransport(spec)
    from inspector.transport.stdio import StdioTransport

    return StdioTransport(spec)


async def record_demo_session(spec: str | list[str], path: Path, era: EraMode = "auto") -> Timeline:
    """Run every demo flow live, recording to ``path``; returns the live timeline (after close)."""
    transport = transport_for(spec)
    header = records.header(
        transport.describe(), transport.kind, era, started="2026-01-01T00:00:00+00:00", inspector_version="test"
    )
    recorder = Recorder(path, header)
    session = InspectorSession(
        transport, build_answer_source(example_answers_path(), "fail", True, []), era=era, recorder=recorder
    )
    try:
        await session.connect()
        outcomes = await run_demo_flows(session)
        assert all(o.ok for o in outcomes), [(session.call(o.call_index).name, o.status, o.detail) for o in outcomes]
    finally:
        await session.close()
    return session.timeline
