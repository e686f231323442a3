"""The catalog: tools, prompts, resources and resource templates, with titles, annotations and a search box; each
kind's heading says what a host hands a model of it, in estimated tokens (``protocol.catalog_weight``). A server that
declares the Skills extension (SEP-2640) gets a section of its own, ``Skills``: the entries of ``skills/list``, each
loaded (its SKILL.md fetched and verified) only when asked for, with ``v`` or enter."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final, Literal

from rich.text import Text
from textual import on
from textual.binding import BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, OptionList
from textual.widgets.option_list import Option

from inspector.protocol.catalog_weight import Weight, tokens_said, total, weighed, weights
from inspector.protocol.methods import CATALOG, CATALOG_KINDS, CatalogKind
from inspector.ui.key_hold import hold_keys
from inspector.ui.keys import Key, bindings
from inspector.ui.safe_text import one_line
from inspector.ui.widgets.query_box import SearchBox

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from textual.app import ComposeResult

    from inspector.ui.key_hold import Hold

ANNOTATIONS: Final = (
    ("readOnlyHint", "ro"),
    ("destructiveHint", "destr"),
    ("idempotentHint", "idem"),
    ("openWorldHint", "open"),
)
"""Annotation hint -> the short mark shown after the name when the hint is true."""
SKILLS: Final = "skills"
Section = CatalogKind | Literal["skills"]
"""A part of the catalog: a catalog kind, or the skills (an extension's entries, not a kind of the protocol)."""


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


def skill_name(entry: dict[str, Any]) -> str:
    """A skill's name: its frontmatter's ``name`` (the entry's uri when it has none)."""
    frontmatter = entry.get("frontmatter")
    name = frontmatter.get("name") if isinstance(frontmatter, dict) else None
    return name if isinstance(name, str) and name else str(entry.get("uri", "?"))


def skill_item(entry: dict[str, Any]) -> dict[str, Any]:
    """A skill entry as the search reads an item: its name, and its frontmatter's description."""
    frontmatter = entry.get("frontmatter")
    description = frontmatter.get("description") if isinstance(frontmatter, dict) else None
    return {"name": skill_name(entry), "description": description if isinstance(description, str) else ""}


def rank(item: dict[str, Any], kind: CatalogKind, query: str) -> int | None:
    """How well the search text matches the item, best first: 0 the name itself, 1 the start of the name, 2 in
    the name, 3 in the title, 4 in the description; None when it does not match. No text matches everything (0)."""
    wanted = query.strip().lower()
    if not wanted:
        return 0
    name = item_name(kind, item).lower()
    if name == wanted:
        return 0
    if name.startswith(wanted):
        return 1
    if wanted in name or wanted in str(item.get("name", "")).lower():
        return 2
    if wanted in str(item.get("title", "")).lower():
        return 3
    return 4 if wanted in str(item.get("description", "")).lower() else None


def ranked(items: list[dict[str, Any]], kind: CatalogKind, query: str) -> list[dict[str, Any]]:
    """The items that match ``query``, best match first (in the server's order among equals)."""
    scored = [
        (score, position, item) for position, item in enumerate(items) if (score := rank(item, kind, query)) is not None
    ]
    return [item for _, _, item in sorted(scored, key=lambda entry: (entry[0], entry[1]))]


class CatalogList(OptionList):
    """The list itself; ``enter`` calls the highlighted item."""

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "catalog",
        Key(
            "enter",
            "select",
            "call",
            "Call the highlighted tool or prompt, read the resource, or load the skill",
            priority=True,
        ),
        Key(
            "v",
            "load_skill",
            "load skill",
            "Load the highlighted skill: fetch its SKILL.md (resources/read), verify its size, digest and frontmatter "
            "against its entry, and show it, or why it is not used",
        ),
    )

    KEYS_WHERE: ClassVar[str] = "catalog"
    """What the help screen names as where these keys work."""

    pending: Hold | None = None
    """The keys held since enter chose an item, handed on with ``Catalog.Chosen``."""

    def action_select(self) -> None:
        # Enter asks for the composer (a dialog) most of the time: the keys typed until it has the focus are held
        # for it; the screen releases them once it has opened it, or sent the call at once (a resource).
        index = self.highlighted
        if index is not None and not self.get_option_at_index(index).disabled:
            self.pending = hold_keys(self.app)
        super().action_select()

    def action_load_skill(self) -> None:
        catalog = next((node for node in self.ancestors if isinstance(node, Catalog)), None)
        if catalog is not None:
            catalog.load_highlighted_skill()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "load_skill":  # (in the footer only while a skill is highlighted)
            option = self.highlighted_option
            return option is not None and (option.id or "").startswith(f"{SKILLS}:")
        return super().check_action(action, parameters)


