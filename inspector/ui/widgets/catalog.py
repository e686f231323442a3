"""The catalog: tools, prompts, resources and resource templates, with titles, annotations and a search box."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from inspector.protocol.methods import CATALOG, CATALOG_KINDS, CatalogKind
from inspector.ui.safe_text import one_line

if TYPE_CHECKING:
    from textual.app import ComposeResult

ANNOTATIONS: Final = (
    ("readOnlyHint", "ro"),
    ("destructiveHint", "destr"),
    ("idempotentHint", "idem"),
    ("openWorldHint", "open"),
)
"""Annotation hint -> the short mark shown after the name when the hint is true."""


def item_name(kind: CatalogKind, item: dict[str, Any]) -> str:
    """The identifying name: ``name`` for tools and prompts, the URI (template) for resources."""
    if kind == "resources":
        return str(item.get("uri", item.get("name", "?")))
    if kind == "templates":
        return str(item.get("uriTemplate", item.get("name", "?")))
    return str(item.get("name", "?"))


def badges(item: dict[str, Any]) -> list[str]:
    """Short marks for a tool's annotations that are true (``ro``, ``destructive``, ...)."""
    annotations = item.get("annotations")
    if not isinstance(annotations, dict):
        return []
    return [mark for key, mark in ANNOTATIONS if annotations.get(key) is True]


def matches(item: dict[str, Any], kind: CatalogKind, query: str) -> bool:
    """Whether the search text occurs in the item's name, title or description."""
    if not query:
        return True
    haystack = " ".join(str(item.get(key, "")) for key in ("name", "title", "description", "uri", "uriTemplate"))
    return query.lower() in haystack.lower() or query.lower() in item_name(kind, item).lower()


class CatalogList(OptionList):
    """The list itself; ``enter`` calls the highlighted item."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "select",
            "call",
            id="catalog.call",
            tooltip="Call the highlighted tool or prompt, or read the resource",
        ),
    ]


class Catalog(Vertical):
    """Everything the server offers. Set ``items`` with ``set_items``; posts ``Chosen`` and ``Previewed``."""

    DEFAULT_CSS = """
    Catalog { width: 30; border: round $panel; background: $surface; }
    Catalog:focus-within { border: round $primary; }
    Catalog Input { border: none; height: 1; padding: 0 1; background: $panel; }
    Catalog CatalogList, Catalog CatalogList:focus { border: none; height: 1fr; background: $surface; }
    """

    class Chosen(Message):
        """The user chose an item (enter or click)."""

        def __init__(self, kind: CatalogKind, item: dict[str, Any]) -> None:
            super().__init__()
            self.kind = kind
            """tools, prompts, resources or templates."""
            self.item = item
            """The item as the server listed it."""

    class Previewed(Message):
        """An item was highlighted."""

        def __init__(self, kind: CatalogKind, item: dict[str, Any]) -> None:
            super().__init__()
            self.kind = kind
            """tools, prompts, resources or templates."""
            self.item = item
            """The item as the server listed it."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.items: dict[CatalogKind, list[dict[str, Any]]] = {kind: [] for kind in CATALOG_KINDS}
        """Items by kind, as listed."""
        self.query_text = ""
        self._by_option: dict[str, tuple[CatalogKind, dict[str, Any]]] = {}

    def compose(self) -> ComposeResult:
        yield Input(placeholder="/ search", id="catalog-search")
        yield CatalogList(id="catalog-list")

    def on_mount(self) -> None:
        self.border_title = "Catalog"
        self._rebuild()

    def set_items(self, kind: CatalogKind, items: list[dict[str, Any]]) -> None:
        """Replace the items of one kind."""
        self.items[kind] = items
        if self.is_mounted:
            self._rebuild()

    def focus_search(self) -> None:
        """Put the cursor in the search box."""
        self.query_one(Input).focus()

    @property
    def visible_names(self) -> list[str]:
        """Names of the items shown (for tests)."""
        return [item_name(kind, item) for kind, item in self._by_option.values()]

    def _rebuild(self) -> None:
        listing = self.query_one(CatalogList)
        highlighted = listing.highlighted_option.id if listing.highlighted_option is not None else None
        options: list[Option] = []
        self._by_option = {}
        for kind in CATALOG_KINDS:
            shown = [item for item in self.items[kind] if matches(item, kind, self.query_text)]
            options.append(
                Option(Text(f"{CATALOG[kind].label} {len(shown)}", style="bold"), id=f"head:{kind}", disabled=True)
            )
            for position, item in enumerate(shown):
                option_id = f"{kind}:{position}"
                self._by_option[option_id] = (kind, item)
                options.append(Option(self._label(kind, item), id=option_id))
        listing.set_options(options)
        if highlighted in self._by_option:
            listing.highlighted = listing.get_option_index(highlighted)
        elif self._by_option:
            listing.highlighted = listing.get_option_index(next(iter(self._by_option)))

    def _label(self, kind: CatalogKind, item: dict[str, Any]) -> Text:
        label = Text("  ", end="", no_wrap=True)
        label.append(one_line(item_name(kind, item), 60))
        title = item.get("title")
        if isinstance(title, str) and title and title != item.get("name"):
            label.append(f" · {one_line(title, 40)}", style="italic")
        for mark in badges(item):
            label.append(f" [{mark}]", style="dim")
        return label

    @on(Input.Changed, "#catalog-search")
    def _search(self, event: Input.Changed) -> None:
        self.query_text = event.value
        self._rebuild()

    @on(Input.Submitted, "#catalog-search")
    def _search_done(self) -> None:
        self.query_one(CatalogList).focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        found = self._by_option.get(event.option.id or "")
        if found is not None:
            self.post_message(self.Chosen(*found))

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        found = self._by_option.get(event.option.id or "")
        if found is not None and self.has_focus_within:
            self.post_message(self.Previewed(*found))
