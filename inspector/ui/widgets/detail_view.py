"""The detail pane: a Line API view of a ``Document`` (the selected call or round), JSON highlighted per line.

Long lines wrap at the pane's edge (``w`` turns wrapping off, for JSON best read unbroken, and the pane scrolls
sideways instead); nothing is cut. Only visible lines are highlighted and rendered, so an unfolded 5 MB result
scrolls as fast as a small one: the wrap map costs one pass over the line lengths, made again only when the document
or the width changes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar, Final

from rich.cells import cell_len
from rich.segment import Segment
from rich.text import Text
from textual.binding import BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from inspector.ui.keys import Key, bindings
from inspector.ui.safe_text import clean
from inspector.ui.widgets.document import Document
from inspector.ui.widgets.wrapping import continuation_indent, wrap_points

if TYPE_CHECKING:
    from rich.style import Style

    from inspector.ui.widgets.document import LineKind

MAX_LINE: Final = 20_000
"""A longer line is shown up to here, then says how many characters it has more (press x for the raw text)."""
JSON_TOKEN: Final = re.compile(
    r'(?P<key>"(?:[^"\\]|\\.)*")(?=\s*:)|(?P<string>"(?:[^"\\]|\\.)*"?)|(?P<number>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)'
    r"|(?P<literal>\btrue\b|\bfalse\b|\bnull\b)|(?P<punctuation>[{}\[\],:])"
)
KINDS: Final = ("heading", "text", "dim", "error", "finding", "fold")
JSON_PARTS: Final = ("key", "string", "number", "literal", "punctuation")


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

    BINDINGS: ClassVar[list[BindingType]] = bindings(
        "detail",
        Key("x", "unfold", "unfold", "Show a folded (large) section in full"),
        Key("w", "toggle_wrap", "wrap", "Wrap long lines at the edge, or not (the pane then scrolls sideways)"),
    )

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
        self.rows: list[tuple[int, int, int]] = []
        """The visual lines: (document line, start, end) of each, in order."""
        self._styles: dict[str, Style] | None = None
        self._cache: LRUCache[tuple[int, int, int, int], Strip] = LRUCache(512)
        self._generation = 0
        self._laid_out_for = -1

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
        self._laid_out_for = width if self.wrap else -1
        lines = [line[:MAX_LINE] for _, line in self.document.lines]
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

    def on_resize(self) -> None:
        if self.wrap and self.scrollable_content_region.width != self._laid_out_for:
            self._layout()
            self.refresh()

    def action_toggle_wrap(self) -> None:
        self.wrap = not self.wrap
        self._layout()
        self.scroll_to(0, self.scroll_offset.y, animate=False, immediate=True)
        self.refresh()

    @property
    def plain_lines(self) -> list[str]:
        """The document's text, line by line (for tests)."""
        return [text for _, text in self.document.lines]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "unfold":
            return self.document.folded  # nothing folded: the key would do nothing
        return True

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
        kind, line = self.document.lines[line_index]
        more = len(line) - MAX_LINE
        text = self._line_text(kind, line[:MAX_LINE])[start:end]
        if start:
            text = Text(" " * continuation_indent(clean(line[:MAX_LINE]), width), end="").append_text(text)
        if more > 0 and end >= len(clean(line[:MAX_LINE])):
            text.append(f"… (+{more:,} characters)", self._style_map()["fold"])
        segments = Segment.apply_style(list(text.render(self.app.console)), base)
        strip = Strip(segments, text.cell_len).crop_extend(int(scroll_x), int(scroll_x) + width, base)
        self._cache[key] = strip
        return strip

    def _line_text(self, kind: LineKind, line: str) -> Text:
        styles = self._style_map()
        if kind == "json":
            return highlight_json(line, styles)
        return Text(clean(line), styles[kind], no_wrap=True, end="")
