"""The call composer: the ``Composer`` widget (the arguments dict it posts is exactly what the form shows) in a bare
host, and the ``ComposeScreen`` over the main screen (opened from the catalog, and pre-filled by edit & resend);
pilot tests and SVG snapshots (each docstring says what a person should see)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from modal_support import wait_until
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Button, Checkbox, Input, Select, Static, TextArea
from ui_support import SIZE, connected, finished_call, footer, make_app, wait_for

from inspector.ui.app import InspectorApp
from inspector.ui.composer.compose_dialog import ComposeScreen
from inspector.ui.composer.composer import Composer
from inspector.ui.detail.detail_view import DetailView
from inspector.ui.main.main_screen import MainScreen
from inspector.ui.themes import default_variables
from inspector.ui.widgets.catalog import Catalog, CatalogList
from inspector.ui.widgets.form_fields import FieldWidget
from inspector.ui.widgets.form_groups import ArrayField, ChoiceField
from inspector.ui.widgets.timeline_rows import Row

AppFactory = Callable[..., InspectorApp]
SnapCompare = Callable[..., bool]
HOST_SIZE = (120, 60)
SNAP_SIZE = (120, 40)


NESTED: dict[str, Any] = {
    "type": "object",
    "$defs": {
        "Address": {
            "type": "object",
            "title": "Address",
            "properties": {"city": {"type": "string", "minLength": 2}, "zip": {"type": ["string", "null"]}},
            "required": ["city"],
        }
    },
    "properties": {
        "query": {"type": "string", "title": "Query", "description": "[bold red]boom[/] \x1b[2J"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
        "exact": {"type": "boolean", "default": False},
        "fuzzy": {"type": "boolean"},
        "sort": {"enum": ["asc", "desc"]},
        "home": {"$ref": "#/$defs/Address"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "stops": {"type": "array", "items": {"$ref": "#/$defs/Address"}},
        "who": {"anyOf": [{"type": "string", "title": "Name"}, {"type": "integer", "title": "Id"}]},
        "note": {"type": ["string", "null"], "default": None},
        "extra": {"type": "object"},
        "remote": {"$ref": "https://example.invalid/schema.json"},
    },
    "required": ["query", "home"],
}

TOOL = {"name": "search", "title": "Search", "description": "Search [b]things[/b]", "inputSchema": NESTED}


class ComposerHost(App[None]):
    """One composer on a screen; keeps every ``Submitted`` it posts."""

    def __init__(self, composer: Composer) -> None:
        super().__init__()
        self.composer = composer
        self.submitted: list[Composer.Submitted] = []

    def compose(self) -> ComposeResult:
        yield self.composer

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return default_variables()

    def on_composer_submitted(self, event: Composer.Submitted) -> None:
        self.submitted.append(event)


def field(app: App[Any], *path: str) -> FieldWidget:
    """The field at ``path`` (property names, outermost first)."""
    scope: Any = app.screen
    found: FieldWidget | None = None
    for name in path:
        found = next(w for w in scope.query(FieldWidget) if w.spec.name == name)
        scope = found
    assert found is not None
    return found


def steady(pilot: Pilot[Any]) -> None:
    for widget in pilot.app.screen.query("Input, TextArea"):
        if isinstance(widget, Input | TextArea):
            widget.cursor_blink = False


# ---------------------------------------------------------------------------------------------------- the widget
async def test_nested_ref_array_anyof_nullable_arguments() -> None:
    app = ComposerHost(Composer(TOOL))
    async with app.run_test(size=HOST_SIZE) as pilot:
        await pilot.pause()
        field(app, "query").query_one(Input).value = "mcp"
        field(app, "home", "city").query_one(Input).value = "Paris"
        field(app, "home", "zip").query_one(".field-null", Checkbox).value = False
        await pilot.pause()
        field(app, "home", "zip").query_one(Input).value = "75001"
        tags = field(app, "tags")
        assert isinstance(tags, ArrayField)

        def items() -> list[FieldWidget]:
            return [w for w in tags.query(FieldWidget) if w is not tags]

        def add() -> Button:
            return tags.query_one(".array-add", Button)

        def added(count: int) -> Callable[[], bool]:
            # (and the button's press effect over: a Button ignores a click while it shows the last one, 0.2 s)
            return lambda: len(items()) == count and not add().has_class("-active")

        for count in (1, 2):
            await pilot.click(add())
            await wait_until(pilot, added(count))
        items()[0].query_one(Input).value = "a"
        items()[1].query_one(Input).value = "b"
        stops = field(app, "stops")
        await pilot.click(stops.query_one(".array-add", Button))
        await wait_until(pilot, lambda: bool(stops.query(Input)))
        stops.query(Input).first().value = "Lyon"
        who = field(app, "who")
        assert isinstance(who, ChoiceField)
        who.query_one(".choice-select", Select).value = 1
        await wait_until(pilot, lambda: bool(who.query(".choice-body Input")))
        who.query_one(".choice-body Input", Input).value = "42"
        field(app, "extra").query_one(TextArea).text = '{"k": [1, 2]}'
        await pilot.press("ctrl+enter")
        await wait_until(pilot, lambda: bool(app.submitted))
    event = app.submitted[0]
    assert (event.tool_name, event.kind) == ("search", "tool")
    assert event.arguments == {
        "query": "mcp",
        "limit": 10,
        "exact": False,
        "home": {"city": "Paris", "zip": "75001"},
        "tags": ["a", "b"],
        "stops": [{"city": "Lyon"}],
        "who": 42,
        "note": None,
        "extra": {"k": [1, 2]},
    }


async def test_a_tool_with_no_arguments_is_sent_with_enter_as_the_composer_opens() -> None:
    app = ComposerHost(Composer({"name": "nightly_build", "inputSchema": {"type": "object", "properties": {}}}))
    async with app.run_test(size=HOST_SIZE) as pilot:
        await wait_until(pilot, lambda: isinstance(app.focused, Button))
        # No field to be last in, nor to tab to: the line says what works (it said both).
        assert str(app.query_one(".composer-keys", Static).render()) == "⏎ or ctrl+enter sends"
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(app.submitted))
    assert (app.submitted[0].tool_name, app.submitted[0].arguments) == ("nightly_build", {})


async def test_empty_optional_fields_are_omitted_and_removed_items_are_gone() -> None:
    app = ComposerHost(Composer(TOOL))
    async with app.run_test(size=HOST_SIZE) as pilot:
        await pilot.pause()
        field(app, "query").query_one(Input).value = "x"
        field(app, "home", "city").query_one(Input).value = "Oslo"
        field(app, "limit").query_one(Input).value = ""
        field(app, "note").query_one(".field-null", Checkbox).value = False
        tags = field(app, "tags")
        await pilot.click(tags.query_one(".array-add", Button))
        await pilot.pause()
        await pilot.click(tags.query_one(".array-remove", Button))
        await wait_until(pilot, lambda: not tags.query(".array-item"))
        await pilot.click("#composer-call")
        await wait_until(pilot, lambda: bool(app.submitted))
    # limit emptied, note un-nulled but empty, zip, fuzzy and sort never set, tags emptied: absent, never "".
    assert app.submitted[0].arguments == {"query": "x", "exact": False, "home": {"city": "Oslo"}}


async def test_invalid_input_shows_errors_per_field_and_posts_nothing() -> None:
    app = ComposerHost(Composer(TOOL))
    async with app.run_test(size=HOST_SIZE) as pilot:
        await pilot.pause()
        field(app, "limit").query_one(Input).value = "500"
        field(app, "home", "city").query_one(Input).value = "P"
        field(app, "extra").query_one(TextArea).text = "{oops"
        await pilot.pause()
        assert "not valid JSON" in str(field(app, "extra").query_one(".field-error", Static).render())
        await pilot.press("ctrl+enter")
        await pilot.pause()
        composer = app.composer
        shown = {path: message for path, message in composer.last_errors.items()}
        assert set(shown) == {("extra",)}  # unreadable input is reported first, on its own
        field(app, "extra").query_one(TextArea).text = ""
        await pilot.press("ctrl+enter")
        await pilot.pause()
        assert set(composer.last_errors) == {("query",), ("limit",), ("home", "city")}
        assert field(app, "query").has_class("-invalid") and field(app, "home", "city").has_class("-invalid")
        assert "required" in str(field(app, "query").query_one(".field-error", Static).render())
        assert str(field(app, "limit").query_one(".field-error", Static).render()) == "at most 100"
        assert "3 fields to fix" in str(composer.query_one(".composer-status", Static).render())
        assert app.submitted == []


async def test_unexpressible_schema_is_a_json_editor_checked_as_you_type() -> None:
    tool = {"name": "raw", "inputSchema": {"type": "object", "additionalProperties": {"type": "integer"}}}
    app = ComposerHost(Composer(tool))
    async with app.run_test(size=HOST_SIZE) as pilot:
        await pilot.pause()
        editor = app.screen.query_one(TextArea)
        assert editor.text == "{}"
        editor.text = '{"a": "x"}'
        await pilot.pause()
        error = str(app.screen.query_one(".field-error", Static).render())
        assert error == "a: must be a whole number"
        await pilot.press("ctrl+enter")
        await pilot.pause()
        assert app.submitted == []
        editor.text = '{"a": 1, "b": 2}'
        await pilot.press("ctrl+enter")
        await wait_until(pilot, lambda: bool(app.submitted))
    assert app.submitted[0].arguments == {"a": 1, "b": 2}


async def test_prompt_composer_sends_strings() -> None:
    prompt = {"name": "review", "arguments": [{"name": "code", "required": True}, {"name": "tone"}]}
    app = ComposerHost(Composer.for_prompt(prompt))
    async with app.run_test(size=HOST_SIZE) as pilot:
        await pilot.pause()
        field(app, "code").query_one(Input).value = "print(1)"
        await pilot.press("ctrl+enter")
        await wait_until(pilot, lambda: bool(app.submitted))
    assert (app.submitted[0].tool_name, app.submitted[0].kind) == ("review", "prompt")
    assert app.submitted[0].arguments == {"code": "print(1)"}


async def test_server_text_in_the_composer_is_literal() -> None:
    tool = {"name": "x[red]y[/red]", "description": "[bold red]boom[/] \x1b[2J", "inputSchema": NESTED}
    app = ComposerHost(Composer(tool))
    async with app.run_test(size=HOST_SIZE) as pilot:
        await pilot.pause()
        header = str(app.screen.query_one(".composer-header", Static).render())
        assert header == "tools/call x[red]y[/red]"
        description = app.screen.query_one(".composer-description", Static)
        assert str(description.render()) == "[bold red]boom[/] ␛[2J"
        remote = field(app, "remote")
        assert "not fetched" in str(remote.query_one(".field-reason", Static).render())


def test_composer_nested_form(snap_compare: SnapCompare) -> None:
    """Header "tools/call search  Search" (name bold, title italic), the description shown literally as
    "Search [b]things[/b]". The form: "Query *" (with its name "query" dim beside it) and the literal description
    "[bold red]boom[/] ␛[2J"; "limit" pre-filled 10; a "exact" checkbox; "fuzzy" and "sort" showing "(not set)";
    "Address * home" with an indented block holding "city *" and "zip" with a "null" toggle; "tags" and "stops" each
    with a "+ add" button; "who" with a "(not set)" choice... (the rest scrolls). Docked at the bottom, a blue
    "Call" button. Text boxes and choices stand out on a slightly lighter band."""

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        steady(pilot)

    assert snap_compare(ComposerHost(Composer(TOOL)), terminal_size=SNAP_SIZE, run_before=steps)


def test_composer_errors_under_fields(snap_compare: SnapCompare) -> None:
    """After pressing Call with "limit" set to 500 and nothing else filled: under "Query *" the red line
    "required", under "limit" "at most 100", and under "city *" inside the Address block
    "required"; beside the Call button, in red, "3 fields to fix before sending". Nothing was posted."""

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        pilot.app.screen.query(Input)[1].value = "500"
        await pilot.press("ctrl+enter")
        await pilot.pause()
        pilot.app.screen.query(Input)[0].focus()
        await pilot.pause()
        steady(pilot)

    assert snap_compare(ComposerHost(Composer(TOOL)), terminal_size=SNAP_SIZE, run_before=steps)


def test_composer_json_fallback(snap_compare: SnapCompare) -> None:
    """A tool whose input schema is a free-form map of integers: header "tools/call tally", then the line
    "JSON: an object with free-form keys" and a JSON editor (8 rows tall) holding {"a": "x"}, with the red line
    "a: must be a whole number" under it (checked as it was typed)."""

    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        pilot.app.screen.query_one(TextArea).text = '{"a": "x"}'
        await pilot.pause()
        steady(pilot)

    tool = {"name": "tally", "inputSchema": {"type": "object", "additionalProperties": {"type": "integer"}}}
    assert snap_compare(ComposerHost(Composer(tool)), terminal_size=SNAP_SIZE, run_before=steps)


# ---------------------------------------------------------------------------------------------------- the screen
async def test_enter_on_a_tool_opens_the_composer_and_sends_its_arguments(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        listing = screen.query_one(CatalogList)
        listing.focus()
        listing.highlighted = listing.get_option_index("tools:9")  # add, the demo's last tool
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ComposeScreen))
        composer = app.screen.query_one(Composer)
        composer.post_message(Composer.Submitted("add", {"a": 2, "b": 40}))
        await wait_for(
            pilot, lambda: isinstance(app.screen, MainScreen) and screen.timeline.calls[-1].method == "tools/call"
        )
        await wait_for(pilot, lambda: screen.timeline.calls[-1].status == "complete")
        call = screen.timeline.calls[-1]
        assert call.params == {"name": "add", "arguments": {"a": 2, "b": 40}}
        assert call.result is not None and call.result["content"][0]["text"] == "42"
        await wait_for(pilot, lambda: screen.selected == (call.index, 0))
        assert "#6 tools/call add" in screen.query_one(DetailView).plain_lines[0]


async def composing_add(pilot: Pilot[Any]) -> MainScreen:
    """Once connected, open the composer on the demo's ``add`` and wait for the cursor in its first field."""
    app = pilot.app
    screen = await connected(pilot)
    add = next(tool for tool in screen.query_one(Catalog).items["tools"] if tool["name"] == "add")
    screen.composer.choose(add, "tools")
    await wait_for(pilot, lambda: isinstance(app.screen, ComposeScreen) and isinstance(app.focused, Input))
    return screen


