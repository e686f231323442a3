"""One recorded call, exported: a curl command for one HTTP round, its JSON-RPC messages, or an SDK script.

``export_call(timeline, call_index, fmt, round=None)`` is what ``inspector export`` prints and what the TUI copies.
Secrets stay as recorded: the recorder replaced them with ``[redacted]``, and the export says so rather than guess.

Everything in an export that a server chose (a tool name, a URI, a header value, an answer, the command line of
the recorded target) is a literal of the target language, never code: in the Python script a string literal made
by ``repr`` or a JSON text read by ``json.loads``, never inside the docstring or a comment; in the curl command
one single-quoted argument each, and the comment lines say only what the inspector itself knows (numbers, the
method) or the one-line sanitized form of a name, which cannot hold a line break.
"""

from __future__ import annotations

import json
import shlex
from typing import Final, Literal

from inspector.protocol.sanitize import json_text, one_line, shell_word
from inspector.replay.call_messages import left_out_note
from inspector.replay.recorded_answers import recorded_answers
from inspector.timeline.model import Call, Round, Timeline
from inspector.timeline.records import Record
from inspector.timeline.wire import WireMessage

ExportFormat = Literal["curl", "json", "python"]
FORMATS: Final[tuple[ExportFormat, ...]] = ("curl", "json", "python")
CURL_SKIPS: Final = frozenset({"host", "content-length", "connection", "accept-encoding"})
"""Headers curl derives itself (the same values) or that would change what it prints (compressed bodies)."""


class ExportError(Exception):
    """The call cannot be exported in that format; the message says why and what to use instead."""


def _call(timeline: Timeline, call_index: int) -> Call:
    call = timeline.call(call_index)
    if call is None:
        raise ExportError(f"there is no call #{call_index}: the recording has calls #1 to #{len(timeline.calls)}")
    return call


def messages_of(call: Call) -> list[WireMessage]:
    """Every message of the call, both directions, in the order it crossed the wire."""
    found: list[WireMessage] = []
    for round_ in call.rounds:
        found.append(round_.request)
        found.extend(round_.notifications)
        if round_.response is not None:
            found.append(round_.response)
    return sorted(found, key=lambda message: message.at)


def export_json(call: Call, messages: list[WireMessage] | None = None) -> str:
    """The JSON-RPC messages of a call as a JSON array of the exact texts, parsed (unparsable ones as strings).
    ``messages``: every one, read from the recording (``call_messages.CallMessages``); without them, those the
    timeline kept, after a first item saying how many notifications it let go (``call_messages.left_out_note``)."""
    items: list[object] = [] if messages is not None else [*left_out_note(call)]
    for message in messages if messages is not None else messages_of(call):
        try:
            items.append(json.loads(message.raw))
        except ValueError:
            items.append(message.raw)
    return json_text(items)  # (hidden characters escaped: the same JSON, nothing raw for a terminal)


def _http_round(call: Call, round_number: int | None) -> tuple[Round, WireMessage]:
    if not call.rounds:
        raise ExportError(f"call #{call.index} has no rounds: nothing was sent")
    number = round_number or 1
    if not 1 <= number <= len(call.rounds):
        raise ExportError(f"call #{call.index} has rounds 1 to {len(call.rounds)}, not {number}")
    round_ = call.rounds[number - 1]
    # A legacy server request arrived on a stream; what we POSTed for that round is our reply.
    sent = round_.request if round_.kind == "request" else round_.response
    if sent is None or sent.direction != "c2s":
        raise ExportError(f"round {number} of call #{call.index} has no request that we sent")
    if sent.http is None or not sent.http.url:
        raise ExportError(
            f"call #{call.index} was recorded over stdio: there is no HTTP request to reproduce with curl; "
            "use --as json for its JSON-RPC messages (or --as python for an SDK script)"
        )
    return round_, sent


def export_curl(call: Call, round_number: int | None = None, *, recorded: str = "") -> str:
    """A curl command that sends round ``round_number`` (default the first) of ``call`` exactly as recorded."""
    round_, sent = _http_round(call, round_number)
    http = sent.http
    assert http is not None and http.url is not None
    name = f" {comment_text(call.name)}" if call.name else ""
    request_id = comment_text(str(round_.request_id))
    lines = [
        f"# call #{call.index} {comment_text(call.method)}{name}, round {round_.index} of "
        f"{len(call.rounds)} (JSON-RPC id {request_id}){', recorded ' + comment_text(recorded) if recorded else ''}",
        "# headers and body exactly as recorded; secrets stay redacted as recorded: replace [redacted] before running",
    ]
    names = {name.lower() for name in http.request_headers}
    if "mcp-session-id" in names:
        lines.append("# Mcp-Session-Id names the recorded session: the server must still know it")
    parts = [f"curl -sS -X {shell_word(http.method or 'POST')} {shell_word(http.url)}"]
    for name, value in http.request_headers.items():
        if name.lower() not in CURL_SKIPS:
            parts.append(f"-H {shell_word(f'{name}: {value}')}")
    parts.append(f"--data-raw {shell_word(sent.raw)}")  # (hidden characters as printf escapes: none raw on a terminal)
    return "\n".join(lines) + "\n" + " \\\n  ".join(parts)


