"""The detail pane: a Line API view of a ``Document`` (the selected call or round), JSON highlighted per line.

Long lines wrap at the pane's edge (``w`` turns wrapping off, for JSON best read unbroken, and the pane scrolls
sideways instead); nothing is cut. Only visible lines are highlighted and rendered, so an unfolded 5 MB result
scrolls as fast as a small one: the wrap map costs one pass over the line lengths, made again only when the document
or the width changes. A markdown text is laid out at the pane's width when the map is made (``markdown_lines``,
cached by text and width).

A call's result is shown by content type; ``j`` switches to its raw JSON and back, ``m`` markdown to its source and
back (the pane keeps the choice, as it keeps ``w``, and asks the screen to build the document again), and ``1``-``9``
read the result's resource links (the screen sends the ``resources/read``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, Final

from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from inspector.ui.detail.content_blocks import LINK_KEYS, ResultView
from inspector.ui.detail.lines import Document
from inspector.ui.detail.markdown_lines import MarkdownLines
from inspector.ui.keys import Key, bindings
from inspector.ui.safe_text import clean
from inspector.ui.widgets.wrapping import continuation_indent, wrap_points

if TYPE_CHECKING:
    from rich.style import Style

    from inspector.ui.detail.lines import LineKind, Span

MAX_LINE: Final = 20_000
"""A longer line is shown up to here, then says how many characters it has more (press x for the raw text)."""
JSON_TOKEN: Final = re.compile(
    r'(?P<key>"(?:[^"\\]|\\.)*")(?=\s*:)|(?P<string>"(?:[^"\\]|\\.)*"?)|(?P<number>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)'
    r"|(?P<literal>\btrue\b|\bfalse\b|\bnull\b)|(?P<punctuation>[{}\[\],:])"
)
KINDS: Final = ("heading", "text", "dim", "error", "finding", "fold", "label")
JSON_PARTS: Final = ("key", "string", "number", "literal", "punctuation")
LINK_GROUP: Final = Binding.Group("read link")
"""The footer's one item for the link keys ("1 2 read link")."""
NARROWEST: Final = 20
"""Markdown is laid out at least this wide (a pane not laid out yet has no width)."""
RENDERED_KEPT: Final = 8
"""Markdown texts laid out and kept (by text and width), so a redraw of the same call lays out nothing again."""


def highlight_json(line: str, styles: dict[str, Style]) -> Text:
    """One line of pretty JSON with key/string/number/literal/punctuation styles (control characters made visible)."""
    text = Text(clean(line), no_wrap=True, end="")
    for match in JSON_TOKEN.finditer(text.plain):
        kind = match.lastgroup
        if kind is not None:
            text.stylize(styles[kind], match.start(), match.end())
    return text