async def test_the_composer_says_how_to_send_and_enter_in_the_last_field_sends(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await composing_add(pilot)
        # Its own keys, not the main screen's "⏎ call" showing through; the line by the button says the rest.
        assert footer(app) == [("^⏎", "send"), ("esc", "close")]
        hint = str(app.screen.query_one(".composer-keys", Static).render())
        assert hint == "⏎ in the last field or ctrl+enter sends · tab next field"
        await pilot.press("2", "enter")  # Enter in the first field moves on
        await wait_for(pilot, lambda: isinstance(app.focused, Input) and app.focused is app.screen.query(Input)[1])
        await pilot.press(*"40", "enter")  # and in the last one sends
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and screen.timeline.calls[-1].name == "add")
        assert screen.timeline.calls[-1].params == {"name": "add", "arguments": {"a": 2, "b": 40}}


async def test_letters_in_a_whole_number_field_are_refused_with_a_word_and_never_sent(app_factory: AppFactory) -> None:
    """The demo's add takes two integers: "4x2" keeps "42" and says why the "x" went until the "2" is taken, and
    "3.5" is kept as typed and refused as no integer (never sent as 35)."""
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await composing_add(pilot)
        a, b = field(app, "a"), field(app, "b")
        await pilot.press("4", "x")
        await wait_for(pilot, lambda: a.has_class("-invalid"))
        assert str(a.query_one(".field-error", Static).render()) == 'whole numbers only: "x" was not typed'
        await pilot.press("2")  # the next key it takes clears the word
        await wait_for(pilot, lambda: a.query_one(Input).value == "42" and not a.has_class("-invalid"))
        await pilot.press("tab", *"3.5")
        await wait_for(pilot, lambda: b.has_class("-invalid"))
        assert b.query_one(Input).value == "3.5"
        assert str(b.query_one(".field-error", Static).render()) == "3.5 is not an integer (a whole number)"
        await pilot.press("ctrl+enter")
        await pilot.pause()
        assert isinstance(app.screen, ComposeScreen), "nothing was sent"
        await pilot.press("backspace", "backspace", "ctrl+enter")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and screen.timeline.calls[-1].name == "add")
        assert screen.timeline.calls[-1].params == {"name": "add", "arguments": {"a": 42, "b": 3}}


