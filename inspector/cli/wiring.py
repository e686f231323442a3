"""The composition root's parts: a Target -> transport -> session, with answers, a recorder and the process-wide
choices (the event loop, the heap policy, the reply polling per transport, a patch to httpcore's imports).

This is the only place that knows every layer: the faces get a finished ``InspectorSession``.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import logging
import shlex
import sys
from collections.abc import Awaitable
from pathlib import Path
from typing import TYPE_CHECKING, Final, TypedDict, TypeVar, Unpack

from inspector import __version__
from inspector.answers.source import AnswerSource
from inspector.headless.terminal import err_console
from inspector.protocol.redact import Redactor
from inspector.session.heap import FreezingHeap
from inspector.session.recorder import Recorder
from inspector.session.result_cache import ResultCache
from inspector.session.session import EraMode, InspectorSession
from inspector.session.task_store import TaskStore
from inspector.targets.target import Target
from inspector.timeline import records
from inspector.transport.base import Transport

if TYPE_CHECKING:
    from rich.console import Console

    from inspector.cli.login_choices import LoginChoices
    from inspector.protocol.oauth import Login
    from inspector.transport.oauth.config import AuthConfig
    from inspector.transport.oauth.token_store import TokenStore

DEMO_COMMAND: Final = [sys.executable, "-m", "inspector.demo"]
REPLY_POLL_S: Final[dict[str, float]] = {"stdio": 0.0003, "http": 0.0}
"""How long a request keeps the event loop turning for its reply, per transport (``Connection.reply_poll_s``).

A local stdio server answers over a pipe in tens of microseconds, and waking a process that went to sleep on the
pipe costs about as much again on a virtual machine (measured: a polling client loop ran 17k round trips/s where a
sleeping one ran 8k; ``tests/perf/bench_stdio.py``); 0.3 ms per request is nothing a slow server would notice. An
HTTP reply takes milliseconds: polling would only burn CPU."""
HEAP: Final = FreezingHeap()
"""The process's heap policy, shared by every session it runs (``session/heap.py``)."""

Result = TypeVar("Result")


def demo_target() -> Target:
    """The bundled demo server over stdio."""
    return Target.from_spec(shlex.join(DEMO_COMMAND), name="demo server")


def build_transport(target: Target, auth: AuthConfig | None = None) -> Transport:
    """A transport for the target (stdio command line or Streamable HTTP URL). ``auth``: an HTTP server may be
    logged in to (not when the user gave an ``Authorization`` of their own: that token is theirs to manage)."""
    if target.kind == "http":
        _absent_sniffio_fails_fast()
        from inspector.transport.http import StreamableHttpTransport

        own_token = any(name.lower() == "authorization" for name in target.headers)
        return StreamableHttpTransport(
            target.url or "",
            headers=target.headers,
            secret_headers=target.secret_header_names(),
            auth=None if own_token else auth,
        )
    from inspector.transport.stdio import StdioTransport

    return StdioTransport(list(target.command), env=target.env or None)


def default_recording_path(data_dir: Path | None = None) -> Path:
    """A new file in the recordings folder (``$INSPECTOR_DATA_DIR`` or the user's data folder), named by the time
    it starts; old default recordings beyond the configured count/size are pruned first (``inspector.replay.store``)."""
    from inspector.replay.store import new_recording_path

    return new_recording_path(data_dir)


def open_recorder(
    path: Path | None,
    target: Target,
    era: str,
    transport_kind: str,
    described: str | None = None,
    secrets: list[str] | None = None,
) -> Recorder | None:
    """A recorder writing to ``path`` (None: not recording); the header names the target by its spec, or by
    ``described`` (the lab's instances)."""
    if path is None:
        return None
    started = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    hidden = target.secrets() if secrets is None else secrets
    spec = Redactor(hidden).redact(described if described is not None else target.spec)
    return Recorder(path, records.header(spec, transport_kind, era, started=started, inspector_version=__version__))


class SessionSettings(TypedDict, total=False):
    """How a session runs, as every command that connects may set it (each key an ``InspectorSession`` option)."""

    max_rounds: int
    timeout: float
    max_timeout: float
    legacy_offer: str
    modern_version: str
    tasks: bool
    log_level: str | None
    task_timeout: float | None
    cache: ResultCache | None


def build_session(
    target: Target,
    answers: AnswerSource,
    *,
    era: EraMode | None = None,
    record: Path | None = None,
    auth: AuthConfig | None = None,
    **settings: Unpack[SessionSettings],
) -> InspectorSession:
    """Transport + recorder + session, not yet connected (``era`` defaults to the target's; ``auth``: how an HTTP
    server may be logged in to, its client secret and tokens redacted with the target's secrets)."""
    return session_over(
        build_transport(target, auth),
        target,
        answers,
        era=era if era is not None else target.era,
        record=record,
        secrets=[*target.secrets(), *(auth.credentials.secrets() if auth is not None else [])],
        **settings,
    )


