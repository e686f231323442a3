"""One widget per leaf ``FieldSpec`` kind: text, number, boolean, single choice, multi choice, JSON.

Each field shows its label (title, a ``*`` when required, a ``null`` toggle when nullable), its description,
its control and a per-field error line. ``collect`` reads the value exactly as shown (``MISSING`` when an optional
field is empty, so it is omitted, never sent as ``""``) and records what cannot be read (e.g. "must be a whole
number") against the field's path. Every piece of server text goes through ``safe_text``: never markup.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal

from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.validation import Integer
from textual.widgets import Checkbox, Input, Label, Select, SelectionList, Static, TextArea
from textual.widgets.selection_list import Selection

from inspector.protocol.form_values import parse_text, placeholder, typing_error, value_text
from inspector.protocol.schema_form import MISSING, FieldSpec, Path
from inspector.ui.safe_text import safe, safe_line
from inspector.ui.widgets.form_select import FormSelect

if TYPE_CHECKING:
    from textual.app import ComposeResult


HIDE_NAMES: Final = "-hide-names"
"""The class of a form (``FormView``) whose fields show no property names, only titles."""


@dataclass
class Collected:
    """What one read of a form found: the widget at each path and the errors that stop a submit."""

    widgets: dict[Path, FieldWidget] = field(default_factory=dict)
    errors: dict[Path, str] = field(default_factory=dict)


class FieldWidget(Vertical):
    """The frame every field shares; subclasses supply ``compose_control`` and ``read``."""

    DEFAULT_CSS = """
    FieldWidget { height: auto; margin: 0 0 1 0; }
    FieldWidget.-unlabelled { margin: 0; }
    FieldWidget .field-label-row { height: 1; width: 1fr; }
    FieldWidget .field-label-row > Label { width: auto; margin-right: 1; }
    FieldWidget .field-title { text-style: bold; }
    FieldWidget .field-required { color: $error; text-style: bold; }
    FieldWidget .field-name { color: $text-muted; }
    FieldWidget .field-description, FieldWidget .field-reason { color: $text-muted; height: auto; }
    FieldWidget .field-error { color: $error; height: auto; display: none; }
    FieldWidget.-invalid > .field-error { display: block; }
    FieldWidget .field-control { height: auto; }
    FieldWidget .field-null { width: auto; height: 1; }
    FieldWidget Input, FieldWidget SelectCurrent { background: $panel; }
    """

    GROUP: ClassVar[bool] = False
    """A field whose code looks its ``.field-control`` box up (array, choice): the box is always there."""

    def __init__(self, spec: FieldSpec, initial: Any = MISSING, *, show_label: bool = True) -> None:
        unlabelled = "" if show_label else " -unlabelled"
        super().__init__(classes=f"field field-{spec.kind}{unlabelled}")
        self.spec = spec
        self.initial: Any = spec.default if initial is MISSING else initial
        self.show_label = show_label

    # Every widget a field holds is styled, laid out at least twice and given a task of its own as its dialog
    # opens, and every level of nesting makes each widget below it dearer to style: a form of 200 fields took
    # seconds to open at seven widgets a field, nine levels deep. So a field holds only the widgets that show
    # something or do something: a label row only when it has more than one widget in it, a ``.field-control`` box
    # only when one is needed (``boxes_control``), no property name where the form hides them, and its error line
    # once there is an error (``show_error``). Laid out, each looks exactly as the boxed version did.
    def compose(self) -> ComposeResult:
        if self.show_label:
            row = list(self.compose_label())
            if len(row) == 1:
                yield row[0]
            else:
                with Horizontal(classes="field-label-row"):
                    yield from row
        elif self.spec.nullable:
            with Horizontal(classes="field-label-row"):
                yield Checkbox("null", self.is_null_initially, compact=True, classes="field-null")
        if self.spec.description and self.show_label:
            yield Static(safe(self.spec.description), classes="field-description")
        if self.boxes_control():
            with Vertical(classes="field-control", disabled=self.is_null_initially):
                yield from self.compose_control()
        else:
            yield from self.compose_control()

    def compose_label(self) -> ComposeResult:
        """Title, required mark, property name (when the title hides it) and the ``null`` toggle."""
        yield Label(safe_line(self.spec.label), classes="field-title")
        yield from self.compose_marks()

    def compose_marks(self) -> ComposeResult:
        """The required mark, the property name and the ``null`` toggle."""
        if self.spec.required:
            yield Label("*", classes="field-required")
        if self.spec.name and self.spec.title and self.spec.title != self.spec.name and self.names_shown:
            yield Label(safe_line(self.spec.name), classes="field-name")
        if self.spec.nullable:
            yield Checkbox("null", self.is_null_initially, compact=True, classes="field-null")

    def compose_control(self) -> ComposeResult:
        """The input widget(s) for the value."""
        raise NotImplementedError

    def boxes_control(self) -> bool:
        """Whether the control sits in a ``.field-control`` box: when it can be switched off (``null``), or when the
        field's code looks the box up (``GROUP``)."""
        return self.GROUP or self.spec.nullable

    @property
    def names_shown(self) -> bool:
        """Whether the form shows property names (it is not inside a form marked ``HIDE_NAMES``)."""
        return not any(node.has_class(HIDE_NAMES) for node in self.ancestors)

    @property
    def is_null_initially(self) -> bool:
        """A nullable field whose initial value is ``null`` starts with its control switched off."""
        return self.spec.nullable and self.initial is None

    @property
    def is_null(self) -> bool:
        """The ``null`` toggle is on: the value is ``null`` whatever the control shows."""
        if not self.spec.nullable:
            return False
        for row in self.query_children(".field-label-row"):
            for box in row.query_children(Checkbox):
                if box.has_class("field-null"):
                    return box.value
        return False

    def read(self, path: Path, found: Collected) -> Any:
        """The value shown (``MISSING`` when empty); raises ``ValueError`` when it cannot be read."""
        raise NotImplementedError

    def collect(self, path: Path, found: Collected) -> Any:
        """Register this field at ``path`` and read its value, recording an unreadable value as an error."""
        found.widgets[path] = self
        if self.is_null:
            return None
        try:
            return self.read(path, found)
        except ValueError as error:
            found.errors[path] = str(error)
            return MISSING

    def show_error(self, message: str | None) -> None:
        """Show ``message`` under the field, or clear it. The error line (``.field-error``, last in the field) is
        mounted the first time the field has an error to show, then kept: most fields never have one."""
        self.set_class(bool(message), "-invalid")
        line = self.query_children(".field-error")
        if line:
            line.first(Static).update(safe(message or ""))
        elif message:
            self.mount(Static(safe(message), classes="field-error"))

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if event.checkbox.has_class("field-null"):
            event.stop()
            self.query_children(".field-control").first().disabled = event.value
            self.show_error(None)

    def empty(self) -> Any:
        """The value of an empty container: ``{}``/``[]`` when required, else ``MISSING`` (omitted)."""
        return MISSING