class DetailView(ScrollView, can_focus=True):
    """Shows one Document; ``x`` unfolds large sections (the screen rebuilds the document unfolded)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *bindings(
            "detail",
            Key("x", "unfold", "unfold", "Show a folded (large) section in full"),
            Key("w", "toggle_wrap", "wrap", "Wrap long lines at the edge, or not (the pane then scrolls sideways)"),
            Key("j", "view_json(True)", "raw JSON", "Show the result as its raw JSON"),
            Key("j", "view_json(False)", "by type", "Show the result by content type: text, markdown, images, links"),
            Key("m", "view_markdown(True)", "md source", "Show each markdown text as its source"),
            Key("m", "view_markdown(False)", "md rendered", "Render each markdown text"),
        ),
        *(
            replace(binding, group=LINK_GROUP) if isinstance(binding, Binding) else binding
            for binding in bindings(
                "detail",
                *(
                    Key(str(n), f"read_link({n})", "read link", f"Read the result's resource link {n} (resources/read)")
                    for n in range(1, LINK_KEYS + 1)
                ),
            )
        ),
    ]

    KEYS_WHERE: ClassVar[str] = "detail pane"
    """What the help screen names as where these keys work."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"detail--{k}" for k in KINDS} | {f"json--{k}" for k in JSON_PARTS}

    DEFAULT_CSS = """
    DetailView { background: $surface; scrollbar-gutter: stable; }
    DetailView > .detail--heading { color: $primary; text-style: bold; }
    DetailView > .detail--text { color: $foreground; }
    DetailView > .detail--dim { color: $foreground-muted; }
    DetailView > .detail--error { color: $timeline-error; }
    DetailView > .detail--finding { color: $timeline-finding; }
    DetailView > .detail--fold { color: $accent; text-style: italic; }
    DetailView > .detail--label { color: $secondary; text-style: bold; }
    DetailView > .json--key { color: $json-key; }
    DetailView > .json--string { color: $json-string; }
    DetailView > .json--number { color: $json-number; }
    DetailView > .json--literal { color: $json-literal; }
    DetailView > .json--punctuation { color: $json-punctuation; }
    """

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.document = Document()
        self.unfolded = False
        """Whether the shown document was built unfolded (the screen reads it when rebuilding)."""
        self.wrap = True
        """Long lines wrap at the edge (``w``); off, the pane scrolls sideways."""
        self.view = ResultView()
        """A result by content type or as its raw JSON (``j``), markdown rendered or as its source (``m``)."""
        self.shown: list[tuple[LineKind, str, tuple[Span, ...] | None]] = []
        """The document's lines as laid out: its markdown rendered at the width, a styled line with its parts."""
        self.rows: list[tuple[int, int, int]] = []
        """The visual lines: (shown line, start, end) of each, in order."""
        self._styles: dict[str, Style] | None = None
        self._cache: LRUCache[tuple[int, int, int, int], Strip] = LRUCache(512)
        self._generation = 0
        self._laid_out_for = -1
        self._markdown = MarkdownLines()
        self._rendered: dict[tuple[str, int], list[tuple[LineKind, str, tuple[Span, ...] | None]]] = {}
        self._has_markdown = False

    def show(self, document: Document, *, keep_scroll: bool = False) -> None:
        """Replace the document."""
        self.document = document
        self._layout()
        if not keep_scroll:
            self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()
        self.refresh_bindings()

    def _layout(self) -> None:
        """The visual lines for the document at the pane's width (one per document line when not wrapping)."""
        self._generation += 1
        width = self.scrollable_content_region.width
        self._laid_out_for = width
        self.shown = self._lay_out_markdown(width)
        lines = [line[:MAX_LINE] for _, line, _ in self.shown]
        if not self.wrap or width <= 0:
            cleaned = [clean(line) for line in lines]
            self.rows = [(index, 0, len(line)) for index, line in enumerate(cleaned)]
            widest = max((cell_len(line) for line in cleaned), default=0)
            self.virtual_size = Size(widest + 1, len(self.rows))
            return
        rows: list[tuple[int, int, int]] = []
        for index, line in enumerate(lines):
            shown = clean(line)
            starts = wrap_points(shown, width)
            rows.extend((index, start, end) for start, end in zip(starts, [*starts[1:], len(shown)], strict=True))
        self.rows = rows
        self.virtual_size = Size(width, len(rows))

    def _lay_out_markdown(self, width: int) -> list[tuple[LineKind, str, tuple[Span, ...] | None]]:
        """The document's lines, each markdown entry rendered at ``width`` into lines of its own."""
        document = self.document
        self._has_markdown = "markdown" in document.views
        if not self._has_markdown:  # (the common case, and a 600,000-line JSON's: one comprehension)
            styled = document.styled.get
            return [(kind, line, styled(index)) for index, (kind, line) in enumerate(document.lines)]
        shown: list[tuple[LineKind, str, tuple[Span, ...] | None]] = []
        for index, (kind, line) in enumerate(document.lines):
            if kind == "markdown":
                shown.extend(self._rendered_markdown(line, width))
            else:
                shown.append((kind, line, document.styled.get(index)))
        return shown

    def _rendered_markdown(self, source: str, width: int) -> list[tuple[LineKind, str, tuple[Span, ...] | None]]:
        key = (source, max(width, NARROWEST))
        rendered = self._rendered.get(key)
        if rendered is None:
            rendered = [
                ("text", line.plain, tuple((span.start, span.end, span.style) for span in line.spans))
                for line in self._markdown.render(source, key[1])
            ]
            if len(self._rendered) >= RENDERED_KEPT:
                self._rendered.pop(next(iter(self._rendered)))
            self._rendered[key] = rendered
        return rendered

    def on_resize(self) -> None:
        width = self.scrollable_content_region.width
        if width != self._laid_out_for and (self.wrap or self._has_markdown):  # (laid out at the width, wrapped or not)
            self._layout()
            self.refresh()

    def action_toggle_wrap(self) -> None:
        self.wrap = not self.wrap
        self._layout()
        self.scroll_to(0, self.scroll_offset.y, animate=False, immediate=True)
        self.refresh()

    @property
    def plain_lines(self) -> list[str]:
        """The document's text as laid out, line by line (for tests): markdown rendered, lines unwrapped."""
        return [text for _, text, _ in self.shown]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        document = self.document
        if action == "unfold":
            return document.folded  # nothing folded: the key would do nothing
        # A view key shows only where it switches something, and only the way it switches (j: "raw JSON" on the
        # rendered result, "by type" on its JSON).
        if action == "view_json":
            return "json" in document.views and (not parameters or parameters[0] != self.view.raw_json)
        if action == "view_markdown":
            return "markdown" in document.views and (not parameters or parameters[0] != self.view.markdown_source)
        if action == "read_link":
            links = min(len(document.links), LINK_KEYS)
            return bool(links) and (not parameters or (isinstance(parameters[0], int) and parameters[0] <= links))
        return True

    def action_view_json(self, raw: bool) -> None:
        """``j``: the result as its raw JSON, or by content type."""
        self.view = replace(self.view, raw_json=raw)
        self.post_message(self.ViewChanged())

    def action_view_markdown(self, source: bool) -> None:
        """``m``: markdown texts as their source, or rendered."""
        self.view = replace(self.view, markdown_source=source)
        self.post_message(self.ViewChanged())

    def action_read_link(self, number: int) -> None:
        """``1``-``9``: read that resource link of the result."""
        if 1 <= number <= len(self.document.links):
            self.post_message(self.ReadRequested(self.document.links[number - 1]))

    class ViewChanged(Message):
        """``j`` or ``m`` changed how the result shows; the screen builds the document again with ``view``."""

    @dataclass
    class ReadRequested(Message):
        """A resource link's key was pressed: the screen reads ``uri`` (``resources/read``), as a call."""

        uri: str

    def action_unfold(self) -> None:
        if self.document.folded:
            self.unfolded = True
            self.post_message(self.UnfoldRequested())

    class UnfoldRequested(Message):
        """The user asked to see the folded sections in full; the screen rebuilds the document unfolded."""

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self._cache.clear()

    def _style_map(self) -> dict[str, Style]:
        if self._styles is None:
            styles = {k: self.get_component_rich_style(f"detail--{k}", partial=True) for k in KINDS}
            styles.update({k: self.get_component_rich_style(f"json--{k}", partial=True) for k in JSON_PARTS})
            self._styles = styles
        return self._styles

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = int(scroll_y) + y
        width = self.scrollable_content_region.width
        base = self.rich_style
        if not 0 <= index < len(self.rows):
            return Strip.blank(width, base)
        key = (index, int(scroll_x), self._generation, width)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        line_index, start, end = self.rows[index]
        kind, line, styled = self.shown[line_index]
        more = len(line) - MAX_LINE
        text = self._line_text(kind, line[:MAX_LINE], styled)[start:end]
        if start:
            text = Text(" " * continuation_indent(clean(line[:MAX_LINE]), width), end="").append_text(text)
        if more > 0 and end >= len(clean(line[:MAX_LINE])):
            text.append(f"… (+{more:,} characters)", self._style_map()["fold"])
        segments = Segment.apply_style(list(text.render(self.app.console)), base)
        strip = Strip(segments, text.cell_len).crop_extend(int(scroll_x), int(scroll_x) + width, base)
        self._cache[key] = strip
        return strip

    def _line_text(self, kind: LineKind, line: str, spans: tuple[Span, ...] | None) -> Text:
        styles = self._style_map()
        if kind == "json":
            return highlight_json(line, styles)
        text = Text(clean(line), no_wrap=True, end="")
        # The kind's style as a span over the whole line: ``Text.render`` draws a Text's own (base) style only
        # when it has spans, so a heading or an error given as the base style showed in the plain colour.
        text.stylize(styles.get(kind, ""))
        for start, end, name in spans or ():  # (its text is the line's, made visible already)
            style = styles.get(name) if isinstance(name, str) else name
            if style is not None:
                text.stylize(style, start, end)
        return text
