"""Pilot tests of the call composer: the arguments dict it posts is exactly what the form shows."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widgets import Button, Checkbox, Input, Select, Static, TextArea

from inspector.ui.themes import default_variables
from inspector.ui.widgets.composer import Composer
from inspector.ui.widgets.form_fields import FieldWidget
from inspector.ui.widgets.form_groups import ArrayField, ChoiceField

SIZE = (120, 60)

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


async def wait_until(pilot: Pilot[Any], ready: Callable[[], bool], timeout: float = 5.0) -> None:
    """Let the app run until ``ready()``; fails after ``timeout`` seconds (no blind sleeps)."""
    async with asyncio.timeout(timeout):
        while not ready():
            await pilot.pause()


def field(app: App[Any], *path: str) -> FieldWidget:
    """The field at ``path`` (property names, outermost first)."""
    scope: Any = app.screen
    found: FieldWidget | None = None
    for name in path:
        found = next(w for w in scope.query(FieldWidget) if w.spec.name == name)
        scope = found
    assert found is not None
    return found


async def test_nested_ref_array_anyof_nullable_arguments() -> None:
    app = ComposerHost(Composer(TOOL))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        field(app, "query").query_one(Input).value = "mcp"
        field(app, "home", "city").query_one(Input).value = "Paris"
        field(app, "home", "zip").query_one(".field-null", Checkbox).value = False
        await pilot.pause()
        field(app, "home", "zip").query_one(Input).value = "75001"
        tags = field(app, "tags")
        assert isinstance(tags, ArrayField)
        for _ in range(2):
            await pilot.click(tags.query_one(".array-add", Button))
        await pilot.pause()
        items = [w for w in tags.query(FieldWidget) if w is not tags]
        items[0].query_one(Input).value = "a"
        items[1].query_one(Input).value = "b"
        stops = field(app, "stops")
        await pilot.click(stops.query_one(".array-add", Button))
        await pilot.pause()
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


async def test_empty_optional_fields_are_omitted_and_removed_items_are_gone() -> None:
    app = ComposerHost(Composer(TOOL))
    async with app.run_test(size=SIZE) as pilot:
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
    async with app.run_test(size=SIZE) as pilot:
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
        assert "maximum" in str(field(app, "limit").query_one(".field-error", Static).render())
        assert "3 fields to fix" in str(composer.query_one(".composer-status", Static).render())
        assert app.submitted == []


async def test_unexpressible_schema_is_a_json_editor_checked_as_you_type() -> None:
    tool = {"name": "raw", "inputSchema": {"type": "object", "additionalProperties": {"type": "integer"}}}
    app = ComposerHost(Composer(tool))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        editor = app.screen.query_one(TextArea)
        assert editor.text == "{}"
        editor.text = '{"a": "x"}'
        await pilot.pause()
        error = str(app.screen.query_one(".field-error", Static).render())
        assert "is not of type 'integer'" in error
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
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        field(app, "code").query_one(Input).value = "print(1)"
        await pilot.press("ctrl+enter")
        await wait_until(pilot, lambda: bool(app.submitted))
    assert (app.submitted[0].tool_name, app.submitted[0].kind) == ("review", "prompt")
    assert app.submitted[0].arguments == {"code": "print(1)"}


async def test_server_text_in_the_composer_is_literal() -> None:
    tool = {"name": "x[red]y[/red]", "description": "[bold red]boom[/] \x1b[2J", "inputSchema": NESTED}
    app = ComposerHost(Composer(tool))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        header = str(app.screen.query_one(".composer-header", Static).render())
        assert header == "tools/call x[red]y[/red]"
        description = app.screen.query_one(".composer-description", Static)
        assert str(description.render()) == "[bold red]boom[/] ␛[2J"
        remote = field(app, "remote")
        assert "not fetched" in str(remote.query_one(".field-reason", Static).render())