_CALLBACKS: Final = {
    "elicitation/create": (
        "elicitation_callback",
        "async def elicit(context, params):\n"
        '    return t.ElicitResult.model_validate(recorded("elicitation/create", context) or {"action": "decline"})\n',
        "elicit",
    ),
    "sampling/createMessage": (
        "sampling_callback",
        "async def sample(context, params):\n"
        '    return t.CreateMessageResult.model_validate(recorded("sampling/createMessage", context))\n',
        "sample",
    ),
    "roots/list": (
        "list_roots_callback",
        "async def roots(context):\n"
        '    return t.ListRootsResult.model_validate(recorded("roots/list", context) or {"roots": []})\n',
        "roots",
    ),
}
_LOOKUP: Final = (
    "def recorded(method, context):\n"
    '    """The answer recorded under the same input-request key, else the first one recorded for the method."""\n'
    "    answers = RECORDED_ANSWERS.get(method, {})\n"
    "    return answers.get(str(getattr(context, 'request_id', '')), next(iter(answers.values()), None))\n"
)


def comment_text(text: str) -> str:
    """Server text fit for a comment line of a script: one sanitized line (no line break of any kind, no control
    or invisible character), shortened."""
    return one_line(text, 80)


def json_literal(value: object) -> str:
    """A Python expression that evaluates to ``value`` (JSON data) and can be nothing else: ``json.loads`` of a
    string literal (``repr`` escapes quotes, backslashes, newlines, U+2028 and NUL alike)."""
    return f"json.loads({json.dumps(value, ensure_ascii=False)!r})"


def _answers_code(call: Call) -> tuple[str, str]:
    """(code defining the recorded answers and callbacks, extra Client arguments)."""
    by_method: dict[str, dict[str, object]] = {}
    for answer in recorded_answers(call):
        if answer.method in _CALLBACKS:
            by_method.setdefault(answer.method, {}).setdefault(answer.key or "", answer.response)
    if not by_method:
        return "", ""
    code = f"RECORDED_ANSWERS = {json_literal(by_method)}\n\n\n{_LOOKUP}"
    arguments = ""
    for method in by_method:
        keyword, function, name = _CALLBACKS[method]
        code += f"\n\n{function}"
        arguments += f", {keyword}={name}"
    return code, arguments


_ACTIONS: Final = {
    "tools/call": "await client.call_tool(CALL['name'], CALL.get('arguments') or {})",
    "prompts/get": "await client.get_prompt(CALL['name'], CALL.get('arguments'))",
    "resources/read": "await client.read_resource(CALL['uri'])",
    "tools/list": "await client.list_tools()",
    "prompts/list": "await client.list_prompts()",
    "resources/list": "await client.list_resources()",
}
"""The SDK call per recorded method; the recorded params are data (``CALL``), never spliced into the code."""


def export_python(call: Call, target: str, transport: str) -> str:
    """A short script that makes the same call with the official SDK (``mcp.Client``), answering input requests
    with the answers recorded for this call."""
    action = _ACTIONS.get(call.method)
    if action is None:
        raise ExportError(
            f"call #{call.index} is {one_line(call.method, 60)}, which the SDK script does not cover; use --as json"
        )
    imports = "import asyncio\nimport json\n\nimport mcp_types as t\nfrom mcp import Client\n"
    if transport == "http":
        setup = (
            "# secrets (an Authorization header) are not in the recording: pass an httpx client if needed\n"
            f"SERVER = {target!r}\n"
        )
    else:
        try:
            argv = shlex.split(target) or ["server"]
        except ValueError:
            argv = [target]
        imports += "from mcp.client.stdio import StdioServerParameters\n"
        setup = (
            "# environment variables the server needs are not in the recording\n"
            f"SERVER = StdioServerParameters(command={argv[0]!r}, args={argv[1:]!r})\n"
        )
    answers, client_arguments = _answers_code(call)
    script = (
        '"""A call of a recorded session, made again with the official MCP Python SDK (see CALL)."""\n\n'
        f"{imports}\n{setup}"
        f"CALL_NUMBER = {call.index}\n"
        f"METHOD = {call.method!r}\n"
        f"CALL = {json_literal(call.params)}\n"
        '"""The params of the recorded call, as the server received them (its own text: data, never code)."""\n'
    )
    if answers:
        script += f"\n\n{answers}"
    return script + (
        "\n\nasync def main() -> None:\n"
        f"    async with Client(SERVER{client_arguments}) as client:\n"
        f"        result = {action}\n"
        "        print(result.model_dump_json(indent=2, by_alias=True, exclude_none=True))\n\n\n"
        'if __name__ == "__main__":\n'
        "    asyncio.run(main())\n"
    )


def export_call(
    timeline: Timeline,
    call_index: int,
    fmt: ExportFormat,
    round: int | None = None,
    *,
    header: Record | None = None,
    messages: list[WireMessage] | None = None,
) -> str:
    """Call #``call_index`` of ``timeline`` as ``fmt``; ``ExportError`` says why it cannot be, and what to use.
    ``messages``: every message of the call, read from its recording (``--as json``; see ``export_json``)."""
    call = _call(timeline, call_index)
    if fmt == "curl":
        started = header.get("started") if header is not None else None
        return export_curl(call, round, recorded=started if isinstance(started, str) else "")
    if fmt == "json":
        return export_json(call, messages)
    if fmt == "python":
        return export_python(call, timeline.target, timeline.transport)
    raise ExportError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
