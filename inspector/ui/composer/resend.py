"""Edit and resend: a recorded call sent again on the live connection, with edited arguments or edited answers.

Pure pieces (no textual): what the composer is opened on (``ComposePlan``; ``resend_plan``: a recorded call's),
the answers a resend gives (``EditedAnswers``, one response per input key, anything else asked interactively), the
one answer source the screen hands its session (``SwitchableAnswers``: the interactive source, or the edited
answers while a resend runs; the screen runs one call at a time), and the comparison of the two calls shown in the
detail pane (``replay.diff.diff``).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from inspector.answers.source import Answer, AnswerSource, InputRequest, InputResponse
from inspector.replay.diff import Difference, diff
from inspector.replay.recorded_answers import recorded_answers

if TYPE_CHECKING:
    from inspector.protocol.methods import CatalogKind
    from inspector.timeline.model import Call
    from inspector.ui.detail.lines import Document, LineKind

EDITED: Final = "edited"
"""The source of an answer the user edited before resending (shown on the timeline)."""
FREE_FORM: Final[dict[str, Any]] = {"type": "object", "additionalProperties": {}}
"""The schema of a tool the catalog does not list (any arguments, edited as JSON)."""


@dataclass(frozen=True, slots=True)
class ComposePlan:
    """What the composer is opened on: a catalog item of one kind (tools, prompts or templates), its form built
    from the item."""

    kind: CatalogKind
    item: dict[str, Any]
    arguments: dict[str, Any] | None = None
    """The arguments the form starts with (a resent call's: exactly what was sent); None: each field's default."""
    title: str = ""
    """Put before the verb in the composer's border title (e.g. "resend #6")."""


def resend_plan(call: Call, catalog: dict[CatalogKind, list[dict[str, Any]]]) -> ComposePlan | None:
    """The plan for ``call`` (None when its method cannot be resent). The catalog item is used when listed."""
    params = call.params
    given = params.get("arguments")
    arguments = copy.deepcopy(given) if isinstance(given, dict) else {}
    title = f"resend #{call.index}"
    if call.method == "tools/call":
        name = str(params.get("name", ""))
        listed = next((t for t in catalog.get("tools", []) if t.get("name") == name), None)
        return ComposePlan("tools", listed or {"name": name, "inputSchema": FREE_FORM}, arguments, title)
    if call.method == "prompts/get":
        name = str(params.get("name", ""))
        listed = next((p for p in catalog.get("prompts", []) if p.get("name") == name), None)
        item = listed or {"name": name, "arguments": [{"name": key} for key in arguments]}
        return ComposePlan("prompts", item, arguments, title)
    if call.method == "resources/read":
        uri = str(params.get("uri", ""))
        return ComposePlan("templates", {"uriTemplate": uri, "name": uri}, {"uri": uri}, title)
    return None


def answer_label(key: str | None, method: str) -> str:
    """How an answer is named in the editor: its input key, or for a legacy server request its method."""
    return key if key is not None else method


def answers_of(call: Call) -> dict[str, InputResponse]:
    """Every answer given during ``call``, by input key (legacy server requests by method); a key asked twice
    keeps its last answer."""
    return {answer_label(a.key, a.method): copy.deepcopy(a.response) for a in recorded_answers(call)}


class EditedAnswers:
    """Answers each input key with the edited response; any other question goes to ``fallback``."""

    def __init__(self, edited: dict[str, InputResponse], fallback: AnswerSource) -> None:
        self.edited = edited
        self.fallback = fallback
        self.used: list[str] = []
        """The labels answered from the edit, in order."""

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """The edited response for ``key`` (a legacy request: for its method), else the fallback's answer."""
        label = answer_label(key, str(request.get("method", "")))
        if label in self.edited:
            self.used.append(label)
            return Answer(copy.deepcopy(self.edited[label]), EDITED)
        return await self.fallback.answer(key, request)


class SwitchableAnswers:
    """The answer source a session is built with: ``base`` (interactive), or ``current`` inside ``using``."""

    def __init__(self, base: AnswerSource) -> None:
        self.base = base
        self.current: AnswerSource | None = None

    @contextmanager
    def using(self, source: AnswerSource | None) -> Iterator[None]:
        """Answer with ``source`` (None: the base) until the block ends."""
        previous, self.current = self.current, source
        try:
            yield
        finally:
            self.current = previous

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """Whoever answers now."""
        return await (self.current or self.base).answer(key, request)


def _payload(call: Call) -> Any:
    return call.error if call.error is not None else call.result


def _value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 2000 else text[:1999] + "…"  # the pane wraps it: only a huge value is cut


def add_comparison(doc: Document, old: Call, new: Call) -> None:
    """A section comparing ``new`` (a resend) with ``old``: the arguments changed, then each difference of the
    result on its own lines (its path, then the value on each side), so a narrow pane still shows both values."""
    doc.heading(f"compared with #{old.index} (resent)")
    for difference in diff(old.params, new.params):
        _difference(doc, "dim", f"sent {difference.path}", difference, old.index, new.index)
    if new.finished_at is None:
        doc.add("dim", "waiting for the result to compare")
        return
    if old.status != new.status:
        doc.add("error", f"status: {old.status} → {new.status}")
    differences = diff(_payload(old), _payload(new))
    if not differences and old.status == new.status:
        doc.add("text", f"✓ same result as #{old.index}")
        return
    doc.add("text", f"{len(differences)} difference{'s' if len(differences) != 1 else ''} in the result:")
    for difference in differences:
        _difference(doc, "finding", difference.path, difference, old.index, new.index)


def _difference(doc: Document, kind: LineKind, label: str, difference: Difference, old: int, new: int) -> None:
    doc.add(kind, f"{label}: {difference.kind}")
    if difference.kind != "added":
        doc.add("dim", f"  #{old}: {_value(difference.recorded)}")
    if difference.kind != "removed":
        doc.add("text", f"  #{new}: {_value(difference.live)}")