class FieldInput(Input):
    """A field's ``Input``: restyled only once it is in the DOM, and saying what it refused.

    Textual restyles a widget whenever one of its classes changes, even before it is mounted, and an ``Input`` sets
    a class in its constructor (``compact``): a restyle of the input and of its four component classes that is
    thrown away, since every widget is styled when it is mounted. A form of 200 fields paid for 200 of them.

    A number box drops what cannot become a number (a letter, a second ``.``) with only the terminal's bell, which
    many terminals silence: the letters typed were lost without a word. It posts ``Refused`` with what was typed,
    and its field says why under it.
    """

    class Refused(Message):
        """The box did not take ``typed`` (it would not be a number any more)."""

        def __init__(self, typed: str) -> None:
            super().__init__()
            self.typed = typed

    _typed = ""
    """What the last edit tried to put in (a key's character, a paste)."""

    def update_node_styles(self, animate: bool = True) -> None:
        if self.parent is not None:
            super().update_node_styles(animate)

    def replace(self, text: str, start: int, end: int) -> None:
        self._typed = text  # (``restricted`` is told nothing of what it refused)
        super().replace(text, start, end)

    def restricted(self) -> None:
        super().restricted()
        self.post_message(self.Refused(self._typed))


def refused_typing(spec: FieldSpec, typed: str) -> str:
    """Why a number field did not take what was typed (a letter, a second ``.``): said at once, under the field,
    since the box only keeps what can still become a number and a key it drops would otherwise be lost silently."""
    shown = json.dumps(typed if len(typed) <= 20 else typed[:20] + "…", ensure_ascii=False)  # (a paste: its start)
    kind = "whole numbers only" if spec.kind == "integer" else "numbers only"
    return f"{kind}: {shown} was not typed"


class TextField(FieldWidget):
    """A string, number or integer in one ``Input`` (numbers restricted to numeric characters as typed).

    An integer field takes what a number field takes: Textual's integer box drops a typed ``.``, so ``3.5`` became
    ``35`` without a word. It keeps ``3.5`` and says at once that it is not an integer (``typing_error``); a key
    neither box takes (a letter) is said under the field too (``FieldInput.Refused``), until the next edit.
    """

    def compose_control(self) -> ComposeResult:
        numeric = self.spec.kind in ("number", "integer")
        kind: Literal["number", "text"] = "number" if numeric else "text"
        yield FieldInput(
            value_text(self.initial if self.initial is not None else MISSING),
            placeholder=placeholder(self.spec),
            type=kind,
            validators=[Integer()] if self.spec.kind == "integer" else None,
            compact=True,
            select_on_focus=False,
        )

    def read(self, path: Path, found: Collected) -> Any:
        return parse_text(self.spec, self.query_one(Input).value)

    def on_input_changed(self, event: Input.Changed) -> None:
        self.show_error(typing_error(self.spec, event.value))

    def on_field_input_refused(self, event: FieldInput.Refused) -> None:
        event.stop()
        self.show_error(refused_typing(self.spec, event.typed))


