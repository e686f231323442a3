"""``inspector auth login|status|logout``: logging in to a server before using it, seeing what is stored, and
forgetting it. The other commands log in by themselves when a server asks; these are for doing it on purpose (and
for CI, which runs with ``--no-login`` and a login made beforehand)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from inspector.cli.options import ConnectOptions, Group, connects
from inspector.protocol.sanitize import json_text, one_line

if TYPE_CHECKING:
    from rich.text import Text

    from inspector.timeline.model import TimelineEvent
    from inspector.transport.oauth.token_store import TokenStore

# `inspector --help` imports this module: the session, the token store and the login's rendering are imported by
# the command that uses them (tests/perf/bench_cold.py).

UrlArg = Annotated[str, typer.Argument(help="The MCP server's http(s) URL.")]


@connects(Group.TARGET, Group.ERA, Group.RECORD, Group.JSON, Group.LIMITS, Group.LOGIN)
def login(
    url: UrlArg,
    force: Annotated[bool, typer.Option("--force", help="Log in again even when a stored login still works.")] = False,
    *,
    opts: ConnectOptions,
) -> None:
    """Log in to a server (OAuth): discovery, registration, the browser, the token; each step printed as it
    happens. The login is stored for every later command (exit 0 logged in, 3 the login failed)."""
    from rich.text import Text

    from inspector.cli.run import connect_or_report, error_console, say_recorded
    from inspector.cli.wiring import build_session, login_config, run_loop
    from inspector.headless.auth_render import LiveSteps, login_summary
    from inspector.headless.json_document import split_json
    from inspector.headless.terminal import out_console
    from inspector.protocol.oauth import NOT_STORED
    from inspector.timeline.outcome import EXIT_CONNECT
    from inspector.timeline.time_split import login_split

    target = opts.target(url)
    if target.kind != "http":
        raise typer.BadParameter("a login needs an http(s) URL")
    choices = opts.login()
    if not choices.allowed:
        raise typer.BadParameter("--no-login forbids the very thing `auth login` does")
    console = error_console()
    store = _store()
    auth = login_config(target, choices, console, store=store)
    assert auth is not None
    server = target.url or url
    if force:
        _forget_tokens(store, server)
    record_to = opts.recording()

    async def main() -> int:
        session = build_session(
            target, opts.answer_source(), era=opts.era_mode(), record=record_to, timeout=opts.timeout, auth=auth
        )
        live = LiveSteps(console)

        def show(_: TimelineEvent) -> None:
            if not opts.as_json:
                live.show(session.log.builder.timeline.auth)

        def before_error(message: str) -> None:
            show_all = not opts.as_json
            if show_all:  # (reading ``session.timeline`` writes what is queued: every step is in)
                live.show(session.timeline.auth)
            live.before_error(message)

        session.timeline.subscribe(show)
        try:
            connected = await connect_or_report(session, as_json=opts.as_json, before_error=before_error)
        finally:
            await session.close()
        live.finish()
        if not connected:
            say_recorded(record_to)
            return EXIT_CONNECT
        steps = session.timeline.auth
        fresh = any(s.step == "token" and s.outcome == "ok" and s.http is not None for s in steps)
        summary = _summary(store, server)
        # a DPoP-bound or a workload's token lives in this process only: the login worked, and nothing was stored
        kept = next((s.what for s in steps if s.step == "token" and s.what.startswith(NOT_STORED)), None)
        if opts.as_json:
            doc: dict[str, Any] = {
                "status": "logged-in" if fresh else ("already-logged-in" if summary else "no-login-needed"),
                "login": summary,
                "stored": fresh and kept is None,
                "store": store.where,
                "steps": [s.to_json() for s in steps],
                **split_json(login_split(steps)),  # the exchanges the server's, the consent page the person's
            }
            sys.stdout.write(json_text(doc) + "\n")
        elif fresh and kept is not None:
            if steps:
                console.print(login_summary(steps))
            out_console().print(Text(f"logged in to {one_line(server, 120)}; {one_line(kept, 240)}", style="bold"))
        elif summary is None:
            out_console().print(Text(f"{one_line(server, 120)} asked for no login: nothing stored"))
        else:
            if steps:
                console.print(login_summary(steps))  # its time: the exchanges the server's, the browser the person's
            what = "logged in to" if fresh else "already logged in to"
            out_console().print(_said(what, summary, store.where))
        say_recorded(record_to)
        return 0

    raise typer.Exit(run_loop(main()))


def status(
    url: Annotated[str | None, typer.Argument(help="Only this server.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document.")] = False,
) -> None:
    """The stored logins: server, issuer, client, scope, expiry, refresh token (read without touching a secret)."""
    from inspector.headless.auth_render import status_json, status_view
    from inspector.headless.terminal import out_console

    store = _store()
    found = [entry for entry in store.summaries() if url is None or entry.get("server") == url]
    if as_json:
        sys.stdout.write(json_text({"store": store.where, "logins": [status_json(e) for e in found]}) + "\n")
        return
    if not found:
        out_console().print(f"no stored login{f' for {one_line(url, 120)}' if url else ''} ({store.where})")
        raise typer.Exit(1 if url else 0)
    console = out_console()
    console.print(status_view(found, store.where, console.width))


def logout(
    url: UrlArg,
    keep_registration: Annotated[
        bool, typer.Option("--keep-registration", help="Forget the tokens only; keep the client registration.")
    ] = False,
) -> None:
    """Revoke the stored tokens where the server offers revocation, then forget the login."""
    from rich.text import Text

    from inspector.cli.wiring import run_loop
    from inspector.headless.terminal import out_console

    store = _store()
    record = store.load(url)
    if record is None:
        out_console().print(f"no stored login for {one_line(url, 120)}")
        raise typer.Exit(1)
    from inspector.transport.oauth.revoke import revoke  # (the login machinery only where it is used)

    console = out_console()
    for line in run_loop(revoke(record)):
        console.print(Text(one_line(line, 300), style="dim"))
    if keep_registration:
        store.save(record.without_tokens())
        console.print(f"logged out of {one_line(url, 120)}; the client registration is kept ({store.where})")
    else:
        store.delete(url)
        console.print(f"logged out of {one_line(url, 120)} and forgot its registration ({store.where})")


def _store() -> TokenStore:
    from inspector.cli.run import say_error
    from inspector.transport.oauth.token_store import StoreError, open_store

    try:
        return open_store()
    except StoreError as bad:
        say_error(str(bad), "set INSPECTOR_TOKEN_STORE to keyring, file or memory")
        raise typer.Exit(2) from None


def _forget_tokens(store: TokenStore, server: str) -> None:
    record = store.load(server)
    if record is not None and record.tokens is not None:
        store.save(record.without_tokens())


def _summary(store: TokenStore, server: str) -> dict[str, Any] | None:
    from inspector.headless.auth_render import expiry_text, status_json

    for entry in store.summaries():
        if entry.get("server") == server:
            return status_json(entry) | {"expires": expiry_text(entry)}
    return None


def _said(what: str, summary: dict[str, Any], where: str) -> Text:
    from rich.text import Text

    text = Text(f"{what} {one_line(str(summary['server']), 120)}", style="bold green")
    text.append(
        f": issuer {one_line(str(summary['issuer']), 100)}, client {one_line(str(summary['clientId']), 80)} "
        f"({summary['registration']}), scope {one_line(str(summary['scope']), 80)!r}, {summary['expires']}, "
        f"refresh token {'yes' if summary['refreshToken'] else 'no'}; stored in {one_line(where, 160)}"
    )
    return text


def register(app: typer.Typer) -> None:
    """Add ``inspector auth ...`` to ``app``."""
    auth = typer.Typer(help="Log in to servers behind OAuth, see the stored logins, log out.", no_args_is_help=True)
    auth.command()(login)
    auth.command()(status)
    auth.command()(logout)
    app.add_typer(auth, name="auth")
