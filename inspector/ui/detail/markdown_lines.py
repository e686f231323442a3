"""Markdown from a server, rendered for the detail pane: Rich's Markdown renderer, laid out at the pane's width,
with nothing in it that can style, move, hide or link.

Server text is hostile, so the source is sanitized before it is parsed and every rendered piece again after (the
parser turns entities such as ``&#x202E;`` into the characters the first pass removed). Links are never hyperlinks:
a link reads ``text (url)``, its target spelled out (percent-encoded and in punycode, as the parser normalizes it,
so a look-alike host shows as one), and no style keeps a link or a click action (a terminal would let
``[docs](https://evil.example)`` pass for something else); ``javascript:`` and the like are no links at all, their
source shows. Raw HTML is not interpreted (it shows as the text it is: a comment hides nothing), an image is
``[image: alt] (address)`` where it stands, and a code block is its text (no highlighter theme painting a background
across the pane). The styles are attributes only (bold, italic, underline, dim), so they read the same in every
theme.

Rich's markdown module (and its parser) is imported on the first markdown shown, not when the app starts.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Final

from rich.style import Style
from rich.text import Text
from rich.theme import Theme

from inspector.ui.safe_text import clean

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.segment import Segment

THEME: Final = Theme(
    {
        "markdown.paragraph": "none",
        "markdown.text": "none",
        "markdown.em": "italic",
        "markdown.emph": "italic",
        "markdown.strong": "bold",
        "markdown.code": "bold",
        "markdown.code_block": "none",
        "markdown.block_quote": "italic",
        "markdown.list": "none",
        "markdown.item": "none",
        "markdown.item.bullet": "bold",
        "markdown.item.number": "bold",
        "markdown.hr": "dim",
        "markdown.h1.border": "none",
        "markdown.h1": "bold underline",
        "markdown.h2": "bold",
        "markdown.h3": "bold italic",
        "markdown.h4": "italic",
        "markdown.h5": "italic",
        "markdown.h6": "italic dim",
        "markdown.h7": "italic dim",
        "markdown.link": "underline",
        "markdown.link_url": "italic",
        "markdown.s": "strike",
        "markdown.table.border": "dim",
        "markdown.table.header": "bold",
        "markdown.kbd": "bold",
    }
)
"""Attributes only, no colours: the pane's theme gives the colours."""
LONGEST_ADDRESS: Final = 200
"""An image's address longer than this is cut (a ``data:`` URL can be megabytes)."""
SIGNS: Final = (
    re.compile(r"^#{1,6}[ \t]+\S", re.MULTILINE),  # a heading
    re.compile(r"^ {0,3}(```|~~~)", re.MULTILINE),  # a fenced code block
    re.compile(r"^ {0,3}([-*+]|\d{1,9}[.)])[ \t]+\S.*\n {0,3}([-*+]|\d{1,9}[.)])[ \t]+\S", re.MULTILINE),  # a list
    re.compile(r"^ {0,3}\|.*\|[ \t]*\n {0,3}\|?[ \t]*:?-{3,}", re.MULTILINE),  # a table
    re.compile(r"^ {0,3}>[ \t]+\S", re.MULTILINE),  # a quote
    re.compile(r"\*\*[^*\n]+\*\*|__[^_\n]+__"),  # strong
    re.compile(r"\[[^\]\n]+\]\([^)\s]+\)"),  # a link
    re.compile(r"`[^`\n]+`"),  # code
)
"""What makes a text block read as markdown (a text block has no mimeType; a resource's says so itself)."""
SNIFFED: Final = 20_000
"""How much of a text is looked at for ``SIGNS``."""


def looks_like_markdown(text: str) -> bool:
    """Whether ``text`` uses markdown (a heading, a list, a fence, a table, a quote, strong text, a link or code):
    plain text stays plain, as markdown would join its lines into one paragraph."""
    head = text[:SNIFFED]
    return any(sign.search(head) for sign in SIGNS)


