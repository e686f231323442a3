"""Whose time it was (``timeline.time_split``), on plain values: a login's wait for the person runs from its
``waiting`` step to the redirect coming back or the login stopping, a stray redirect does not end it and the
client's own exchanges meanwhile are not the person's; a question's wait goes to its answers in turn, a model's
compute apart from the person who handed it over; an answer recorded before answers said whose time they took
is read by its source."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from inspector.answers.source import Party
from inspector.protocol.oauth import AuthHttp, LoginStep
from inspector.timeline.time_split import (
    NOBODY,
    TimeSplit,
    answers_split,
    consent_waits,
    less,
    login_split,
    party_of,
    total,
)


def step(at: float, name: str, outcome: str = "info", *, ms: float | None = None, request: int = 1) -> LoginStep:
    http = AuthHttp("GET", f"http://as/{name}", {}, status=200, elapsed_ms=ms) if ms is not None else None
    return LoginStep(name, outcome, name, at, request_id=request, http=http)


def test_the_wait_runs_from_waiting_to_the_redirect() -> None:
    steps = [
        step(0.0, "challenge"),
        step(0.05, "registration", "ok", ms=40),
        step(0.1, "authorization", "waiting"),
        step(7.1, "callback"),
        step(7.2, "token", "ok", ms=90),
    ]
    [wait] = consent_waits(steps, None)
    assert wait.ms == pytest.approx(7000)
    split = login_split(steps)
    assert split.server_ms == pytest.approx(130) and split.person_ms == pytest.approx(7000)


def test_a_stray_redirect_does_not_end_the_wait_and_a_stop_does() -> None:
    steps = [
        step(1.0, "authorization", "waiting"),
        step(2.0, "authorization", "refused"),  # a redirect with another state: ignored, still waiting
        step(4.0, "authorization", "failed"),  # the person stopped the login
    ]
    assert [wait.ms for wait in consent_waits(steps, None)] == [pytest.approx(3000)]


def test_the_clients_own_exchange_in_the_wait_is_not_the_persons() -> None:
    # No person at all: the client followed the authorization server's redirect itself (120 ms, the server's).
    steps = [step(1.0, "authorization", "waiting"), step(1.13, "authorization", "ok", ms=120), step(1.14, "callback")]
    [wait] = consent_waits(steps, None)
    assert wait.ms == pytest.approx(20)
    assert less((0.0, 10.0), [(2.0, 3.0), (5.0, 6.0)]) == [(0.0, 2.0), (3.0, 5.0), (6.0, 10.0)]


def test_a_wait_nothing_ended_counts_only_once_its_call_has() -> None:
    steps = [step(1.0, "authorization", "waiting"), step(1.5, "challenge", request=2)]  # another request's step
    assert consent_waits(steps, None) == []
    assert [wait.ms for wait in consent_waits(steps, 3.0)] == [pytest.approx(2000)]


@dataclass
class Given:
    at: float
    source: str
    party: Party
    model_ms: float | None = None


def test_each_answer_takes_its_own_stretch_of_the_wait() -> None:
    answers = [Given(3.0, "you", "person"), Given(3.5, "answers file", "client")]
    split = answers_split(answers, 1.0, 3.6)  # the retry left 0.1 s after the last answer
    assert split.person_ms == pytest.approx(2000) and split.client_ms == pytest.approx(600)
    assert split.clients == ("answers file",)
    assert split.waited_ms == pytest.approx(2600) and split.server_ms is None


def test_a_model_handed_the_question_in_a_dialog_takes_only_its_compute() -> None:
    split = answers_split([Given(3.0, "stub model", "person", 250.0)], 0.0, 3.0)
    assert split.person_ms == pytest.approx(2750) and split.model_ms == pytest.approx(250)
    assert split.models == ("stub model",)
    alone = answers_split([Given(0.001, "stub model", "model")], 0.0, 0.001)
    assert alone.person_ms is None and alone.model_ms == pytest.approx(1)


def test_splits_add_up_and_nobody_is_nothing() -> None:
    one = TimeSplit(server_ms=10.0).waited("client", 5.0, "answers file")
    two = TimeSplit(server_ms=20.0).waited("model", 1.0, "stub model").waited("client", 2.0, "policy: decline")
    summed = total([one, NOBODY, two])
    assert summed.server_ms == 30.0 and summed.client_ms == 7.0 and summed.model_ms == 1.0
    assert summed.clients == ("answers file", "policy: decline") and summed.person_ms is None
    assert NOBODY.waited_ms is None


@pytest.mark.parametrize(
    ("source", "party"),
    [("you", "person"), ("stub model", "model"), ("answers file (stub model)", "model"), ("answers file", "client")],
)
def test_an_older_answer_is_read_by_its_source(source: str, party: Party) -> None:
    assert party_of(source) == party
