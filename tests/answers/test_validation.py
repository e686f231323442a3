"""Answers are checked against their request before they are sent; refusals name the field and the rule."""

from __future__ import annotations

from typing import Any

import pytest
from answer_requests import NAME_SCHEMA, form, roots, sampling, url

from inspector.answers import AnswerRefused, field_errors, validate_answer, validate_elicitation_answer

EVENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "minLength": 3},
        "attendee_email": {"type": "string", "format": "email"},
        "date": {"type": "string", "format": "date"},
        "starts_at": {"type": "string", "format": "date-time"},
        "agenda": {"type": "string", "format": "uri"},
        "duration_minutes": {"type": "integer", "minimum": 15, "maximum": 240},
        "room": {"type": "string", "enum": ["Everest", "Matterhorn"]},
        "teams": {"type": "array", "items": {"type": "string", "enum": ["eng", "design"]}},
    },
    "required": ["title", "attendee_email"],
}
GOOD_EVENT: dict[str, Any] = {
    "title": "Sprint review",
    "attendee_email": "ada@example.com",
    "date": "2026-08-03",
    "starts_at": "2026-08-03T10:00:00+02:00",
    "agenda": "https://example.com/agenda",
    "duration_minutes": 30,
    "room": "Everest",
    "teams": ["eng"],
}


def params(schema: dict[str, Any]) -> dict[str, Any]:
    request_params: dict[str, Any] = form(schema)["params"]
    return request_params


def test_valid_accept_passes() -> None:
    validate_elicitation_answer(params(EVENT_SCHEMA), {"action": "accept", "content": GOOD_EVENT})


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("attendee_email", "ada", "'ada' is not a 'email'"),
        ("date", "2026-02-30", "'2026-02-30' is not a 'date'"),
        ("date", "03/08/2026", "'03/08/2026' is not a 'date'"),
        ("starts_at", "2026-08-03 10:00", "'2026-08-03 10:00' is not a 'date-time'"),
        ("starts_at", "2026-13-03T10:00:00Z", "'2026-13-03T10:00:00Z' is not a 'date-time'"),
        ("agenda", "not a uri", "'not a uri' is not a 'uri'"),
        ("duration_minutes", 5, "5 is less than the minimum of 15"),
        ("duration_minutes", 30.5, "30.5 is not of type 'integer'"),
        ("room", "Attic", "'Attic' is not one of ['Everest', 'Matterhorn']"),
        ("teams", ["sales"], "'sales' is not one of ['eng', 'design']"),
    ],
)
def test_field_errors_name_the_field_and_give_the_jsonschema_message(field: str, value: Any, message: str) -> None:
    assert field_errors(EVENT_SCHEMA, {**GOOD_EVENT, field: value}) == {field: message}


def test_valid_formats_pass() -> None:
    content = {**GOOD_EVENT, "starts_at": "2026-08-03T23:59:60Z", "agenda": "urn:isbn:0451450523"}

    assert field_errors(EVENT_SCHEMA, content) == {}


def test_every_missing_required_field_is_listed() -> None:
    assert field_errors(EVENT_SCHEMA, {}) == {
        "title": "'title' is a required property",
        "attendee_email": "'attendee_email' is a required property",
    }


def test_content_that_is_not_an_object_is_a_form_level_error() -> None:
    assert field_errors(EVENT_SCHEMA, ["x"]) == {"": "['x'] is not of type 'object'"}


def test_invalid_requested_schema_judges_nothing() -> None:
    assert field_errors({"type": "strng"}, {"anything": 1}) == {}


def test_refusal_names_the_field_and_the_reason() -> None:
    with pytest.raises(AnswerRefused) as refused:
        validate_elicitation_answer(
            params(EVENT_SCHEMA), {"action": "accept", "content": {**GOOD_EVENT, "attendee_email": "ada"}}
        )

    assert (
        refused.value.reason
        == "the answer does not satisfy requestedSchema: field 'attendee_email': 'ada' is not a 'email'"
    )


def test_accept_without_content_is_checked_as_empty_content() -> None:
    with pytest.raises(AnswerRefused, match="field 'name': 'name' is a required property"):
        validate_elicitation_answer(params(NAME_SCHEMA), {"action": "accept"})


@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_decline_and_cancel_need_no_content(action: str) -> None:
    validate_elicitation_answer(params(NAME_SCHEMA), {"action": action})


def test_decline_with_content_is_refused() -> None:
    with pytest.raises(AnswerRefused, match='a "decline" answer carries no content: remove "content"'):
        validate_elicitation_answer(params(NAME_SCHEMA), {"action": "decline", "content": {"name": "x"}})


def test_url_accept_is_action_only() -> None:
    validate_elicitation_answer(url()["params"], {"action": "accept"})

    with pytest.raises(AnswerRefused, match=r'URL-mode accept is \{"action": "accept"\} only'):
        validate_elicitation_answer(url()["params"], {"action": "accept", "content": {"token": "x"}})


def test_unknown_action_is_refused_by_the_official_model() -> None:
    with pytest.raises(AnswerRefused, match=r"not a valid ElicitResult: action: Input should be 'accept', 'decline'"):
        validate_elicitation_answer(params(NAME_SCHEMA), {"action": "ok"})


def test_sampling_reply_must_be_a_create_message_result() -> None:
    validate_answer(sampling(), {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"})

    with pytest.raises(AnswerRefused, match="not a valid CreateMessageResult: model: Field required"):
        validate_answer(sampling(), {"role": "assistant", "content": {"type": "text", "text": "Paris"}})


def test_tool_use_reply_needs_a_request_with_tools() -> None:
    reply = {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "t1", "name": "search", "input": {}}],
        "model": "m",
        "stopReason": "toolUse",
    }
    validate_answer(sampling(tools=[{"name": "search", "inputSchema": {"type": "object"}}]), reply)

    with pytest.raises(AnswerRefused, match="the request offered no tools"):
        validate_answer(sampling(), reply)


def test_roots_must_be_file_uris() -> None:
    validate_answer(roots(), {"roots": [{"uri": "file:///srv"}]})

    with pytest.raises(AnswerRefused, match="URL scheme should be 'file'"):
        validate_answer(roots(), {"roots": [{"uri": "https://example.com"}]})


@pytest.mark.external  # (it listens on a socket to see that nothing is fetched: not in --fast-lane)
def test_a_remote_ref_is_never_fetched() -> None:
    """A server's requestedSchema pointing at a URL must not make the inspector download anything."""
    import http.server
    import threading

    hits: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b'{"type": "string"}')

        def log_message(self, *args: object) -> None:
            return None

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/schema.json"
        schema = {"type": "object", "properties": {"name": {"$ref": url}}}
        errors = field_errors(schema, {"name": 3})
    finally:
        server.shutdown()
    assert hits == []
    assert "not resolvable" in errors[""]
