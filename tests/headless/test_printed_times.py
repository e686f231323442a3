"""The printed timeline (``call``, ``replay --print``) and the ``--json`` documents say the server's time for a call
apart from the wait for its answers, in the TUI's unit style, and mark the first request over stdio as including
the server's start-up."""

from __future__ import annotations

import json
import re

import pytest
from headless_support import printed
from time_support import legacy_weather, modern_weather

from inspector.headless.document import call_json, outcome_document
from inspector.session.outcome import Outcome


def test_the_printed_call_shows_the_servers_time_and_the_wait_apart() -> None:
    text = printed(modern_weather())
    assert "#2 tools/call get_weather  complete  2 rounds · 79 ms · you 9.7 s" in text
    assert "id 2 → input_required  github_login  14 ms · you 9.7 s" in text
    assert "id 3 → complete  65 ms" in text
    assert "id 1 → complete  1.2 s (includes the server's start-up)" in text
    assert "9779" not in text and not re.search(r"\d(ms|s)\b", text)  # one style: a space before the unit


def test_a_printed_legacy_server_request_is_the_wait_for_the_answer() -> None:
    text = printed(legacy_weather())
    assert "2 rounds · 400 ms · you 9.7 s" in text
    assert "server → elicitation/create (id 0)  you 9.7 s" in text


def test_the_json_documents_carry_server_and_wait_times() -> None:
    timeline = modern_weather()
    call = timeline.calls[1]
    doc = call_json(call, timeline)
    assert doc["ms"] == pytest.approx(9779)
    assert doc["serverMs"] == pytest.approx(79) and doc["waitMs"] == pytest.approx(9700)
    assert doc["answeredBy"] == ["you"]
    first, second = doc["rounds"]
    assert (first["serverMs"], first["waitMs"]) == (pytest.approx(14), pytest.approx(9700))
    assert (second["serverMs"], second["waitMs"]) == (pytest.approx(65), None)
    startup = call_json(timeline.calls[0], timeline)["rounds"][0]
    assert startup["includesStartup"] is True and "includesStartup" not in first
    outcome = outcome_document(Outcome(call.index, call.status, call.result), timeline)
    assert outcome["serverMs"] == pytest.approx(79) and outcome["waitMs"] == pytest.approx(9700)
    json.dumps(outcome)