def session_over(
    transport: Transport,
    target: Target,
    answers: AnswerSource,
    *,
    era: EraMode,
    record: Path | None = None,
    described: str | None = None,
    secrets: list[str] | None = None,
    **settings: Unpack[SessionSettings],
) -> InspectorSession:
    """A session (with its recorder) on a transport already made: ``target`` says which values are secret (or
    ``secrets``: every one of them) and names it in the recording, unless ``described`` does (the lab's routed
    transport over two instances)."""
    hidden = target.secrets() if secrets is None else secrets
    name = Redactor(hidden).redact(described if described is not None else target.spec)
    store = TaskStore(name, str(record) if record is not None else None)
    return InspectorSession(
        transport,
        answers,
        era=era,
        recorder=open_recorder(record, target, era, transport.kind, described, hidden),
        heap=HEAP,
        reply_poll_s=REPLY_POLL_S.get(transport.kind, 0.0),
        secrets=hidden,
        task_store=store,
        **settings,
    )


def run_loop(main: Awaitable[Result]) -> Result:
    """Run a headless command's coroutine on a fresh event loop: uvloop where it exists (about twice the round-trip
    rate of asyncio's own loop)."""

    async def run() -> Result:
        return await main

    try:
        import uvloop
    except ImportError:  # pragma: no cover - Windows
        import asyncio

        return asyncio.run(run())
    return uvloop.run(run())


def login_config(
    target: Target,
    choices: LoginChoices,
    console: Console | None = None,
    *,
    quiet: bool = False,
    store: TokenStore | None = None,
    face: Login | None = None,
) -> AuthConfig | None:
    """How an HTTP target may be logged in to: the user's token store, the client they named, and a terminal
    login (the browser where there is one here, a pasted redirect where stdin is a terminal) unless ``--no-login``
    or nobody could complete one (then a login that would be needed fails at once, saying what to run).
    ``quiet``: no prompt printed and nothing pasted (the TUI, which owns the terminal). ``face``: the face's own
    login instead of the terminal's (the TUI's login screen, which takes a pasted redirect itself)."""
    if target.kind != "http":
        return None
    from inspector.cli.terminal_login import FlagConsent, TerminalLogin, browser_here, terminal_here
    from inspector.protocol.login_urls import RiskConsent
    from inspector.transport.oauth.config import AuthConfig, Credentials, WorkloadAssertion
    from inspector.transport.oauth.token_store import open_store

    quiet_sdk_logging()
    browser = choices.browser and browser_here()
    paste = not quiet and terminal_here()
    login: Login | None = None
    reason = "--no-login was given"
    if choices.allowed and face is not None:
        login = face
    elif choices.allowed and (browser or paste):
        shown = console if console is not None and not quiet else err_console(quiet=quiet)
        login = TerminalLogin(shown, browser=browser, paste=paste)
    elif choices.allowed:
        reason = (
            "there is no browser here (and the TUI takes no pasted redirect yet)"
            if quiet
            else "there is no browser here and no terminal to paste the redirect into"
        )
    credentials = Credentials(choices.client_id, choices.client_secret, client_metadata_url=choices.client_metadata_url)
    if choices.assertion_file or choices.assertion:
        # a workload: its platform's JWT is the grant (no browser, no registration), read anew at each token request
        workload = WorkloadAssertion(choices.assertion_file, None if choices.assertion_file else choices.assertion)
        credentials = Credentials(choices.client_id, grant="jwt_bearer", assertion=workload)
    # The warnings about a login's addresses: the flag accepts them; else the face's own screen asks (the TUI's),
    # else the login stops, saying which flag goes on.
    consent: RiskConsent | FlagConsent = FlagConsent(choices.accept_risks, None if quiet else console or err_console())
    if isinstance(face, RiskConsent) and not choices.accept_risks:
        consent = face
    return AuthConfig(
        store if store is not None else open_store(),
        login,
        credentials,
        callback_port=choices.callback_port,
        login_timeout=choices.timeout,
        no_login_reason=reason,
        consent=consent,
        dpop=choices.dpop,
    )


def quiet_sdk_logging() -> None:
    """The SDK logs a failed OAuth flow with ``logger.exception`` (a traceback through logging's last-resort
    handler, on every face). A failed login is reported as a fault with its step and hint instead, so the SDK's
    loggers are given a handler that drops everything. Process-wide, so it is done here."""
    sdk = logging.getLogger("mcp")
    if not any(isinstance(h, logging.NullHandler) for h in sdk.handlers):
        sdk.addHandler(logging.NullHandler())
    sdk.propagate = False


def _absent_sniffio_fails_fast() -> None:
    """httpcore 1.x runs ``import sniffio`` four times per request; sniffio is optional (anyio 4 does not need it)
    and, when it is not installed, every attempt searches the whole ``sys.path`` again: a fifth of an HTTP round
    trip's CPU (``tests/perf/bench_http.py``). ``None`` in ``sys.modules`` gives the very same ImportError at once.
    A process-wide patch to a third-party module, so it is made here, with the other process-wide choices."""
    if "sniffio" not in sys.modules and importlib.util.find_spec("sniffio") is None:
        sys.modules["sniffio"] = None  # type: ignore[assignment]