class MarkdownLines:
    """Renders markdown source into the detail pane's lines at a width (see the module docstring)."""

    def __init__(self) -> None:
        self._consoles: dict[int, Console] = {}

    def render(self, source: str, width: int) -> list[Text]:
        """``source`` laid out at ``width`` columns: one ``Text`` a line, trailing blanks stripped, every piece
        sanitized and no style with a link."""
        from rich.markdown import Markdown  # (its parser and renderer load on the first markdown shown)

        markdown = _literal_markdown(Markdown, clean(source))
        console = self._console(width)
        rendered = console.render_lines(markdown, console.options.update(width=width, height=None), pad=False)
        return [self._line(segments) for segments in rendered]

    def _console(self, width: int) -> Console:
        from rich.console import Console

        console = self._consoles.get(width)
        if console is None:
            console = Console(
                file=io.StringIO(),
                width=width,
                theme=THEME,
                color_system="truecolor",
                force_terminal=True,
                markup=False,
                emoji=False,
                highlight=False,
                legacy_windows=False,
            )
            self._consoles = {width: console}  # (one width at a time: the pane's)
        return console

    @staticmethod
    def _line(segments: list[Segment]) -> Text:
        line = Text(end="", no_wrap=True)
        for segment in segments:
            if segment.control:
                continue
            line.append(clean(segment.text, keep_newlines=False), _attributes(segment.style))
        line.rstrip()
        return line


def _attributes(style: Style | None) -> Style | None:
    """The attributes of ``style`` and nothing else: no colour or background (the pane's theme gives those), no
    link, no click action (a link is spelled out, never followed)."""
    if style is None:
        return None
    return Style(bold=style.bold, dim=style.dim, italic=style.italic, underline=style.underline, strike=style.strike)


def _literal_markdown(markdown_class: type[Any], source: str) -> Any:
    """A Rich ``Markdown`` of ``source`` with HTML left as text, images and code blocks as their text, headings
    at the left edge and no hyperlinks (a subclass made once, on first use)."""
    global _LITERAL
    if _LITERAL is None:
        _LITERAL = _literal_class(markdown_class)
    return _LITERAL(source)


_LITERAL: Any = None


def _literal_class(markdown_class: type[Any]) -> Any:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from rich import markdown as rich_markdown

    class LeftHeading(rich_markdown.Heading):
        """A heading at the left edge (Rich centres the first level across the whole width)."""

        LEVEL_ALIGN: ClassVar[dict[str, Any]] = dict.fromkeys(("h1", "h2", "h3", "h4", "h5", "h6"), "default")

    class LiteralCode(rich_markdown.TextElement):
        """A code block as its text, each line after a bar: no highlighter, no theme's background."""

        style_name = "markdown.code_block"

        @classmethod
        def create(cls, markdown: Any, token: Any) -> LiteralCode:
            return cls()

        def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
            code = self.text.copy()
            code.rstrip()
            for line in code.split("\n", allow_blank=True):
                yield Text.assemble(("│ ", "dim"), line)

    class LiteralMarkdown(markdown_class):  # type: ignore[misc]
        """Rich's Markdown, as the module docstring says."""

        elements: ClassVar[dict[str, Any]] = {
            **markdown_class.elements,
            "heading_open": LeftHeading,
            "fence": LiteralCode,
            "code_block": LiteralCode,
        }

        def __init__(self, source: str) -> None:
            super().__init__("", justify="default", hyperlinks=False)
            self.markup = source
            # (Rich's parser interprets raw HTML, and drops what it does not know: a comment would hide its text)
            parser = MarkdownIt("commonmark", {"html": False}).enable("strikethrough").enable("table")
            self.parsed = parser.parse(source)

        def _flatten_tokens(self, tokens: Iterable[Token]) -> Iterable[Token]:
            """An image becomes the text ``[image: alt] (address)`` where it stands (Rich draws it apart, before
            the paragraph it is in, and would cut that line at the pane's edge)."""
            for token in super()._flatten_tokens(tokens):
                if token.type != "image":
                    yield token
                    continue
                address = str(token.attrs.get("src", ""))
                if len(address) > LONGEST_ADDRESS:
                    address = address[:LONGEST_ADDRESS] + "…"
                alt = "".join(child.content for child in token.children or ())
                yield Token("text", "", 0, content=f"[image: {alt}] ({address})")

    return LiteralMarkdown