async def test_a_template_gets_a_field_per_variable_and_shows_the_uri_it_reads(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        (template,) = screen.query_one(Catalog).items["templates"]
        screen.composer.choose(template, "templates")
        await wait_for(pilot, lambda: isinstance(app.screen, ComposeScreen) and isinstance(app.focused, Input))
        compose = app.screen
        assert compose.query_one(".dialog").border_title == "read demo://report{?section}"  # a read, not a call
        assert [widget.spec.name for widget in compose.query(FieldWidget) if widget.spec.name] == ["section"]

        def reads() -> str:
            return str(compose.query_one(".composer-preview", Static).render())

        assert reads() == "reads demo://report"  # an empty variable is left out (RFC 6570)
        await pilot.press(*"q3 & q4")
        await wait_for(pilot, lambda: reads() == "reads demo://report?section=q3%20%26%20q4")
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.timeline.calls[-1].method == "resources/read")
        assert screen.timeline.calls[-1].params == {"uri": "demo://report?section=q3%20%26%20q4"}


async def test_escape_closes_the_composer_without_calling(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await connected(pilot)
        calls = len(screen.timeline.calls)
        screen.query_one(CatalogList).focus()
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ComposeScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, MainScreen))
        assert len(screen.timeline.calls) == calls


async def test_resend_with_edited_arguments_sits_next_to_the_old_call_with_a_diff(app_factory: AppFactory) -> None:
    app = app_factory()
    async with app.run_test(size=SIZE) as pilot:
        screen = await finished_call(pilot, "add", {"a": 2, "b": 40})
        old = len(screen.timeline.calls)
        view = screen.timeline_view
        view.focus()
        view.select_call(old)
        await wait_for(pilot, lambda: screen.selected == (old, 0))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(app.screen, ComposeScreen))
        composer = app.screen.query_one(Composer)
        assert composer.arguments() == ({"a": 2, "b": 40}, {})  # pre-filled with exactly what was sent
        assert "resend #6" in str(app.screen.query_one(".dialog").border_title)
        composer.post_message(Composer.Submitted("add", {"a": 3, "b": 40}))
        new = old + 1
        await wait_for(pilot, lambda: len(screen.timeline.calls) == new)
        await wait_for(pilot, lambda: screen.timeline.calls[-1].status == "complete")
        await wait_for(pilot, lambda: screen.selected == (new, 0))
        assert screen.timeline.calls[-1].params == {"name": "add", "arguments": {"a": 3, "b": 40}}
        assert screen.timeline.calls[-1].resends == old  # recorded with the call: a replay shows it too
        view.ensure_rows()
        assert view.rows.index(Row(new, 0, 0)) + 1 == view.rows.index(Row(old, 0, 0))  # right above the old call
        # The comparison is there while the resend is pending ("waiting for the result to compare"); the result's
        # differences once its end is drawn (a queued redraw): wait for them.
        detail = screen.query_one(DetailView)
        await wait_for(pilot, lambda: "2 differences in the result:" in detail.plain_lines)
        lines = detail.plain_lines
        assert f"─ compared with #{old} (resent) " in lines
        at = lines.index("sent arguments.a: changed")
        assert lines[at + 1 : at + 3] == [f"  #{old}: 2", f"  #{new}: 3"]
        at = lines.index("2 differences in the result:")  # the demo's add answers as text and as structured content
        assert lines[at + 1 : at + 4] == ["content[0].text: changed", f'  #{old}: "42"', f'  #{new}: "43"']
        at = lines.index("structuredContent.result: changed")
        assert lines[at + 1 : at + 3] == [f"  #{old}: 42", f"  #{new}: 43"]


