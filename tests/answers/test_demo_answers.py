"""demo-answers.json answers every input request of the demo server, and every answer passes validation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from answer_requests import roots, sampling, url

from inspector.answers import build_answer_source, load_answers_file

schemas = pytest.importorskip("inspector.demo.schemas")

DEMO_ANSWERS = Path(__file__).with_name("demo-answers.json")


def form(schema: dict[str, Any]) -> dict[str, Any]:
    return {"method": "elicitation/create", "params": {"mode": "form", "message": "demo", "requestedSchema": schema}}


DEMO_REQUESTS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "github_login": (form(schemas.GITHUB_LOGIN_SCHEMA), {"action": "accept", "content": {"name": "octocat"}}),
    "google_login": (
        form(schemas.ACCOUNT_EMAIL_SCHEMA),
        {"action": "accept", "content": {"email": "octocat@gmail.com"}},
    ),
    "microsoft_login": (
        form(schemas.ACCOUNT_EMAIL_SCHEMA),
        {"action": "accept", "content": {"email": "octocat@outlook.com"}},
    ),
    "resolution": (form(schemas.RESOLUTION_SCHEMA), {"action": "accept", "content": {"resolution": "Duplicate"}}),
    "duplicate_of": (form(schemas.DUPLICATE_OF_SCHEMA), {"action": "accept", "content": {"duplicateOfId": 4301}}),
    "language": (form(schemas.LANGUAGE_SCHEMA), {"action": "accept", "content": {"language": "python"}}),
    "confirm": (form(schemas.CONFIRM_SCHEMA), {"action": "accept", "content": {"confirm": True}}),
    "dashboard": (url("https://dashboard.example.com/connect?session=demo"), {"action": "accept"}),
    "capital_of_france": (
        sampling("What is the capital of France?", max_tokens=100),
        {  # SEP-2322's own reply
            "role": "assistant",
            "content": {"type": "text", "text": "The capital of France is Paris."},
            "model": "claude-3-sonnet-20240307",
            "stopReason": "endTurn",
        },
    ),
    "roots": (roots(), {"roots": [{"uri": "file:///home/demo/projects/inspector", "name": "inspector"}]}),
}


@pytest.mark.parametrize("key", sorted(DEMO_REQUESTS))
async def test_each_demo_key_gets_its_scripted_answer(key: str) -> None:
    request, expected = DEMO_REQUESTS[key]

    answer = await build_answer_source(DEMO_ANSWERS).answer(key, request)

    assert answer.response == expected
    assert answer.source == "answers file"


async def test_meeting_accept_satisfies_the_full_form() -> None:
    answer = await build_answer_source(DEMO_ANSWERS).answer("meeting", form(schemas.MEETING_SCHEMA))

    assert answer.response["action"] == "accept"
    assert set(schemas.MEETING_SCHEMA["required"]) <= set(answer.response["content"])


async def test_legacy_requests_are_answered_by_method_name() -> None:
    source = build_answer_source(DEMO_ANSWERS)

    reply = await source.answer(None, sampling())
    listed = await source.answer(None, roots())
    elicited = await source.answer(None, form(schemas.GITHUB_LOGIN_SCHEMA))

    assert reply.response["content"] == {"type": "text", "text": "The capital of France is Paris."}
    assert listed.response["roots"][0]["uri"] == "file:///home/demo/projects/inspector"
    assert elicited.response == {"action": "decline"}


def test_file_loads() -> None:
    assert load_answers_file(DEMO_ANSWERS).entries.keys() >= DEMO_REQUESTS.keys() | {"meeting", "*"}