class Catalog(Vertical):
    """Everything the server offers. Set ``items`` with ``set_items``; posts ``Chosen`` and ``Previewed``."""

    DEFAULT_CSS = """
    Catalog { width: 30; border: round $panel; background: $surface; }
    Catalog:focus-within { border: round $primary; }
    /* One line, focused or not: Input's own focus border would leave no room for the query. */
    Catalog Input, Catalog Input:focus { border: none; height: 1; padding: 0 1; background: $panel; }
    Catalog Input:focus { background: $primary-muted; }
    Catalog CatalogList, Catalog CatalogList:focus { border: none; height: 1fr; background: $surface; }
    """

    class Chosen(Message):
        """The user chose an item (enter or click)."""

        def __init__(self, kind: CatalogKind, item: dict[str, Any], hold: Hold | None = None) -> None:
            super().__init__()
            self.kind = kind
            """tools, prompts, resources or templates."""
            self.item = item
            """The item as the server listed it."""
            self.hold = hold
            """The keys held since enter chose it; released once its composer is open (or the call sent)."""

    class SkillShown(Message):
        """A skill was highlighted (``load`` False), or asked to be loaded (``v`` or enter: ``load`` True)."""

        def __init__(self, entry: dict[str, Any], *, load: bool) -> None:
            super().__init__()
            self.entry = entry
            """The skill's entry as the server listed it (``uri``, ``frontmatter``, ``resources``)."""
            self.load = load

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
        self.not_offered: set[CatalogKind] = set()
        """The kinds the server did not declare (never asked for: the heading says so)."""
        self.listed: set[CatalogKind] = set()
        """The kinds whose list came (a kind not listed yet says so, not "0": the TUI paints before it connects)."""
        self.weight: dict[CatalogKind, Weight] = {}
        """What a host hands a model of each kind's items, in all (the heading says its estimated tokens)."""
        self._item_weight: dict[CatalogKind, dict[int, Weight]] = {}
        """Each listed item's weight, by the item's id: a search's heading weighs only the items it shows."""
        self.skills: list[dict[str, Any]] | None = None
        """The skills' entries, as listed (None: the server did not declare the extension, and no section shows)."""
        self.query_text = ""
        self._by_option: dict[str, tuple[CatalogKind, dict[str, Any]]] = {}
        self._skill_by_option: dict[str, dict[str, Any]] = {}

    def compose(self) -> ComposeResult:
        yield SearchBox(placeholder="/ search", id="catalog-search")
        yield CatalogList(id="catalog-list")

    def on_mount(self) -> None:
        self.border_title = "Catalog"
        self._rebuild()

    async def fill(self, lists: AsyncIterator[tuple[Section, list[dict[str, Any]] | None]]) -> bool:
        """Show each list as it comes, then preview the highlighted item (not whatever call listed last); False
        when the catalog went away meanwhile (the app shutting down)."""
        async for kind, items in lists:
            if not self.is_attached or not self.is_mounted:
                return False
            self.set_items(kind, items)
        self.preview_highlighted()
        return True

    def set_items(self, kind: Section, items: list[dict[str, Any]] | None) -> None:
        """Replace the items of one kind (None: the server does not offer it; for the skills: no section)."""
        if kind == SKILLS:
            self.skills = items
            if self.is_mounted and self.query(CatalogList):
                self._rebuild()
            return
        self.items[kind] = items or []
        self.listed.add(kind)
        if weighed(kind):
            each = weights(kind, self.items[kind])
            self._item_weight[kind] = dict(zip(map(id, self.items[kind]), each, strict=True))
            self.weight[kind] = total(each)
        if items is None:
            self.not_offered.add(kind)
        else:
            self.not_offered.discard(kind)
        if self.is_mounted and self.query(CatalogList):  # (its list is gone while the app shuts down)
            self._rebuild()

    def focus_search(self) -> None:
        """Put the cursor in the search box."""
        self.query_one(Input).focus()

    @property
    def visible_names(self) -> list[str]:
        """Names of the items shown (for tests)."""
        return [item_name(kind, item) for kind, item in self._by_option.values()]

    @property
    def visible_skills(self) -> list[str]:
        """Names of the skills shown (for tests)."""
        return [skill_name(entry) for entry in self._skill_by_option.values()]

    def _rebuild(self) -> None:
        found = self.query(CatalogList)
        if not found:  # the app is closing (its children go first) while the catalog was still being listed
            return
        listing = found.first()
        highlighted = listing.highlighted_option.id if listing.highlighted_option is not None else None
        options: list[Option] = []
        self._by_option = {}
        for kind in CATALOG_KINDS:
            shown = ranked(self.items[kind], kind, self.query_text)
            heading = Text(f"{CATALOG[kind].label} {len(shown)}", style="bold")
            weight = self.weight.get(kind)
            if weight is not None and self.query_text:
                weight = total(self._item_weight[kind][id(item)] for item in shown)
            if weight is not None and weight.bytes and kind not in self.not_offered:
                heading.append(f" · {tokens_said(weight.tokens)} tokens", style="dim")  # (estimated: the preview says)
            if kind in self.not_offered:
                heading = Text.assemble((CATALOG[kind].label, "bold"), (" · not offered", "dim italic"))
            elif kind not in self.listed:
                heading = Text.assemble((CATALOG[kind].label, "bold"), (" · not listed", "dim italic"))
            options.append(Option(heading, id=f"head:{kind}", disabled=True))
            for position, item in enumerate(shown):
                option_id = f"{kind}:{position}"
                self._by_option[option_id] = (kind, item)
                options.append(Option(self._label(kind, item), id=option_id))
        options.extend(self._skill_options())
        listing.set_options(options)
        if highlighted in self._by_option or highlighted in self._skill_by_option:
            listing.highlighted = listing.get_option_index(highlighted)
        elif self._by_option or self._skill_by_option:
            listing.highlighted = listing.get_option_index(next(iter(self._by_option or self._skill_by_option)))

    def _skill_options(self) -> list[Option]:
        """The skills' section (none when the server did not declare the extension): each skill's name (its files are
        the detail's: nothing of a skill is read until it is loaded)."""
        self._skill_by_option = {}
        if self.skills is None:
            return []
        scored = [(score, at, e) for at, e in enumerate(self.skills) if (score := self._skill_rank(e)) is not None]
        shown = [entry for _, _, entry in sorted(scored, key=lambda found: (found[0], found[1]))]
        options = [Option(Text(f"Skills {len(shown)}", style="bold"), id=f"head:{SKILLS}", disabled=True)]
        for position, entry in enumerate(shown):
            option_id = f"{SKILLS}:{position}"
            self._skill_by_option[option_id] = entry
            options.append(Option(Text("  " + one_line(skill_name(entry), 200), end=""), id=option_id))
        return options

    def _skill_rank(self, entry: dict[str, Any]) -> int | None:
        return rank(skill_item(entry), "prompts", self.query_text)

    def _label(self, kind: CatalogKind, item: dict[str, Any]) -> Text:
        """The name (and its annotation marks), then the title on a line of its own, so a narrow catalog wraps
        between them, never in the middle of either."""
        label = Text("  ", end="")
        label.append(one_line(item_name(kind, item), 200))
        for mark in badges(item):
            label.append(f" [{mark}]", style="dim")
        title = item.get("title")
        if isinstance(title, str) and title and title != item.get("name"):
            label.append(f"\n    {one_line(title, 200)}", style="italic dim")
        return label

    @on(Input.Changed, "#catalog-search")
    def _search(self, event: Input.Changed) -> None:
        self.query_text = event.value
        self._rebuild()

    @on(Input.Submitted, "#catalog-search")
    @on(SearchBox.Left, "#catalog-search")
    def _search_done(self, event: Input.Submitted | SearchBox.Left) -> None:
        event.stop()  # the filter box's Left is the same message class: the screen must not take this one for it
        self.query_one(CatalogList).focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        listing = self.query_one(CatalogList)
        hold, listing.pending = listing.pending, None  # None: chosen with the mouse, nothing held
        found = self._by_option.get(event.option.id or "")
        skill = self._skill_by_option.get(event.option.id or "")
        if found is not None:
            self.post_message(self.Chosen(*found, hold))
            return
        if hold is not None:
            hold.release()  # (a skill opens no dialog: it is loaded at once)
        if skill is not None:
            self.post_message(self.SkillShown(skill, load=True))

    def load_highlighted_skill(self) -> None:
        """``v``: load the highlighted skill (nothing when the highlighted item is not a skill)."""
        skill = self.highlighted_skill()
        if skill is not None:
            self.post_message(self.SkillShown(skill, load=True))

    def highlighted_skill(self) -> dict[str, Any] | None:
        """The skill highlighted in the list (None: another item, or nothing)."""
        found = self.query(CatalogList)
        option = found.first().highlighted_option if found else None
        return self._skill_by_option.get(option.id or "") if option is not None else None

    def preview_highlighted(self) -> None:
        """Preview the highlighted item again, if the catalog has the focus (the listings made while connecting
        are calls too, and the newest of them may have taken the detail pane meanwhile)."""
        listing = self.query(CatalogList)
        index = listing.first().highlighted if listing else None
        if index is None or not self.has_focus_within:
            return
        option_id = listing.first().get_option_at_index(index).id or ""
        found = self._by_option.get(option_id)
        if found is not None:
            self.post_message(self.Previewed(*found))
        elif option_id in self._skill_by_option:
            self.post_message(self.SkillShown(self._skill_by_option[option_id], load=False))

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.query_one(CatalogList).refresh_bindings()  # (v shows in the footer on a skill only)
        found = self._by_option.get(event.option.id or "")
        skill = self._skill_by_option.get(event.option.id or "")
        if found is not None and self.has_focus_within:
            self.post_message(self.Previewed(*found))
        elif skill is not None and self.has_focus_within:
            self.post_message(self.SkillShown(skill, load=False))
