"""Pilot tests of the elicitation modals (form and URL mode): the exact ElicitResult each one returns."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Button, Checkbox, Input, Select, SelectionList, Static, TextArea

from inspector.ui.modals.elicitation import ElicitationModal
from inspector.ui.modals.preview import ModalHost
from inspector.ui.modals.url_consent import UrlConsentModal
from inspector.ui.widgets.form_fields import FieldWidget

SIZE = (120, 40)

BOOK_MEETING: dict[str, Any] = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "title": "Meeting title", "description": "What it is about", "minLength": 3,
                  "maxLength": 80, "default": "Sprint review"},
        "organizer": {"type": "string", "title": "Organizer email", "format": "email"},
        "day": {"type": "string", "title": "Day", "format": "date", "default": "2026-08-03"},
        "starts_at": {"type": "string", "title": "Starts at", "format": "date-time"},
        "agenda_url": {"type": "string", "title": "Agenda link", "format": "uri"},
        "attendees": {"type": "integer", "title": "Attendees", "minimum": 1, "maximum": 50, "default": 4},
        "duration_hours": {"type": "number", "title": "Duration (hours)", "minimum": 0.25, "maximum": 8},
        "remote": {"type": "boolean", "title": "Remote", "default": True},
        "room": {"type": "string", "title": "Room", "enum": ["Everest", "Kilimanjaro", "Matterhorn"]},
        "priority": {"type": "string", "title": "Priority", "default": "p1",
                     "oneOf": [{"const": "p0", "title": "Urgent"}, {"const": "p1", "title": "Normal"}]},
        "size": {"type": "string", "title": "Size", "enum": ["s", "l"], "enumNames": ["Small", "Large"]},
        "equipment": {"type": "array", "title": "Equipment", "minItems": 1, "maxItems": 2, "default": ["whiteboard"],
                      "items": {"type": "string", "enum": ["projector", "whiteboard", "snacks"]}},
        "teams": {"type": "array", "title": "Teams", "items": {"anyOf": [{"const": "eng", "title": "Engineering"},
                                                                        {"const": "design", "title": "Design"}]}},
    },
    "required": ["title", "organizer", "day", "attendees", "room"],
}  # fmt: skip
"""The book_meeting shape: a flat requestedSchema with every PrimitiveSchemaDefinition of the spec."""

DEFAULTS = {
    "title": "Sprint review",
    "day": "2026-08-03",
    "attendees": 4,
    "remote": True,
    "priority": "p1",
    "equipment": ["whiteboard"],
}
HOSTILE = "Pick a room [bold red]boom[/] \x1b[2J"


async def wait_until(pilot: Pilot[Any], ready: Callable[[], bool], timeout: float = 5.0) -> None:
    """Let the app run until ``ready()`` (bounded: fails after ``timeout`` seconds, never sleeps blindly)."""
    async with asyncio.timeout(timeout):
        while not ready():
            await pilot.pause()


def elicitation(schema: dict[str, Any] = BOOK_MEETING, message: str = HOSTILE) -> ModalHost:
    params = {"message": message, "requestedSchema": schema}
    return ModalHost(lambda: ElicitationModal(params, call="tools/call book_meeting", key="meeting"))


def field(app: ModalHost, name: str) -> FieldWidget:
    return next(w for w in app.screen.query(FieldWidget) if w.spec.name == name)


def errors(app: ModalHost) -> dict[str, str]:
    shown = {}
    for widget in app.screen.query(FieldWidget):
        if widget.has_class("-invalid"):
            shown[widget.spec.name] = str(widget.query_children(".field-error").first(Static).render())
    return shown


async def test_accept_sends_exactly_what_the_form_shows() -> None:
    app = elicitation()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        field(app, "organizer").query_one(Input).value = "ada@example.com"
        field(app, "room").query_one(Select).value = 1
        field(app, "size").query_one(Select).value = 0
        field(app, "duration_hours").query_one(Input).value = "1.5"
        field(app, "teams").query_one(SelectionList).select(1)
        field(app, "remote").query_one(Checkbox).value = False
        await pilot.press("ctrl+enter")
        await wait_until(pilot, lambda: bool(app.results))
    content = {
        **DEFAULTS,
        "organizer": "ada@example.com",
        "room": "Kilimanjaro",
        "size": "s",
        "duration_hours": 1.5,
        "teams": ["design"],
        "remote": False,
    }
    assert app.results == [{"action": "accept", "content": content}]


async def test_invalid_fields_show_errors_and_nothing_is_sent() -> None:
    app = elicitation()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        field(app, "title").query_one(Input).value = "ab"
        field(app, "organizer").query_one(Input).value = "not-an-email"
        field(app, "attendees").query_one(Input).value = "99"
        field(app, "starts_at").query_one(Input).value = "tomorrow"
        field(app, "equipment").query_one(SelectionList).select_all()
        await pilot.click("#accept")
        await pilot.pause()
        shown = errors(app)
        assert set(shown) == {"title", "organizer", "attendees", "starts_at", "equipment", "room"}
        assert "too short" in shown["title"] and "email" in shown["organizer"]
        assert "maximum" in shown["attendees"] and "date-time" in shown["starts_at"]
        assert "required" in shown["room"]
        assert app.results == []
        assert isinstance(app.screen, ElicitationModal)
        # Fixing a field clears its error as you type.
        field(app, "title").query_one(Input).value = "Retro"
        await pilot.pause()
        assert "title" not in errors(app)


@pytest.mark.parametrize(
    ("press", "expected"),
    [("ctrl+r", {"action": "decline"}), ("ctrl+g", {"action": "cancel"}), ("escape", None)],
)
async def test_decline_cancel_and_escape(press: str, expected: dict[str, str] | None) -> None:
    app = elicitation()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.press(press)
        await wait_until(pilot, lambda: bool(app.results))
    assert app.results == [expected]


@pytest.mark.parametrize("action", ["decline", "cancel"])
async def test_buttons_decline_and_cancel(action: str) -> None:
    app = elicitation()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        await pilot.click(f"#{action}")
        await wait_until(pilot, lambda: bool(app.results))
    assert app.results == [{"action": action}]


async def test_server_text_is_shown_literally() -> None:
    schema = {"type": "object", "properties": {"x": {"type": "string", "title": "[link=https://evil]x[/link]"}}}
    app = elicitation(schema)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        message = app.screen.query_one(".answer-message", Static)
        assert isinstance(message.content, Text)
        assert message.content.plain == "Pick a room [bold red]boom[/] ␛[2J"
        assert message.content.spans == []
        title = field(app, "x").query_one(".field-title", Static)
        assert str(title.render()) == "[link=https://evil]x[/link]"


async def test_unsupported_schema_is_answered_as_json() -> None:
    nested = {
        "type": "object",
        "properties": {"address": {"type": "object", "properties": {"city": {"type": "string"}}}},
    }
    app = elicitation(nested, "Where to?")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        modal = app.screen
        assert isinstance(modal, ElicitationModal)
        assert modal.unsupported is not None and "nested objects" in modal.unsupported
        warning = str(modal.query_one(".answer-warning", Static).render())
        assert "not one the spec allows" in warning
        editor = modal.query_one(TextArea)
        editor.text = '{"address": {"city": 3}'
        await pilot.pause()
        assert "not valid JSON" in errors(app)[""]
        editor.text = '{"address": {"city": 3}}'
        await pilot.pause()
        assert "not of type 'string'" in errors(app)[""]
        await pilot.press("ctrl+enter")
        await pilot.pause()
        assert app.results == []
        editor.text = '{"address": {"city": "Oslo"}}'
        await pilot.press("ctrl+enter")
        await wait_until(pilot, lambda: bool(app.results))
    assert app.results == [{"action": "accept", "content": {"address": {"city": "Oslo"}}}]


def url_modal(url: str, opener: Callable[[str], bool], server_host: str | None = "github.com") -> ModalHost:
    params = {"mode": "url", "message": "Authorize [b]me[/b]", "url": url}
    return ModalHost(lambda: UrlConsentModal(params, call="tools/call login", key="auth", server_host=server_host,
                                             opener=opener))  # fmt: skip


async def test_url_consent_opens_then_retry_accepts() -> None:
    opened: list[str] = []

    def opener(url: str) -> bool:
        opened.append(url)
        return True

    url = "https://github.com/login/oauth/authorize?client_id=abc"
    app = url_modal(url, opener)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, UrlConsentModal))
        modal = app.screen
        assert isinstance(modal, UrlConsentModal)
        assert modal.view.warnings == ()
        assert opened == []  # nothing is opened (or fetched) before consent
        await pilot.press("r")  # "Done, retry" means nothing before the URL was opened
        await pilot.pause()
        assert app.results == []
        await pilot.press("o")
        await wait_until(pilot, lambda: modal.opened is not None)
        assert opened == [url]
        assert "Opened in your browser" in str(modal.query_one("#url-status", Static).render())
        assert not modal.query_one("#done", Button).disabled
        await pilot.press("r")
        await wait_until(pilot, lambda: bool(app.results))
    assert app.results == [{"action": "accept"}]


async def test_url_without_browser_is_copied_and_said_so() -> None:
    url = "https://login.example.org/device?code=XYZ"
    app = url_modal(url, lambda _url: False)
    copied: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        app.copy_to_clipboard = copied.append  # type: ignore[method-assign,assignment]
        await wait_until(pilot, lambda: isinstance(app.screen, UrlConsentModal))
        modal = app.screen
        assert isinstance(modal, UrlConsentModal)
        assert any("not the server's" in warning for warning in modal.view.warnings)
        await pilot.click("#open")
        await wait_until(pilot, lambda: modal.opened is not None)
        assert copied == [url]
        assert "copied to your clipboard" in str(modal.query_one("#url-status", Static).render())
        await pilot.click("#done")
        await wait_until(pilot, lambda: bool(app.results))
    assert app.results == [{"action": "accept"}]


@pytest.mark.parametrize(
    ("key", "expected"), [("d", {"action": "decline"}), ("c", {"action": "cancel"}), ("escape", None)]
)
async def test_url_decline_cancel_escape(key: str, expected: dict[str, str] | None) -> None:
    app = url_modal("https://github.com/x", lambda _url: True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, UrlConsentModal))
        await pilot.press(key)
        await wait_until(pilot, lambda: bool(app.results))
    assert app.results == [expected]


async def test_url_highlights_the_real_domain_and_is_literal() -> None:
    url = "https://github.com@xn--gthub-n4a.com/[bold]x[/bold]\x1b[2J"
    app = url_modal(url, lambda _url: True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, UrlConsentModal))
        modal = app.screen
        assert isinstance(modal, UrlConsentModal)
        text = modal.highlighted()
        assert text.plain == "https://github.com@xn--gthub-n4a.com/[bold]x[/bold]␛[2J"
        bold = [text.plain[span.start : span.end] for span in text.spans if "bold" in str(span.style)]
        assert bold == ["xn--gthub-n4a.com"]
        joined = " ".join(modal.view.warnings)
        assert "user name before '@'" in joined and "punycode" in joined and "not the server's" in joined
