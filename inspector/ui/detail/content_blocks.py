"""A call's result shown as what it is, in the detail pane's ``Document``: text as text, markdown rendered (``m``:
its source), images, audio and blobs as labelled blocks (type, size, an image's pixel dimensions), resource links
as items read with one key (``1``-``9``), embedded resources unfolded, ``structuredContent`` as a tree or a table
beside the tool's ``outputSchema``. ``j`` shows the raw JSON instead. Pure: Document lines, no widget.

Why lines and not widgets: the detail pane is one Line API view that draws only the lines on screen, so a 5 MB
result scrolls as fast as a small one; every block here is a few lines, and a long text or tree stops at the
pane's fold (``x`` unfolds) like the JSON does. Server text is never interpreted: each line is built as plain text
(sanitized by the pane, or here for styled lines), markdown goes through ``markdown_lines``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from inspector.protocol.media import media_facts
from inspector.protocol.sanitize import one_line
from inspector.ui.detail.lines import LineBudget, size_text
from inspector.ui.detail.markdown_lines import looks_like_markdown
from inspector.ui.detail.structured_tree import StructuredTree

if TYPE_CHECKING:
    from inspector.timeline.model import Timeline
    from inspector.ui.detail.lines import Document

MARKDOWN_FOLDED: Final = 16_000
"""Folded, a markdown text is rendered up to here (a paragraph's end near it): Rich lays out about 100 kB a second,
and the pane is laid out again on each highlight and resize."""
MARKDOWN_MOST: Final = 128_000
"""Unfolded, a longer markdown text is shown as its text (rendering it would hold the screen for seconds)."""
BIG: Final = 64_000
"""A result this large on the wire is named in its structured content's fold line ("of 5.6 MB")."""
LINK_KEYS: Final = 9
"""Resource links read with a key each: 1 to 9."""
RENDERED: Final = frozenset({"tools/call", "prompts/get", "resources/read"})
"""The methods whose results hold content blocks (or resource contents)."""


@dataclass(frozen=True, slots=True)
class ResultView:
    """How the detail pane shows a result: rendered by content type, or its raw JSON (``j``); markdown rendered,
    or its source (``m``). The pane holds it; the document is built again when it changes."""

    raw_json: bool = False
    markdown_source: bool = False


def listed_tool(timeline: Timeline, name: str) -> dict[str, Any] | None:
    """The tool ``name`` as the newest ``tools/list`` of the session listed it, every page (None: not listed)."""
    for call in reversed(timeline.calls):
        if call.method != "tools/list":
            continue
        for round_ in call.rounds:
            tools = (round_.result or {}).get("tools")
            for tool in tools if isinstance(tools, list) else []:
                if isinstance(tool, dict) and tool.get("name") == name:
                    return tool
    return None


class ContentBlocks:
    """Writes content blocks into a Document, each under a label naming its type (see the module docstring)."""

    def __init__(self, doc: Document, view: ResultView, budget: LineBudget) -> None:
        self.doc = doc
        self.view = view
        self.budget = budget
        self.labels = 0
        """Blocks labelled so far."""

    def blocks(self, blocks: list[Any]) -> None:
        """Every block, in order, until the budget is spent."""
        for block in blocks:
            if self.budget.spent:
                return
            self.block(block)

    def block(self, block: Any) -> None:
        """One content block, by its ``type``."""
        if not isinstance(block, dict):
            self._label(f"not a content block: {type(block).__name__}", "error")
            self._json(block)
            return
        kind = block.get("type")
        if kind == "text":
            self._label("text" + self._markdown_word(block.get("text"), None))
            self._text(block.get("text"), None)
        elif kind in ("image", "audio"):
            self._media(str(kind), block.get("data"), block.get("mimeType"))
        elif kind == "resource_link":
            self._link(block)
        elif kind == "resource":
            resource = block.get("resource")
            self.resource(resource if isinstance(resource, dict) else {}, "embedded resource")
        else:
            self._label(f"{one_line(str(kind), 60)} (a content type this inspector does not draw: its JSON)")
            self._json(block)
        self._annotations(block)

    def resource(self, resource: dict[str, Any], what: str) -> None:
        """A resource's contents (embedded in a result, or read): its text, or its blob as a labelled block."""
        uri = one_line(str(resource.get("uri", "")), None)
        mime = resource.get("mimeType")
        said = f" · {one_line(mime, 80)}" if isinstance(mime, str) else ""
        if "text" in resource:
            text = resource.get("text")
            self._label(f"{what} · {uri}{said}{self._markdown_word(text, mime)}")
            self._text(text, mime)
        elif "blob" in resource:
            self._media(what, resource.get("blob"), mime, uri)
        else:
            self._label(f"{what} · {uri}{said}")
            self._add("error", "neither text nor blob")

    def _markdown_word(self, text: Any, mime: Any) -> str:
        if not isinstance(text, str) or not self._is_markdown(text, mime):
            return ""
        return " · markdown source (m renders it)" if self.view.markdown_source else " · markdown (m shows the source)"

    @staticmethod
    def _is_markdown(text: str, mime: Any) -> bool:
        if isinstance(mime, str):
            return mime.split(";")[0].strip().lower() in ("text/markdown", "text/x-markdown")
        return looks_like_markdown(text)

    def _label(self, text: str, kind: str = "label") -> None:
        """A block's label; after a block, a blank line first."""
        if self.labels and self.budget.take():
            self.doc.lines.append(("text", ""))
        self.labels += 1
        if self.budget.take():
            self.doc.lines.append(("label" if kind == "label" else "error", f"▍{text}"))

    def _add(self, kind: Any, text: str) -> None:
        if self.budget.take():
            self.doc.lines.append((kind, text))

    def _text(self, text: Any, mime: Any) -> None:
        """A text as text (its lines, never a JSON string), or rendered as markdown."""
        if not isinstance(text, str):
            self._add("error", f"the text is not a string: {one_line(repr(text), 80)}")
            return
        lines = text.replace("\r\n", "\n").split("\n")
        markdown = self._is_markdown(text, mime)
        if markdown:
            self.doc.views.add("markdown")
        if markdown and not self.view.markdown_source:
            if self.budget.room() is not None or len(text) <= MARKDOWN_MOST:
                self._markdown(text, lines)
                return
            self._add("dim", f"(markdown of {len(text):,} characters, too long to lay out: its text)")
        room = self.budget.room()
        shown = lines if room is None else lines[:room]
        self.doc.lines.extend(("text", line) for line in shown)
        if room is not None:
            self.budget.left -= len(shown)
            if len(shown) < len(lines):
                self.budget.stop(f" after {len(shown)} of {len(lines):,} lines")

    def _markdown(self, text: str, lines: list[str]) -> None:
        """Markdown laid out by the pane at its width; folded, up to ``MARKDOWN_FOLDED`` and the section's lines
        (cut at a blank line near there, so a paragraph is not split)."""
        room = self.budget.room()
        if room is None:
            self.doc.markdown(text)
            return
        kept, size = 0, 0
        for line in lines[:room]:
            if size + len(line) > MARKDOWN_FOLDED:
                break
            kept, size = kept + 1, size + len(line) + 1
        if kept < len(lines):
            blank = max((at for at in range(kept) if not lines[at].strip()), default=0)
            kept = blank if blank > kept // 2 else kept
        self.doc.markdown("\n".join(lines[:kept]) if kept < len(lines) else text)
        self.budget.left -= kept
        if kept < len(lines):
            self.budget.stop(f" after {kept} of {len(lines):,} lines")

    def _media(self, what: str, data: Any, mime: Any, uri: str = "") -> None:
        """An image, audio or blob: its type, decoded size and (an image) pixel dimensions; the data stays in the
        raw JSON (``j``): no inline pictures (see the README)."""
        mime_type = mime if isinstance(mime, str) else ""
        words = [what] + ([uri] if uri else []) + [one_line(mime_type, 80) if mime_type else "no mimeType"]
        if not isinstance(data, str):
            self._label(" · ".join(words))
            self._add("error", "no base64 data")
            return
        facts = media_facts(data, mime_type)
        if facts.size is not None:
            words.append(size_text(facts.size))
        if facts.width is not None and facts.height is not None:
            words.append(f"{facts.width}×{facts.height} px")
        self._label(" · ".join(words))
        if facts.problem is not None:
            self._add("error", f"✗ {facts.problem}")
        self._add("dim", f"{len(data):,} characters of base64 · j shows them")

    def _link(self, block: dict[str, Any]) -> None:
        """A resource link: its address, what it says it is, and the key that reads it."""
        uri = block.get("uri")
        if not isinstance(uri, str) or not uri:
            self._label("resource link", "error")
            self._add("error", "no uri")
            return
        self.doc.links.append(uri)
        number = len(self.doc.links)
        key = f" · {number} reads it" if number <= LINK_KEYS else " · (past the 9 keys: read it from the catalog)"
        self._label(f"resource link{key}")
        self._add("text", one_line(uri, None))
        name = block.get("title") or block.get("name")
        words = [one_line(str(name), 120)] if name else []
        if isinstance(block.get("mimeType"), str):
            words.append(one_line(block["mimeType"], 80))
        if isinstance(block.get("size"), int) and not isinstance(block.get("size"), bool):
            words.append(size_text(block["size"]))
        if words:
            self._add("dim", " · ".join(words))
        if isinstance(block.get("description"), str):
            self._add("dim", one_line(block["description"], 300))

    def _annotations(self, block: dict[str, Any]) -> None:
        notes = block.get("annotations")
        if isinstance(notes, dict) and notes:
            said = " · ".join(f"{one_line(str(k), 40)} {one_line(_plain(v), 80)}" for k, v in notes.items())
            self._add("dim", f"annotations: {said}")

    def _json(self, value: Any) -> None:
        room = self.budget.room()
        before = len(self.doc.lines)
        self.doc.json(value, unfold=room is None)
        if room is not None:
            added = len(self.doc.lines) - before
            if added > room:
                del self.doc.lines[before + room :]
                self.budget.left = 0
                self.budget.stop()
            else:
                self.budget.left -= added


class ResultDocument:
    """A call's result by content type (or its raw JSON, ``j``), under the result heading: what each method's
    result holds, in the order a person reads it."""

    def __init__(self, doc: Document, view: ResultView, *, unfold: bool) -> None:
        self.doc = doc
        self.view = view
        self.unfold = unfold
        self.raw_size = 0
        """The result's size on the wire (a large one's fold line names it)."""

    def write(
        self, method: str, result: dict[str, Any], title: str, *, raw_size: int, tool: dict[str, Any] | None
    ) -> bool:
        """The result under ``title``; False when it is no result this renders (the caller shows its JSON)."""
        if not self._renders(method, result):
            return False
        self.raw_size = raw_size
        doc = self.doc
        doc.views.add("json")
        if self.view.raw_json:
            doc.heading(f"{title} (raw JSON)")
            doc.add("dim", "keys here: j shows it by content type")
            doc.json(result, unfold=self.unfold, raw_size=raw_size)
            return True
        doc.heading(f"{title} (by content type)")
        hint = len(doc.lines)
        doc.add("dim", "")
        if method == "tools/call":
            self._tool_result(result, tool)
        elif method == "prompts/get":
            self._prompt(result)
        else:
            self._contents(result)
        doc.lines[hint] = ("dim", self._hint())
        return True

    @staticmethod
    def _renders(method: str, result: dict[str, Any]) -> bool:
        field = {"tools/call": "content", "prompts/get": "messages", "resources/read": "contents"}.get(method)
        return method in RENDERED and field is not None and isinstance(result.get(field), list)

    def _hint(self) -> str:
        keys = ["j raw JSON"]
        if "markdown" in self.doc.views:
            keys.append("m markdown source" if not self.view.markdown_source else "m markdown rendered")
        links = min(len(self.doc.links), LINK_KEYS)
        if links:
            keys.append("1 reads the link" if links == 1 else f"1-{links} read the links")
        return "keys here: " + " · ".join(keys)

    def _tool_result(self, result: dict[str, Any], tool: dict[str, Any] | None) -> None:
        doc = self.doc
        if result.get("isError") is True:
            doc.add("error", "✗ the tool reports an error (isError: true)")
        content = result["content"]
        if not content:
            doc.add("dim", "no content blocks")
        ContentBlocks(doc, self.view, LineBudget(doc, unfold=self.unfold)).blocks(content)
        schema = tool.get("outputSchema") if tool is not None else None
        # (the outputSchema describes what a tool returns when it works: an error result is not held to it)
        error = result.get("isError") is True
        checked = schema if isinstance(schema, dict) and not error else None
        if "structuredContent" in result:
            doc.add("text", "")
            word = ERROR_NOT_CHECKED if error and isinstance(schema, dict) else _schema_word(tool, schema)
            doc.add("label", "▍structuredContent" + word)
            budget = LineBudget(doc, unfold=self.unfold, of=size_text(self.raw_size) if self.raw_size >= BIG else "")
            StructuredTree(doc, budget, checked).write(result["structuredContent"])
        elif checked is not None:
            doc.add("text", "")
            doc.add("error", "✗ the tool declares an outputSchema, and the result has no structuredContent")
        self._others(result, ("content", "structuredContent", "isError"))

    def _prompt(self, result: dict[str, Any]) -> None:
        doc = self.doc
        if isinstance(result.get("description"), str):
            doc.add("text", result["description"])
        budget = LineBudget(doc, unfold=self.unfold)
        blocks = ContentBlocks(doc, self.view, budget)
        for message in result["messages"]:
            if budget.spent:
                break
            if not isinstance(message, dict):
                blocks.block(message)
                continue
            role = one_line(str(message.get("role", "?")), 40)
            if blocks.labels and budget.take():
                doc.add("text", "")
            blocks.labels = 0  # (the role heads the message: its block's label follows it at once)
            if budget.take():
                doc.add("heading", f"  {role}")
            blocks.block(message.get("content"))
        self._others(result, ("messages", "description"))

    def _contents(self, result: dict[str, Any]) -> None:
        budget = LineBudget(self.doc, unfold=self.unfold)
        blocks = ContentBlocks(self.doc, self.view, budget)
        for contents in result["contents"]:
            if budget.spent:
                break
            blocks.resource(contents if isinstance(contents, dict) else {}, "contents")
        self._others(result, ("contents",))

    def _others(self, result: dict[str, Any], shown: tuple[str, ...]) -> None:
        """The result's other fields, named (their values are one ``j`` away)."""
        # (a complete result's resultType says what the status line does already)
        others = [
            one_line(key, 60)
            for key, value in result.items()
            if key not in shown and not (key == "resultType" and value == "complete")
        ]
        if others:
            self.doc.add("text", "")
            self.doc.add("dim", f"also in the result: {', '.join(others)} (j shows them)")


ERROR_NOT_CHECKED: Final = " · an error result (isError): not checked against the outputSchema"


def _schema_word(tool: dict[str, Any] | None, schema: Any) -> str:
    if tool is None:
        return " · the tool's outputSchema is unknown (not in this session's tools/list)"
    if not isinstance(schema, dict):
        return " · the tool declares no outputSchema"
    return " · beside the tool's outputSchema"


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return value if isinstance(value, str) else repr(value)
