"""The elicitation modal (form mode): pilot tests of the exact ElicitResult it returns, Escape on a task's question
cancelling the task on the server (both eras, the demo in process), and SVG snapshots (each docstring says what a
person should see)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from modal_support import SIZE, SnapCompare, settle, wait_until
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select, SelectionList, Static, TextArea
from ui_support import DEMO, connected, make_app, wait_for

from inspector.demo.task_model import SCALE_ENV
from inspector.session.session import InspectorSession
from inspector.ui.composer.call_composer import CallRequest
from inspector.ui.devtools.preview import SAMPLES, AnswersHost, ModalHost
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.modals.answer_dialog import AskedFor
from inspector.ui.modals.elicitation import ElicitationModal
from inspector.ui.widgets.form_fields import FieldWidget

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


def elicitation(schema: dict[str, Any] = BOOK_MEETING, message: str = HOSTILE) -> ModalHost:
    params = {"message": message, "requestedSchema": schema}
    return ModalHost(lambda: ElicitationModal(params, AskedFor("tools/call book_meeting", "meeting")))


def field(app: ModalHost | AnswersHost, name: str) -> FieldWidget:
    return next(w for w in app.screen.query(FieldWidget) if w.spec.name == name)


def errors(app: ModalHost | AnswersHost) -> dict[str, str]:
    shown = {}
    for widget in app.screen.query(FieldWidget):
        if widget.has_class("-invalid"):
            shown[widget.spec.name] = str(widget.query_children(".field-error").first(Static).render())
    return shown


# ---------------------------------------------------------------------------------------------------- pilot tests
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
        # Worded as a person would, never jsonschema's "'x' is not a 'email'".
        assert shown["title"] == "at least 3 characters" and shown["organizer"] == "not an email address"
        assert shown["attendees"] == "at most 50" and shown["starts_at"].startswith("not a date and time")
        assert shown["equipment"] == "choose at most 2"
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


async def test_the_footer_tells_the_two_cancels_apart() -> None:
    app = elicitation()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        shown = [b.binding for b in app.screen.active_bindings.values() if b.binding.show]
        words = {app.get_key_display(b): (b.description, b.tooltip) for b in shown}
        assert words["esc"][0] == "stop the call" and "no answer is sent" in words["esc"][1]
        assert words["^g"][0] == "cancel (answer)" and '{"action": "cancel"}' in words["^g"][1]
        assert words["^r"][0] == "decline"
        note = " ".join(str(s.render()) for s in app.screen.query(Static) if "escape stops" in str(s.render()))
        assert "Decline and Cancel are answers the server receives" in " ".join(note.split())


async def test_a_select_opens_its_list_inside_the_dialog_above_the_buttons() -> None:
    app = elicitation()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        room = field(app, "room").query_one(Select)
        room.focus()
        room.scroll_visible(animate=False)
        await pilot.pause()
        room.expanded = True
        overlay = room.query_one("SelectOverlay")
        await wait_until(pilot, lambda: overlay.display and overlay.region.height > 1)
        dialog = app.screen.query_one(".dialog").region
        top_of_buttons = min(button.region.y for button in app.screen.query("Button"))
        assert dialog.contains_region(overlay.region), (overlay.region, dialog)
        assert overlay.region.bottom <= top_of_buttons, (overlay.region, top_of_buttons)


async def test_a_select_near_the_bottom_of_a_small_dialog_leaves_the_buttons_in_view() -> None:
    # At 80x24 the choice sits on the last visible row of the form: its list opened downwards, over the note and
    # the Accept / Decline / Cancel buttons. The form now scrolls up to make room, and the list ends above the note.
    app = elicitation()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        room = field(app, "room").query_one(Select)
        room.focus()  # scrolled into view at the bottom edge of the form, as Tab brings it there
        await pilot.pause()
        await pilot.press("enter")
        overlay = room.query_one("SelectOverlay")
        await wait_until(pilot, lambda: overlay.display and overlay.region.height > 1)
        await pilot.pause()
        note = app.screen.query_one(".answer-note").region
        assert overlay.region.bottom <= note.y, (overlay.region, note)
        assert overlay.region.height == 4  # the whole list: the prompt and the three rooms
        await pilot.press("down", "down", "enter")
        await wait_until(pilot, lambda: not room.expanded)
        assert room.value == 1


async def test_an_integer_field_keeps_a_fraction_and_says_it_is_not_an_integer() -> None:
    app = elicitation()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        attendees = field(app, "attendees").query_one(Input)
        attendees.focus()
        await pilot.press("ctrl+u", *"3.5")  # was read as "35": the "." dropped without a word
        await wait_until(pilot, lambda: "attendees" in errors(app))
        assert attendees.value == "3.5"
        assert errors(app)["attendees"] == "3.5 is not an integer (a whole number)"
        await pilot.press("ctrl+enter")
        await pilot.pause()
        assert app.results == [] and errors(app)["attendees"] == "3.5 is not an integer (a whole number)"
        await pilot.press("backspace", "backspace")
        await wait_until(pilot, lambda: "attendees" not in errors(app))
        assert attendees.value == "3"


async def test_a_letter_typed_in_a_number_field_is_refused_with_a_word_why() -> None:
    """Textual's number box drops what cannot become a number with only the bell: each field now says so under it,
    until the next key it takes."""
    app = elicitation()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        attendees = field(app, "attendees").query_one(Input)
        attendees.focus()
        await pilot.press("ctrl+u", "1", "x")
        await wait_until(pilot, lambda: "attendees" in errors(app))
        assert attendees.value == "1"
        assert errors(app)["attendees"] == 'whole numbers only: "x" was not typed'
        await pilot.press("2")  # a key the box takes: the word goes
        await wait_until(pilot, lambda: "attendees" not in errors(app))
        assert attendees.value == "12"
        hours = field(app, "duration_hours").query_one(Input)
        hours.focus()
        await pilot.press("1", ".", "5", ".")  # a second "." cannot be part of a number
        await wait_until(pilot, lambda: "duration_hours" in errors(app))
        assert hours.value == "1.5"
        assert errors(app)["duration_hours"] == 'numbers only: "." was not typed'
        field(app, "organizer").query_one(Input).value = "ada@example.com"
        field(app, "room").query_one(Select).value = 0
        await pilot.press("ctrl+enter")  # what the fields show is sent: nothing typed was lost, nothing added
        await wait_until(pilot, lambda: bool(app.results))
        (result,) = app.results
        assert result["action"] == "accept" and result["content"]["attendees"] == 12
        assert result["content"]["duration_hours"] == 1.5


async def test_server_text_is_shown_literally() -> None:
    schema = {"type": "object", "properties": {"x": {"type": "string", "title": "[link=https://evil]x[/link]"}}}
    app = elicitation(schema)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        message = app.screen.query_one(".answer-message-text", Static)
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
        assert errors(app)[""] == "address/city: must be text"  # in a person's words, where it is wrong
        await pilot.press("ctrl+enter")
        await pilot.pause()
        assert app.results == []
        editor.text = '{"address": {"city": "Oslo"}}'
        await pilot.press("ctrl+enter")
        await wait_until(pilot, lambda: bool(app.results))
    assert app.results == [{"action": "accept", "content": {"address": {"city": "Oslo"}}}]


async def test_elicitation_first_keys_go_to_the_first_field() -> None:
    ask = {"method": "elicitation/create", "params": {"message": "Book", "requestedSchema": BOOK_MEETING}}
    app = AnswersHost([("meeting", ask)])
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitationModal))
        title = next(w for w in app.screen.query(FieldWidget) if w.spec.name == "title").query_one(Input)
        assert app.screen.focused is title
        await pilot.press("space", "2")
        organizer = next(w for w in app.screen.query(FieldWidget) if w.spec.name == "organizer").query_one(Input)
        await pilot.press("tab", *"ada@example.com")
        assert title.value == "Sprint review 2" and organizer.value == "ada@example.com"
        scroll = app.screen.query_one(".answer-body")
        assert scroll.scroll_offset.y == 0  # the first field's label is still in view


# ---------------------------------------------------------------------------------------------------- a task's question
@pytest.mark.parametrize("era", ["modern", "legacy"])
async def test_escape_on_a_tasks_question_cancels_the_task_on_the_server(
    era: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Escape on the question a task asks (deploy_release's approval: 2026, a key of the task's ``inputRequests``;
    2025-11-25, a server request on its ``tasks/result``) sends ``tasks/cancel``, and the call ends cancelled once
    the server's task says it is; asked again, the server says so too. Before, the call ended "cancelled" on the
    screen with no tasks/cancel, and the task stayed working on the server."""
    monkeypatch.setenv(SCALE_ENV, "0.2")
    legacy = DEMO.__class__.from_spec("python -m inspector.demo", name="demo", era="legacy")
    target = DEMO if era == "modern" else legacy
    app = make_app(tmp_path, target=target, interactive=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        screen.run_call(CallRequest("tools", "deploy_release", {"version": "1.2"}))

        def asking(about: str) -> bool:
            shown = app.screen
            return isinstance(shown, ElicitationModal) and about in str(shown.params.get("message"))

        await wait_for(pilot, lambda: asking("Which environment"))  # asked on the tools/call, before any task
        environment = app.screen
        await pilot.press("ctrl+enter")  # staging, the form's default
        await wait_for(pilot, lambda: app.screen is not environment and asking("Release v1.2"))  # the task's
        call = screen.timeline.calls[-1]
        assert call.task is not None and call.in_flight
        await pilot.press("escape")
        await wait_for(pilot, lambda: call.ended)
        assert isinstance(app.screen, MainScreen)
        methods = [r.method for r in call.rounds]
        assert methods.count("tasks/cancel") == 1, methods
        assert call.status == "cancelled" and call.status_detail == "the task was cancelled", call.status_detail
        assert call.task.changes()[-1] == "cancelled", "ended as the server's task did"
        session = screen.session
        assert isinstance(session, InspectorSession)
        again = await session.look_at_task(call.task.task_id)
        assert (again.result or {}).get("status") == "cancelled", again.result


# ---------------------------------------------------------------------------------------------------- snapshots
def form_host(schema: dict[str, Any] | None = None, message: str | None = None) -> AnswersHost:
    params = {
        "message": message or "Book a meeting [bold red]boom[/] \x1b[2J",
        "requestedSchema": schema or BOOK_MEETING,
    }
    return AnswersHost([("meeting", {"method": "elicitation/create", "params": params})])


def test_elicitation_form_book_meeting(snap_compare: SnapCompare) -> None:
    """A dialog with a thick border titled "The server asks for information" over an empty screen. First line:
    "tools/call preview · input meeting · elicitation/create". The message reads literally "Book a meeting
    [bold red]boom[/] ␛[2J" (no red, no bold, the screen not cleared). Below, the form: "Meeting title *" with its
    description and "Sprint review" pre-filled with the cursor at its end (the first field has the focus, and the
    form is scrolled to its top), "Organizer email *" with a dim name@example.com hint, "Day *"
    pre-filled 2026-08-03, "Starts at" with a YYYY-MM-DDTHH:MM:SSZ hint, "Agenda link", "Attendees *" pre-filled 4,
    "Duration (hours)" ... (the rest scrolls). Under the form "Required fields are marked *. Nothing is sent until
    you answer. Decline and Cancel are answers the server receives; escape stops the call and answers nothing.";
    bottom right the Accept, Decline and Cancel buttons; the footer lists esc stop the call, ^⏎ accept, ^r decline,
    ^g cancel (answer)."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot, ElicitationModal)

    assert snap_compare(form_host(), terminal_size=SIZE, run_before=steps)


def test_elicitation_form_errors_before_sending(snap_compare: SnapCompare) -> None:
    """The same dialog after Accept with bad input: the form has scrolled so "Organizer email *" is visible, the
    field holds "not-an-email" and under it in the error colour "not an email address"; "Attendees *"
    holds 99 with "at most 50" under it. Lower down (scrolled out) "Room *" says it is
    required. Nothing was sent: the screen behind still says "(no answer yet)"."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot, ElicitationModal)
        inputs = list(pilot.app.screen.query(Input))
        inputs[1].value = "not-an-email"
        inputs[5].value = "99"
        await pilot.press("ctrl+enter")
        await pilot.pause()
        pilot.app.screen.query(Input)[1].focus()
        await pilot.pause()

    assert snap_compare(form_host(), terminal_size=SIZE, run_before=steps)


def test_elicitation_unsupported_schema_json_editor(snap_compare: SnapCompare) -> None:
    """A requestedSchema with a nested object: the dialog shows, in the warning colour, "⚠ This requestedSchema is
    not one the spec allows (property 'address': nested objects are not allowed); answer as JSON." and a JSON
    editor holding {"address": {"city": 3}} with the error "address/city: must be text" under it."""

    async def steps(pilot: Pilot[Any]) -> None:
        await settle(pilot, ElicitationModal)
        pilot.app.screen.query_one(TextArea).text = '{"address": {"city": 3}}'
        await pilot.pause()

    params = SAMPLES["unsupported"]["params"]
    assert snap_compare(form_host(params["requestedSchema"], params["message"]), terminal_size=SIZE, run_before=steps)
