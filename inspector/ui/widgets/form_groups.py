"""Fields that hold other fields (objects, arrays, ``anyOf``/``oneOf`` choices) and the ``FormView`` that owns them.

``FormView`` reads the whole form (``collect``), checks it against the schema (``check``) and puts each error under
the field it belongs to. Array items are added and removed in place; a choice swaps the field of the chosen variant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Final

from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.widgets import Button, Input, Select, Static

from inspector.protocol.form_values import matches_kind
from inspector.protocol.schema_form import MISSING, FieldSpec, Path
from inspector.ui.key_hold import hold_keys
from inspector.ui.keys import Key, bindings
from inspector.ui.safe_text import safe
from inspector.ui.widgets.form_check import schema_errors, sub_schema
from inspector.ui.widgets.form_fields import HIDE_NAMES, LEAF_WIDGETS, Collected, FieldWidget, JsonField
from inspector.ui.widgets.form_select import FormSelect

if TYPE_CHECKING:
    from textual.app import ComposeResult
    from textual.widget import Widget

    from inspector.ui.key_hold import Hold

Checker = Callable[[Any], dict[Path, str]]
"""Validates a collected value; returns the error at each failing path."""
SIMPLE_KINDS: Final = frozenset({"string", "number", "integer", "boolean", "enum", "multi"})
"""The field kinds of a simple form (see ``FormView.simple``)."""
FIELD_CONTROLS: Final = "Input, TextArea, Select, SelectionList, Checkbox"
"""The widgets a person types or picks in."""


def is_simple(spec: FieldSpec) -> bool:
    """A simple form: every field is a leaf of the root object (no object, array, choice or JSON field)."""
    return spec.kind == "object" and all(field.kind in SIMPLE_KINDS for field in spec.fields)


def build_field(spec: FieldSpec, initial: Any = MISSING, *, show_label: bool = True) -> FieldWidget:
    """The widget for one field spec, pre-filled with ``initial`` (else the schema's default)."""
    if spec.kind == "object":
        return ObjectField(spec, initial, show_label=show_label)
    if spec.kind == "array":
        return ArrayField(spec, initial, show_label=show_label)
    if spec.kind == "choice":
        return ChoiceField(spec, initial, show_label=show_label)
    return LEAF_WIDGETS[spec.kind](spec, initial, show_label=show_label)


class ObjectField(FieldWidget):
    """An object: its properties as fields, indented under its label (the root form has neither)."""

    DEFAULT_CSS = """
    FieldWidget.-last { margin-bottom: 0; }
    ObjectField.-nested > .field-control { border-left: outer $panel-lighten-2; padding-left: 1; }
    """

    def __init__(self, spec: FieldSpec, initial: Any = MISSING, *, show_label: bool = True) -> None:
        super().__init__(spec, initial, show_label=show_label)
        self.add_class("-nested")

    def compose_control(self) -> ComposeResult:
        values = self.initial if isinstance(self.initial, Mapping) else {}
        fields = [build_field(spec, values.get(spec.name, MISSING)) for spec in self.spec.fields]
        if fields:
            # A class, not ``:last-child``: Textual restyles each child an order rule matches after every mount
            # (every field, all over again) and never caches those styles.
            fields[-1].add_class("-last")
        yield from fields
        if not self.spec.fields:
            empty = "(no properties)" if self.spec.name else "No arguments: the call is sent with {}."
            yield Static(empty, classes="field-description")

    def boxes_control(self) -> bool:
        # Nested, its fields are indented in the box under its label; the form's own object (``FormView.root``)
        # holds its fields itself, two levels fewer above each of them.
        return self.has_class("-nested") or self.spec.nullable

    @property
    def body(self) -> Widget:
        """The widget that holds the object's fields: its ``.field-control`` box, or the object itself."""
        return self.query_children(".field-control").first() if self.boxes_control() else self

    def read(self, path: Path, found: Collected) -> Any:
        result: dict[str, Any] = {}
        for child in self.body.query_children(FieldWidget):
            value = child.collect((*path, child.spec.name), found)
            if value is not MISSING:
                result[child.spec.name] = value
        if result or self.spec.required:
            return result
        return MISSING


class ArrayField(FieldWidget):
    """A list of items of one schema: each with a remove button, and an add button below."""

    GROUP = True

    DEFAULT_CSS = """
    ArrayField .array-items { height: auto; }
    ArrayField .array-item { height: auto; }
    ArrayField .array-item > FieldWidget { width: 1fr; margin: 0; }
    ArrayField .array-remove, ArrayField .array-add { min-width: 5; width: auto; height: 1; border: none; margin: 0 1; }
    ArrayField .array-add { margin: 0; }
    """

    def compose_control(self) -> ComposeResult:
        values = self.initial if isinstance(self.initial, list) else []
        with Vertical(classes="array-items"):
            for value in values:
                yield self._row(value)
        yield Button("+ add", classes="array-add", compact=True, tooltip="Add an item to this list")

    def _row(self, value: Any) -> Horizontal:
        assert self.spec.item is not None
        item = build_field(self.spec.item, value, show_label=False)
        remove = Button("✕", classes="array-remove", compact=True, tooltip="Remove this item")
        return Horizontal(item, remove, classes="array-item")

    def read(self, path: Path, found: Collected) -> Any:
        items = self.query_one(".array-items")
        result = []
        for index, row in enumerate(items.query_children(".array-item")):
            item = row.query_children(FieldWidget).first()
            value = item.collect((*path, index), found)
            result.append(None if value is MISSING and item.spec.nullable else value)
        if any(value is MISSING for value in result):
            found.errors.setdefault(path, "fill in or remove the empty items")
            return MISSING
        return result if result or self.spec.required else MISSING

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.has_class("array-add") and event.button.parent is self.query_one(".field-control"):
            event.stop()
            assert self.spec.item is not None
            added = self._row(self.spec.item.default)
            await self.query_one(".array-items").mount(added)
            self.show_error(None)
            focusable = [widget for widget in added.query("*") if widget.focusable]
            if focusable:
                focusable[0].focus()
        elif event.button.has_class("array-remove"):
            row = event.button.parent
            if isinstance(row, Horizontal) and row.parent is self.query_one(".array-items"):
                event.stop()
                await row.remove()
                self.show_error(None)


class ChoiceField(FieldWidget):
    """``anyOf``/``oneOf`` of different shapes: pick the variant, then fill in its field."""

    GROUP = True

    DEFAULT_CSS = "ChoiceField .choice-body { height: auto; }"

    def compose_control(self) -> ComposeResult:
        chosen = self._initial_variant()
        options = [(safe(variant.label), index) for index, variant in enumerate(self.spec.variants)]
        yield FormSelect[int](
            options,
            prompt="(not set)",
            allow_blank=not self.spec.required or chosen is None,
            value=Select.NULL if chosen is None else chosen,
            compact=True,
            classes="choice-select",
        )
        with Vertical(classes="choice-body"):
            if chosen is not None:
                yield build_field(self.spec.variants[chosen], self.initial, show_label=False)

    def _initial_variant(self) -> int | None:
        if self.initial is not MISSING:
            for index, variant in enumerate(self.spec.variants):
                if matches_kind(variant, self.initial):
                    return index
        return 0 if self.spec.required and self.spec.variants else None

    def read(self, path: Path, found: Collected) -> Any:
        body = self.query_one(".choice-body")
        current = body.query_children(FieldWidget)
        if not current:
            return MISSING
        return current.first().collect(path, found)

    async def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.parent is not self.query_one(".field-control"):
            return
        event.stop()
        body = self.query_one(".choice-body")
        await body.remove_children()
        if isinstance(event.value, int):
            await body.mount(build_field(self.spec.variants[event.value], show_label=False))
        self.show_error(None)


class FormView(Vertical):
    """A whole form for one spec: reads it, checks it and shows each error under its field. Enter in a text field
    moves to the next field; in the last field of a simple form (text, numbers, choices: nothing nested), it posts
    ``Submitted``, so a short form is sent without reaching for another key."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "form",
        Key("enter", "field_enter", "next field", "Next field; in the last field of a short form, send", show=False,
            priority=True),
    )  # fmt: skip

    class Submitted(Message):
        """Enter in the last field of a simple form: the dialog sends it (checked first, as with its own key)."""

        def __init__(self, hold: Hold | None) -> None:
            super().__init__()
            self.hold = hold
            """The keys typed after Enter, held until the dialog has sent (or shown what to fix)."""

    DEFAULT_CSS = """
    FormView { height: auto; }
    FormView > JsonField TextArea { min-height: 8; max-height: 24; }
    FormView > .form-error { color: $error; height: auto; display: none; }
    FormView.-invalid > .form-error { display: block; }
    """

    def __init__(
        self,
        spec: FieldSpec,
        check: Checker,
        *,
        initial: Any = MISSING,
        show_names: bool = True,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id, classes="form-view")
        self.spec = spec
        self.check = check
        self.initial = initial
        self.set_class(not show_names, HIDE_NAMES)

    def compose(self) -> ComposeResult:
        initial = {} if self.spec.kind == "json" and self.initial is MISSING else self.initial
        root = build_field(self.spec, initial, show_label=False)
        root.remove_class("-nested")
        yield root
        yield Static("", classes="form-error")

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The form's height, measured as if its container had no height of its own.

        Every height inside a form is ``auto`` or fixed (no ``fr``, no percentage), so the form's height depends on
        its width alone. Textual measures a container whose children are all ``auto`` against the height of the
        container around it, and keeps the result by that height: the dialog tries several heights as it lays out,
        and each one re-measured the whole form (for 200 fields, every field again at each).
        """
        return super().get_content_height(Size(container.width, 0), viewport, width)

    @property
    def root(self) -> FieldWidget:
        """The top field (an object, or the JSON editor)."""
        return self.query_children(FieldWidget).first()

    def collect(self) -> tuple[Any, Collected]:
        """The value as shown and what could not be read, without showing anything."""
        found = Collected()
        value = self.root.collect((), found)
        return value, found

    def validate(self) -> tuple[Any, dict[Path, str]]:
        """Read and check the form; show every error under its field; return the value and the errors."""
        value, found = self.collect()
        errors = dict(found.errors)
        if not errors:
            errors = self.check({} if value is MISSING else value)
        self.show_errors(errors, found.widgets)
        return value, errors

    def show_errors(self, errors: Mapping[Path, str], widgets: Mapping[Path, FieldWidget]) -> None:
        """Put each error under the deepest field on its path; clear the rest."""
        placed: dict[FieldWidget, str] = {}
        loose: list[str] = []
        for path, message in errors.items():
            target = _nearest(path, widgets)
            if target is None or (target is self.root and path and self.spec.kind != "json"):
                loose.append(f"{'/'.join(map(str, path)) or 'form'}: {message}")
            else:
                placed.setdefault(target, message)
        for widget in widgets.values():
            widget.show_error(placed.get(widget))
        first = next((widget for widget in widgets.values() if widget in placed), None)
        if first is not None:
            first.scroll_visible()
            focusable = [widget for widget in first.query("*") if widget.focusable]
            if focusable:
                focusable[0].focus()
        self.set_class(bool(loose), "-invalid")
        self.query_children(".form-error").first(Static).update(safe("\n".join(loose)))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "field_enter":
            focused = self.screen.focused
            return isinstance(focused, Input) and self in focused.ancestors
        return True

    def action_field_enter(self) -> None:
        """Enter in a text field, at once (a priority key: the keys typed next go to the field it moves to)."""
        fields = [widget for widget in self.query(FIELD_CONTROLS) if widget.focusable]
        if is_simple(self.spec) and fields and self.screen.focused is fields[-1]:
            self.post_message(self.Submitted(hold_keys(self.app)))
        else:
            self.screen.focus_next()

    def on_json_field_edited(self, event: JsonField.Edited) -> None:
        """Check a JSON field as it is typed: syntax first, then its part of the schema."""
        field = event.field
        found = Collected()
        value = field.collect((), found)
        if found.errors:
            field.show_error(found.errors[()])
            return
        if value is MISSING:
            field.show_error(None)
            return
        schema = self.spec.schema if field is self.root else sub_schema(self.spec.schema, field.spec.schema)
        errors = schema_errors(schema, value)
        first = next(iter(errors.items()), None)
        field.show_error(None if first is None else f"{'/'.join(map(str, first[0])) or 'value'}: {first[1]}")


def _nearest(path: Path, widgets: Mapping[Path, FieldWidget]) -> FieldWidget | None:
    for end in range(len(path), -1, -1):
        widget = widgets.get(path[:end])
        if widget is not None:
            return widget
    return None
