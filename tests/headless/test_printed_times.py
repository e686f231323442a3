"""The printed timeline (``call``, ``replay --print``) and the ``--json`` documents say the server's time for a call
apart from whose the rest was (the person's, a model's, the client's), in the TUI's unit style, and mark the first
request over stdio as including the server's start-up: a login's consent page is the person's time, not the
server's; a dialog before the stub model answers is the person's, the model's compute the model's."""

from __future__ import annotations

import json
import re

import pytest
from headless_support import printed
from time_support import legacy_weather, logged_in, modern_weather, stub_after_dialog

from inspector.headless.json_document import call_json, outcome_document
from inspector.timeline.outcome import Outcome


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
    assert doc["personMs"] == pytest.approx(9700) and doc["modelMs"] is None and doc["clientMs"] is None
    assert doc["answeredBy"] == ["you"]
    first, second = doc["rounds"]
    assert (first["serverMs"], first["waitMs"]) == (pytest.approx(14), pytest.approx(9700))
    assert (second["serverMs"], second["waitMs"]) == (pytest.approx(65), None)
    assert first["answers"][0]["party"] == "person"
    startup = call_json(timeline.calls[0], timeline)["rounds"][0]
    assert startup["includesStartup"] is True and "includesStartup" not in first
    outcome = outcome_document(Outcome(call.index, call.status, call.result), timeline)
    assert outcome["serverMs"] == pytest.approx(79) and outcome["waitMs"] == pytest.approx(9700)
    json.dumps(outcome)


def test_a_printed_login_says_the_consent_page_was_your_time() -> None:
    text = printed(logged_in())
    assert "#1 server/discover  complete  1 round · 160 ms · you 7.0 s" in text
    assert "🔑 login: 4 exchanges · 104 ms · you 7.0 s" in text  # the exchanges: the authorization server's
    assert "… authorization: waiting for the authorization to come back · you 7.0 s" in text
    assert "id 1 → complete  160 ms · you 7.0 s" in text
    assert "7.2 s" not in text


def test_the_json_of_a_login_carries_the_persons_time_apart() -> None:
    timeline = logged_in()
    doc = call_json(timeline.calls[0], timeline)
    assert doc["ms"] == pytest.approx(7160)
    assert (doc["serverMs"], doc["personMs"], doc["modelMs"]) == (pytest.approx(160), pytest.approx(7000), None)
    [round_] = doc["rounds"]
    assert (round_["ms"], round_["serverMs"], round_["personMs"]) == (
        pytest.approx(7160),
        pytest.approx(160),
        pytest.approx(7000),
    )


def test_a_dialog_then_the_stub_model_prints_and_reads_as_two_times() -> None:
    timeline = stub_after_dialog()
    text = printed(timeline)
    assert "#1 tools/call ask_capital  complete  2 rounds · 44 ms · you 2.0 s, stub model 500 ms" in text
    assert "id 1 → input_required  capital  14 ms · you 2.0 s, stub model 500 ms" in text
    doc = call_json(timeline.calls[0], timeline)
    assert (doc["personMs"], doc["modelMs"], doc["models"]) == (pytest.approx(2000), pytest.approx(500), ["stub model"])
    assert doc["waitMs"] == pytest.approx(2500) and doc["answeredBy"] == ["stub model"]
    answer = doc["rounds"][0]["answers"][0]
    assert (answer["source"], answer["party"], answer["modelMs"]) == ("stub model", "person", pytest.approx(500))
