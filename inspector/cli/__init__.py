"""The ``inspector`` command: the composition root. Imports the TUI lazily, so headless commands never load textual."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from inspector.cli import options as o
from inspector.cli.run import run_and_exit
from inspector.protocol.methods import CATALOG
from inspector.session.client import InspectorSession
from inspector.session.outcome import Outcome

app = typer.Typer(
    name="inspector",
    help="A terminal inspector and debugger for MCP servers: every call as a timeline of round trips.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _json_object(text: str | None, option: str) -> dict[str, object]:
    if text is None:
        return {}
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise typer.BadParameter(f"{option} is not JSON: {exc}") from None
    if not isinstance(value, dict):
        raise typer.BadParameter(f"{option} must be a JSON object, got {type(value).__name__}")
    return value


@app.command()
def call(
    tool: Annotated[str, typer.Argument(help="The tool to call.")],
    args: Annotated[str | None, typer.Option("--args", help="Tool arguments as a JSON object.")] = None,
    server: o.ServerOpt = None,
    demo: o.DemoOpt = False,
    header: o.HeaderOpt = None,
    bearer: o.BearerOpt = None,
    env: o.EnvOpt = None,
    secret: o.SecretOpt = None,
    era: o.EraOpt = "auto",
    answers: o.AnswersOpt = None,
    on_missing: o.OnMissingOpt = "fail",
    stub_model: o.StubOpt = False,
    root: o.RootOpt = None,
    record: o.RecordOpt = None,
    no_record: o.NoRecordOpt = False,
    as_json: o.JsonOpt = False,
    max_rounds: o.MaxRoundsOpt = 10,
    timeout: o.TimeoutOpt = 60.0,
) -> None:
    """Call a tool, answering every input request, and print its timeline (exit 0 complete, 1 isError,
    3 transport, 4 JSON-RPC error, 5 no answer, 6 round cap)."""
    arguments = _json_object(args, "--args")
    target = o.target_from(server, demo, header, bearer, env, secret)
    source = o.answers_from(answers, on_missing, stub_model, root)

    async def operation(session: InspectorSession) -> Outcome:
        await session.list_all("tools")
        return await session.call_tool(tool, arguments)

    run_and_exit(target, source, operation, o.era_from(era), record, no_record, as_json, timeout, max_rounds=max_rounds)


@app.command("list")
def list_(
    kind: Annotated[str, typer.Argument(help="tools, prompts, resources or templates.")],
    server: o.ServerOpt = None,
    demo: o.DemoOpt = False,
    header: o.HeaderOpt = None,
    bearer: o.BearerOpt = None,
    env: o.EnvOpt = None,
    secret: o.SecretOpt = None,
    era: o.EraOpt = "auto",
    record: o.RecordOpt = None,
    no_record: o.NoRecordOpt = False,
    as_json: o.JsonOpt = False,
    timeout: o.TimeoutOpt = 60.0,
) -> None:
    """List the server's tools, prompts, resources or resource templates (every page)."""
    if kind not in CATALOG:
        *others, last = CATALOG
        raise typer.BadParameter(f"KIND must be {', '.join(others)} or {last}")
    target = o.target_from(server, demo, header, bearer, env, secret)
    source = o.answers_from(None, "fail", False, None)
    list_kind = CATALOG[kind].kind

    async def operation(session: InspectorSession) -> Outcome:
        return await session.list_all(list_kind)

    run_and_exit(target, source, operation, o.era_from(era), record, no_record, as_json, timeout)


@app.command()
def prompt(
    name: Annotated[str, typer.Argument(help="The prompt to get.")],
    args: Annotated[str | None, typer.Option("--args", help="Prompt arguments as a JSON object of strings.")] = None,
    server: o.ServerOpt = None,
    demo: o.DemoOpt = False,
    header: o.HeaderOpt = None,
    bearer: o.BearerOpt = None,
    env: o.EnvOpt = None,
    secret: o.SecretOpt = None,
    era: o.EraOpt = "auto",
    answers: o.AnswersOpt = None,
    on_missing: o.OnMissingOpt = "fail",
    stub_model: o.StubOpt = False,
    root: o.RootOpt = None,
    record: o.RecordOpt = None,
    no_record: o.NoRecordOpt = False,
    as_json: o.JsonOpt = False,
    max_rounds: o.MaxRoundsOpt = 10,
    timeout: o.TimeoutOpt = 60.0,
) -> None:
    """Get a prompt, answering every input request."""
    arguments = {k: str(v) for k, v in _json_object(args, "--args").items()}
    target = o.target_from(server, demo, header, bearer, env, secret)
    source = o.answers_from(answers, on_missing, stub_model, root)

    async def operation(session: InspectorSession) -> Outcome:
        return await session.get_prompt(name, arguments)

    run_and_exit(target, source, operation, o.era_from(era), record, no_record, as_json, timeout, max_rounds=max_rounds)


@app.command()
def read(
    uri: Annotated[str, typer.Argument(help="The resource URI to read.")],
    server: o.ServerOpt = None,
    demo: o.DemoOpt = False,
    header: o.HeaderOpt = None,
    bearer: o.BearerOpt = None,
    env: o.EnvOpt = None,
    secret: o.SecretOpt = None,
    era: o.EraOpt = "auto",
    answers: o.AnswersOpt = None,
    on_missing: o.OnMissingOpt = "fail",
    stub_model: o.StubOpt = False,
    root: o.RootOpt = None,
    record: o.RecordOpt = None,
    no_record: o.NoRecordOpt = False,
    as_json: o.JsonOpt = False,
    max_rounds: o.MaxRoundsOpt = 10,
    timeout: o.TimeoutOpt = 60.0,
) -> None:
    """Read a resource, answering every input request."""
    target = o.target_from(server, demo, header, bearer, env, secret)
    source = o.answers_from(answers, on_missing, stub_model, root)

    async def operation(session: InspectorSession) -> Outcome:
        return await session.read_resource(uri)

    run_and_exit(target, source, operation, o.era_from(era), record, no_record, as_json, timeout, max_rounds=max_rounds)


@app.command("demo-server")
def demo_server(
    http: Annotated[bool, typer.Option("--http", help="Serve Streamable HTTP on 127.0.0.1 instead of stdio.")] = False,
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="HTTP port (0 picks a free one).")] = 0,
) -> None:
    """Run the bundled demo server (every MRTR flow of the spec), over stdio or Streamable HTTP."""
    from inspector.demo.server import run_http, run_stdio

    if http:
        run_http(port)
    else:
        run_stdio()


def main() -> None:
    """Console-script entry point."""
    from inspector.cli import (
        more_commands,  # noqa: F401  (registers the remaining commands)
        replay_commands,  # noqa: F401  (registers replay, export, sessions)
    )

    app()
