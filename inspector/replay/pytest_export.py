"""A recording as a pytest module (``inspector export RECORDING --as pytest``): what the inspector saw, kept as a
regression test.

One test function per call that ``replay --against`` would re-run (not the handshake, not the catalog lists, not a
call cancelled when recorded), named after it (``test_05_tools_call_add``), in the recorded order. Each holds its
call as a ``RecordedCall``: the request, the answers the recording gave to what the server asked (elicitation,
sampling, roots), the status and the final result; the module's fixture (``inspector.cli.live_rerun``) connects
once, makes each call again and asserts its ending with the structural compare of ``replay --against``, minus the
``--ignore`` paths. The module needs this package and pytest, nothing else.

Everything in it that a server or a recording chose (a tool name, a result, an answer, the recorded server's
command line, the recording's path) is a literal, never code: a string made by ``repr`` or JSON data read by
``json.loads`` of one (``export.json_literal``), never inside a docstring or a comment. A function's name is made of
ASCII letters, digits and underscores only, so a name cannot reach the code either.
"""

from __future__ import annotations

import re
from typing import Final

from inspector.replay.export import ExportError, json_literal
from inspector.replay.recorded_call import RecordedCall
from inspector.replay.rerun import rerun_plan
from inspector.timeline.model import Call, Timeline

SERVER_ENV: Final = "INSPECTOR_SERVER"
"""The environment variable an exported module takes its server from, instead of the recorded one."""
NAME_WIDTH: Final = 60
"""The longest part of a test name a call's method and name make (the number and ``test_`` aside)."""
_CAMEL: Final = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NOT_WORD: Final = re.compile(r"[^A-Za-z0-9]+")

MODULE_DOC: Final = '''"""Regression tests exported from a recorded session (by inspector export RECORDING --as pytest).

Each test makes one recorded call again (on one connection, in the recorded order), answers what the server asks
with the answers the recording holds for that call (elicitation, sampling, roots), and asserts that the call ends
as recorded: the same status and the same result, compared structurally (requestState never, _meta left out, and
the paths in IGNORE left out). A failure says what differs, path by path.

The server is RECORDED_SERVER below unless the environment variable INSPECTOR_SERVER names another: a URL, or a
command line that is started and spoken to over stdio. For example:

    INSPECTOR_SERVER="python -m my_server" python -m pytest test_recorded.py

It needs the inspector package and pytest, nothing else. Secrets were replaced with [redacted] when the session was
recorded: a server that needs one is given it in INSPECTOR_SERVER (or in its environment).
"""
'''


def identifier_words(text: str) -> str:
    """``text`` as lower-case words of ASCII letters and digits joined by ``_`` (``getWeather`` ->
    ``get_weather``, ``demo://report`` -> ``demo_report``): nothing else of it reaches a function's name."""
    return _NOT_WORD.sub("_", _CAMEL.sub("_", text)).strip("_").lower()


def function_name(call: Call, width: int) -> str:
    """``test_05_tools_call_add``: the call's number (``width`` digits), its method and its name."""
    words = "_".join(part for part in (identifier_words(call.method), identifier_words(call.name or "")) if part)
    words = words[:NAME_WIDTH].rstrip("_")
    return f"test_{call.index:0{width}d}" + (f"_{words}" if words else "")


def _test_function(call: Call, width: int) -> str:
    recorded = RecordedCall.of(call)
    fields = [
        f"number={recorded.number}",
        f"method={recorded.method!r}",
        f"params={json_literal(recorded.params)}",
        f"status={recorded.status!r}",
    ]
    if recorded.result is not None:
        fields.append(f"result={json_literal(recorded.result)}")
    if recorded.error is not None:
        fields.append(f"error={json_literal(recorded.error)}")
    if recorded.answers:
        answers = "".join(
            f"                RecordedAnswer({answer.key!r}, {answer.method!r}, {json_literal(answer.response)}),\n"
            for answer in recorded.answers
        )
        fields.append(f"answers=[\n{answers}            ]")
    if recorded.lasted_s:
        fields.append(f"lasted_s={recorded.lasted_s!r}")
    if recorded.uris:
        fields.append(f"uris={json_literal(recorded.uris)}")
    arguments = "".join(f"            {item},\n" for item in fields)
    return (
        f"def {function_name(call, width)}(live: LiveRerun) -> None:\n"
        f"    live.check(\n"
        f"        RecordedCall(\n{arguments}        )\n"
        f"    )\n"
    )


def export_pytest(timeline: Timeline, *, recording: str, ignore: list[str] | None = None) -> str:
    """The pytest module of every call of ``timeline`` a re-run would make, against its recorded server (or
    ``$INSPECTOR_SERVER``), leaving the ``ignore`` paths out of the compare (each as ``--ignore`` takes it);
    ``ExportError`` when there is no such call."""
    calls, _ = rerun_plan(timeline)
    if not calls:
        raise ExportError(
            f"{recording} has no call to re-run (only a handshake, lists or cancelled calls): there is nothing to test"
        )
    width = max(2, len(str(max(call.index for call in calls))))
    era = timeline.era.era if timeline.era is not None else "auto"
    head = (
        f"{MODULE_DOC}\n"
        "from __future__ import annotations\n\n"
        "import json\n"
        "import os\n"
        "from collections.abc import Iterator\n\n"
        "import pytest\n\n"
        "from inspector.cli.live_rerun import LiveRerun\n"
        "from inspector.replay.recorded_answers import RecordedAnswer\n"
        "from inspector.replay.recorded_call import RecordedCall\n\n"
        f"RECORDING = {recording!r}\n"
        '"""The recording these tests were exported from (they do not read it)."""\n'
        f"RECORDED_SERVER = {timeline.target!r}\n"
        f"SERVER = os.environ.get({SERVER_ENV!r}) or RECORDED_SERVER\n"
        f"ERA = {era!r}\n"
        f"IGNORE = {list(ignore or [])!r}\n"
        '"""Result paths left out of every compare (as `inspector replay --against --ignore` takes them)."""\n\n\n'
        '@pytest.fixture(scope="module")\n'
        "def live() -> Iterator[LiveRerun]:\n"
        '    """One connection to the server for every test here: the calls are made in the recorded order."""\n'
        "    with LiveRerun(SERVER, era=ERA, ignore=IGNORE) as session:\n"
        "        yield session\n"
    )
    return head + "".join(f"\n\n{_test_function(call, width)}" for call in calls)