def test_resend_composer_prefilled(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The composer dialog titled "resend #6: call add" over the main screen: "tools/call add", the description
    "Add two integers.", and the required fields "A * a" and "B * b" pre-filled with 2 and 40 (what call #6 sent),
    the cursor in the first; the Call button at the bottom. Behind it, dimmed, #6 tools/call add is highlighted."""

    async def steps(pilot: Any) -> None:
        screen = await finished_call(pilot, "add", {"a": 2, "b": 40})
        screen.timeline_view.focus()
        screen.timeline_view.select_call(6)
        await wait_for(pilot, lambda: screen.selected == (6, 0))
        await pilot.press("s")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ComposeScreen))
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)


def test_template_composer(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The composer of the resource template demo://report{?section}, titled "read demo://report{?section}":
    "resources/read demo://report{?section}" with its title "Quarterly report" in italics and its description;
    "reads demo://report?section=q3" in bold as the one field, "section", holds q3 (the cursor after it); the
    button says Read, with "⏎ in the last field or ctrl+enter sends · tab next field" beside it; the footer lists
    ^⏎ send and esc close."""

    async def steps(pilot: Any) -> None:
        screen = await connected(pilot)
        (template,) = screen.query_one(Catalog).items["templates"]
        screen.composer.choose(template, "templates")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ComposeScreen))
        await wait_for(pilot, lambda: isinstance(pilot.app.focused, Input))
        await pilot.press("q", "3")
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=steps)
