"""What the headless face says, said once: a call that found no answer says why and what to try one time, after its
timeline; ``--help`` writes no type after a plain flag."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import invoke


def test_a_call_without_answers_says_why_once_and_what_to_try(tmp_path: Path) -> None:
    result = invoke(
        "call", "get_weather", "--args", '{"location": "Paris"}', "--demo", "--record", str(tmp_path / "r.jsonl")
    )
    assert result.exit_code == 5, result.output
    everything = " ".join((result.stdout + result.stderr).split())  # rich wraps long lines
    assert everything.count("no answer for 'github_login'") == 1
    assert "error: tools/call ended no-answer: no answer for 'github_login'" in everything
    assert "try: " in everything


@pytest.mark.parametrize("command", ["call", "list", "replay", "demo"])
def test_help_writes_no_type_after_a_plain_flag(command: str) -> None:
    result = invoke(command, "--help")
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.stdout
    assert "--help" in result.stdout
