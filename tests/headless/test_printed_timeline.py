"""The printed timeline (``inspector call`` without ``--json``, ``replay --print``): each call with its rounds, the
input requests and who answered them, the requestState facts and the echo verdict, findings, the gist of the result.
"""

from __future__ import annotations

from headless_support import capture_timeline, printed

from inspector.timeline import records
from inspector.timeline.build.builder import build_timeline


def test_an_mrtr_call_prints_its_rounds_answers_and_the_echo_verdict() -> None:
    text = printed(capture_timeline("py-sdk-stdio-raw-mrtr.jsonl"))
    assert "inspector" in text.splitlines()[0] and "modern 2026-07-28" in text.splitlines()[0]
    assert "input_required" in text, "the round that asked is shown as such"
    assert "requestState" in text and "sha256" in text
    assert "echoed unchanged ✓" in text, "the retry carried the state byte for byte"
    assert "⇒" in text, "the result's text is shown"


def call_blocks(text: str) -> dict[str, list[str]]:
    """The printed timeline cut into its calls: a call's heading line (``#5 tools/call NAME ...``) keyed by its number
    and name, with the lines under it (its rounds, notes and result)."""
    blocks: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in text.splitlines():
        if line.startswith("#"):
            number, method, *rest = line.split()
            lines = blocks.setdefault(f"{number} {method} {rest[0] if method.endswith('/call') else ''}".strip(), [])
        lines.append(line)
    return blocks


def test_a_legacy_server_request_prints_as_a_round_of_its_call() -> None:
    text = printed(capture_timeline("everything-stdio-legacy.jsonl"))
    assert "legacy" in text.splitlines()[0]
    calls = call_blocks(text)
    asked = calls["#5 tools/call trigger-elicitation-request"]
    assert "2 rounds" in asked[0], asked
    assert [line.split("(")[0].strip(" ├└") for line in asked if "server →" in line] == [
        "server → elicitation/create"
    ], "the server's request is a round of the call it interrupted, under that call"
    # In the order they came: the server's request interrupted the call, the call's reply came after it.
    came = [line.split("(")[0].strip(" ├└│") for line in asked[1:] if "→" in line]
    assert [said.split()[0] for said in came] == ["server", "id"] and "→ complete" in came[1], asked
    sampled = calls["#6 tools/call trigger-sampling-request"]
    assert "2 rounds" in sampled[0] and any("server → sampling/createMessage" in line for line in sampled), sampled
    echoed = calls["#3 tools/call echo"]
    assert "1 round " in echoed[0] and not any("server →" in line for line in echoed), "a plain call has no such round"


def test_server_text_is_printed_literally_never_as_markup_or_escapes() -> None:
    name = "[bold red]boom[/] \x1b[2J\x1b]0;title\x07"
    timeline = build_timeline(
        [
            records.call_started(0.0, 1, "tools/call", {"name": name}),
            records.wire(0.0, "c2s", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}', call=1),
            records.wire(
                0.1,
                "s2c",
                '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"[red]hi[/] \\u001b[31mred"}]}}',
            ),
        ]
    )
    text = printed(timeline)
    assert "[bold red]boom[/]" in text, "markup is shown as the characters it is"
    assert "\x1b" not in text, "no escape sequence reaches the terminal"
    assert "[red]hi[/]" in text and "␛" in text