class BooleanField(FieldWidget):
    """A checkbox; an optional boolean with no default is a three-way choice so "not set" can be shown."""

    @property
    def tri_state(self) -> bool:
        """Optional with no default: unset, true or false."""
        return not self.spec.required and self.initial is MISSING

    def compose_label(self) -> ComposeResult:
        if self.tri_state:
            yield from super().compose_label()
        else:
            yield Checkbox(safe_line(self.spec.label), self.initial is True, compact=True, classes="field-bool")
            yield from self.compose_marks()

    def compose_control(self) -> ComposeResult:
        if self.tri_state:
            yield FormSelect[bool]([("true", True), ("false", False)], prompt="(not set)", compact=True)
        elif not self.show_label:
            yield Checkbox("", self.initial is True, compact=True, classes="field-bool")

    def read(self, path: Path, found: Collected) -> Any:
        if self.tri_state:
            value = self.query_one(Select).value
            return value if isinstance(value, bool) else MISSING
        return self.query_one(".field-bool", Checkbox).value


class EnumField(FieldWidget):
    """Pick one option (``enum``, titled ``oneOf``, legacy ``enumNames``, ``const``)."""

    def compose_control(self) -> ComposeResult:
        options = [(safe_line(option.label), index) for index, option in enumerate(self.spec.options)]
        chosen = next((i for i, option in enumerate(self.spec.options) if option.value == self.initial), None)
        has_initial = chosen is not None and self.initial is not MISSING
        yield FormSelect[int](
            options,
            prompt="(not set)" if not self.spec.required else "(choose one)",
            allow_blank=not (self.spec.required and has_initial),
            value=chosen if has_initial and chosen is not None else Select.NULL,
            compact=True,
        )

    def read(self, path: Path, found: Collected) -> Any:
        index = self.query_one(Select).value
        return self.spec.options[index].value if isinstance(index, int) else MISSING

    def on_select_changed(self, event: Select.Changed) -> None:
        self.show_error(None)


class MultiField(FieldWidget):
    """Pick several options (arrays of ``items.enum`` or ``items.anyOf`` consts)."""

    # Compact: no border, focused or not (the focus shows in the highlighted option). A border that came with the
    # focus made the list two lines taller as Tab reached it, after the form had scrolled it into view: its last
    # options were left below the form's edge.
    DEFAULT_CSS = "MultiField SelectionList { height: auto; max-height: 8; }"

    def compose_control(self) -> ComposeResult:
        chosen = self.initial if isinstance(self.initial, list) else []
        yield SelectionList[int](
            *(
                Selection(safe_line(option.label), index, option.value in chosen)
                for index, option in enumerate(self.spec.options)
            ),
            compact=True,
        )

    def read(self, path: Path, found: Collected) -> Any:
        picked = set(self.query_one(SelectionList).selected)
        values = [option.value for index, option in enumerate(self.spec.options) if index in picked]
        return values if values or self.spec.required else MISSING

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[int]) -> None:
        self.show_error(None)


class JsonField(FieldWidget):
    """A JSON editor for what the form cannot express; says why, and is checked as you type."""

    DEFAULT_CSS = "JsonField TextArea { height: auto; min-height: 4; max-height: 16; }"

    class Edited(Message):
        """The JSON text of a field changed; the form checks it against the field's schema."""

        def __init__(self, field: JsonField) -> None:
            super().__init__()
            self.field = field
            """The JSON field that changed."""

    def compose_control(self) -> ComposeResult:
        if self.spec.reason:
            yield Static(safe(f"JSON: {self.spec.reason}"), classes="field-reason")
        text = "" if self.initial is MISSING else json.dumps(self.initial, indent=2, ensure_ascii=False)
        # Tab goes to the next field, as everywhere in a form ("tab next field"): an editor that took it for
        # indentation kept the person from the buttons below it.
        yield TextArea(text, soft_wrap=True, tab_behavior="focus", show_line_numbers=False)

    def read(self, path: Path, found: Collected) -> Any:
        text = self.query_one(TextArea).text
        if not text.strip():
            return MISSING
        try:
            return json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self.post_message(self.Edited(self))


LEAF_WIDGETS: dict[str, type[FieldWidget]] = {
    "string": TextField,
    "number": TextField,
    "integer": TextField,
    "boolean": BooleanField,
    "enum": EnumField,
    "multi": MultiField,
    "json": JsonField,
}
"""The widget class for each leaf kind; ``object``, ``array`` and ``choice`` are in ``form_groups``."""
