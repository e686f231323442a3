"""The changes ``lab tamper`` makes to a state, and what the lab reads off a state's form to explain a failure."""

from __future__ import annotations

import base64
import json

from inspector.lab.alterations import OMITTED, REPLAYED, alterations, flipped, truncated, with_state
from inspector.lab.evidence import readable, state_form


def test_one_byte_flipped_keeps_a_token_in_its_alphabet_and_changes_exactly_one_character() -> None:
    for state in ("v1.AbCdEfGh_-0123456789xyz", '{"resolution":"Duplicate"}', "eyJsb2NhdGlvbiI6Ik5ldyBZb3JrIn0"):
        changed = flipped(state)
        assert len(changed) == len(state)
        assert sum(a != b for a, b in zip(state, changed, strict=True)) == 1
    assert flipped('{"location":"New York"}') == '{"location":"Oew York"}', "the first letter right of the middle"
    assert json.loads(flipped('{"resolution":"Duplicate"}')), "a JSON state stays JSON: only the server can tell"


def test_every_experiment_of_a_round() -> None:
    made = alterations("abcdef", other_call="other-call", other_tool="other-tool")
    assert [a.name for a in made] == [
        "with one byte flipped", "truncated to half", "empty", OMITTED, "of another call of the same tool",
        "of another tool", REPLAYED,
    ]  # fmt: skip
    assert truncated("abcdef") == "abc" and made[2].state == "" and made[3].state is None
    assert made[-1].replay and made[-1].state == "abcdef", "a replay sends the untouched state"
    assert [a.name for a in alterations("x", other_call=None, other_tool=None)][-1] == REPLAYED


def test_an_experiment_keeps_the_retry_params_but_its_state() -> None:
    params = {"name": "t", "arguments": {"a": 1}, "inputResponses": {"k": {}}, "requestState": "s", "_meta": {}}
    assert with_state(params, "x") == {
        "name": "t",
        "arguments": {"a": 1},
        "inputResponses": {"k": {}},
        "requestState": "x",
    }
    assert "requestState" not in with_state(params, None)


def test_the_form_of_a_state() -> None:
    plain = '{"account": "ACME-7"}'
    encoded = base64.urlsafe_b64encode(plain.encode()).decode().rstrip("=")
    sealed = "v1." + base64.urlsafe_b64encode(bytes(range(60))).decode().rstrip("=")
    assert readable(plain) and readable(encoded)
    assert state_form(sealed) == "sealed in the Python SDK's v1. AES-GCM format"
    assert "handle" in state_form("sticky-1f2e")
    assert not readable(sealed) and not readable("sticky-1f2e")
