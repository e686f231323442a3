"""The composition root's parts: a target spec -> transport -> session, with answers and a recorder.

This is the only place that knows every layer: the faces get a finished ``InspectorSession``.
"""

from __future__ import annotations

import datetime as dt
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from inspector import __version__
from inspector.answers.base import AnswerSource
from inspector.session import records
from inspector.session.client import EraMode, InspectorSession
from inspector.session.recorder import Recorder
from inspector.transport.base import Transport

DEMO_COMMAND = [sys.executable, "-m", "inspector.demo"]
SECRET_HEADERS = frozenset({"authorization", "cookie", "proxy-authorization", "x-api-key"})


class UsageError(Exception):
    """A bad option value; printed as a usage error (exit code 2)."""


@dataclass(slots=True)
class TargetOptions:
    """What the user said about the server: a spec (URL or command line), headers, env, secrets."""

    spec: str
    headers: list[str] = field(default_factory=list)
    bearer: str | None = None
    env: list[str] = field(default_factory=list)
    secret: list[str] = field(default_factory=list)
    """Names of headers or env variables whose values must never reach a recording."""

    @property
    def kind(self) -> Literal["stdio", "http"]:
        """http for an http(s) URL, stdio for anything else (a command line)."""
        return "http" if self.spec.startswith(("http://", "https://")) else "stdio"

    def parsed_headers(self) -> dict[str, str]:
        """``--header 'K: V'`` values plus ``--bearer``."""
        headers: dict[str, str] = {}
        for item in self.headers:
            name, sep, value = item.partition(":")
            if not sep or not name.strip():
                raise UsageError(f"--header {item!r} is not 'Name: value'")
            headers[name.strip()] = value.strip()
        if self.bearer:
            headers["Authorization"] = f"Bearer {self.bearer}"
        return headers

    def parsed_env(self) -> dict[str, str]:
        """``--env K=V`` values."""
        env: dict[str, str] = {}
        for item in self.env:
            name, sep, value = item.partition("=")
            if not sep or not name:
                raise UsageError(f"--env {item!r} is not NAME=value")
            env[name] = value
        return env

    def secrets(self) -> list[str]:
        """Every value that must be redacted from recordings."""
        marked = {name.lower() for name in self.secret}
        values = [v for k, v in self.parsed_headers().items() if k.lower() in SECRET_HEADERS or k.lower() in marked]
        values += [v for k, v in self.parsed_env().items() if k.lower() in marked]
        if self.bearer:
            values.append(self.bearer)
        return [v for v in values if v]

    def secret_header_names(self) -> set[str]:
        """Header names to redact in HTTP exchange records."""
        return {name.lower() for name in self.secret} | set(SECRET_HEADERS)


def demo_target() -> TargetOptions:
    """The bundled demo server over stdio."""
    return TargetOptions(spec=shlex.join(DEMO_COMMAND))


def build_transport(target: TargetOptions) -> Transport:
    """A transport for the target (stdio command line or Streamable HTTP URL)."""
    if target.kind == "http":
        from inspector.transport.http import StreamableHttpTransport

        return StreamableHttpTransport(
            target.spec, headers=target.parsed_headers(), secret_headers=target.secret_header_names()
        )
    from inspector.transport.stdio import StdioTransport

    argv = shlex.split(target.spec)
    if not argv:
        raise UsageError("the server command is empty")
    env = target.parsed_env()
    return StdioTransport(argv, env=env or None)


def default_recording_path(data_dir: Path | None = None) -> Path:
    """A new file in the recordings folder (``$INSPECTOR_DATA_DIR`` or the user's data folder), named by the time
    it starts; old default recordings beyond the configured count/size are pruned first (``inspector.replay.store``)."""
    from inspector.replay.store import new_recording_path

    return new_recording_path(data_dir)


def open_recorder(path: Path | None, target: TargetOptions, era: str, transport_kind: str) -> Recorder | None:
    """A recorder writing to ``path`` (None: not recording)."""
    if path is None:
        return None
    started = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    header = records.header(target.spec, transport_kind, era, started=started, inspector_version=__version__)
    return Recorder(path, header, secrets=target.secrets())


def build_session(
    target: TargetOptions,
    answers: AnswerSource,
    *,
    era: EraMode = "auto",
    record: Path | None = None,
    max_rounds: int = 10,
    timeout: float = 60.0,
) -> InspectorSession:
    """Transport + recorder + session, not yet connected."""
    transport = build_transport(target)
    recorder = open_recorder(record, target, era, transport.kind)
    return InspectorSession(transport, answers, era=era, recorder=recorder, max_rounds=max_rounds, timeout=timeout)
