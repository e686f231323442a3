"""The commands that serve rather than inspect: the bundled demo server, and the conformance suite's adapter."""

from __future__ import annotations

from typing import Annotated

import typer

from inspector.demo.flaw_names import FLAWS


def demo_server(
    http: Annotated[bool, typer.Option("--http", help="Serve Streamable HTTP on 127.0.0.1 instead of stdio.")] = False,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="HTTP port (0 picks a free one).")] = 0,
    flaw: Annotated[
        str | None,
        typer.Option(
            "--flaw",
            help=f"Fail `inspector lab` on purpose: {', '.join(FLAWS)}.",
        ),
    ] = None,
    auth: Annotated[
        bool, typer.Option("--auth", help="With --http: behind OAuth, with its own authorization server.")
    ] = False,
    as_port: Annotated[
        int, typer.Option("--as-port", min=0, max=65535, help="The authorization server's port (0: a free one).")
    ] = 0,
    auto_consent: Annotated[
        bool, typer.Option("--auto-consent", help="Approve every login at once (no consent page).")
    ] = False,
    token_ttl: Annotated[int, typer.Option("--token-ttl", min=1, help="Seconds an access token lives.")] = 3600,
) -> None:
    """Run the bundled demo server (every MRTR flow of the spec), over stdio or Streamable HTTP (with --auth,
    behind OAuth: `add` then needs a step-up to demo:write); with --flaw, a server that is not stateless in one
    named way (the statelessness lab must catch it)."""
    if auth and not http:
        raise typer.BadParameter("--auth needs --http")
    if auth and flaw is not None:
        raise typer.BadParameter("--auth and --flaw do not go together")
    if auth:
        from inspector.demo.auth_server import run_auth_http

        run_auth_http(port, as_port, auto_consent=auto_consent, token_ttl=token_ttl)
        return
    from inspector.demo.server import LOOPBACK, run_http, run_stdio

    if flaw is not None and flaw not in FLAWS:
        raise typer.BadParameter(f"--flaw must be one of {', '.join(FLAWS)}")
    if http:
        run_http(port, LOOPBACK, flaw)
    else:
        run_stdio(flaw)


def conformance_client(
    url: Annotated[str, typer.Argument(help="The test server URL the conformance suite appends.")],
) -> None:
    """Adapter for the official MCP conformance suite's client scenarios (reads MCP_CONFORMANCE_* variables)."""
    from inspector.cli.conformance import run_conformance
    from inspector.cli.wiring import run_loop

    raise typer.Exit(run_loop(run_conformance(url)))


def register(app: typer.Typer) -> None:
    """Add these commands to ``app``."""
    app.command("demo-server")(demo_server)
    app.command("conformance-client")(conformance_client)
