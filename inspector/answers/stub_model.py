"""A deterministic stand-in LLM for ``sampling/createMessage``, so sampling flows run headless and in CI.

The rule, in full:

1. The prompt is the last ``user`` message. Its content (one block or a list) becomes text: text blocks give
   their text, other blocks a placeholder (``[image]``, ``[audio]``, ``[tool_use]``, ``[tool_result]``); blocks
   are joined and runs of whitespace collapsed to one space.
2. If the prompt contains a phrase of the canned table (case-insensitive), the reply is that phrase's answer
   ("What is the capital of France?" -> ``Paris``). Otherwise the reply is ``Stub answer to: <prompt>``.
3. ``maxTokens`` is honoured with whitespace-separated words as tokens: a longer reply is cut to ``maxTokens``
   words and ``stopReason`` is ``"maxTokens"``; otherwise it is ``"endTurn"``.

The reply is always one text block from ``model: "inspector-stub"``, even when the request offers ``tools``:
the stub never calls tools. ``systemPrompt``, ``temperature`` and the rest are ignored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from inspector.answers.source import Answer, Skip, describe_request
from inspector.protocol.json_values import json_int
from inspector.protocol.methods import SAMPLING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from inspector.answers.source import InputRequest, InputResponse

STUB_MODEL_NAME: Final = "inspector-stub"
"""The ``model`` field of every stub reply, so a server (and the timeline) can tell it is not a real LLM."""

SOURCE: Final = "stub model"

CANNED_ANSWERS: Final[tuple[tuple[str, str], ...]] = (
    ("capital of france", "Paris"),
    ("capital of germany", "Berlin"),
    ("capital of japan", "Tokyo"),
    ("2 + 2", "4"),
)
"""(phrase, answer) pairs; the first phrase found in the prompt wins. Small on purpose: it is for demos."""

NO_PROMPT: Final = "(no user message)"


def block_text(block: object) -> str:
    """The text a content block contributes to the prompt: its text, or a placeholder such as ``[image]``."""
    if not isinstance(block, dict):
        return "[?]"
    kind = block.get("type")
    if kind == "text":
        text = block.get("text")
        return text if isinstance(text, str) else ""
    return f"[{kind}]" if isinstance(kind, str) else "[?]"


def prompt_text(params: Mapping[str, Any]) -> str:
    """The text of the last user message of a ``sampling/createMessage`` request ("" if there is none)."""
    messages = params.get("messages")
    if not isinstance(messages, list):
        return ""
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            blocks = content if isinstance(content, list) else [content]
            return " ".join(" ".join(block_text(block) for block in blocks).split())
    return ""


def truncate_tokens(text: str, max_tokens: int | None) -> tuple[str, bool]:
    """Cut ``text`` to at most ``max_tokens`` whitespace-separated words; return it and whether it was cut."""
    if max_tokens is None:
        return text, False
    words = text.split()
    if len(words) <= max_tokens:
        return text, False
    return " ".join(words[: max(max_tokens, 0)]), True


class StubModel:
    """Answers ``sampling/createMessage`` by the documented rule above; every other request is ``Skip``."""

    def __init__(self, canned: Sequence[tuple[str, str]] = CANNED_ANSWERS) -> None:
        self.canned = tuple((phrase.casefold(), answer) for phrase, answer in canned)

    def reply_text(self, prompt: str) -> str:
        """The full (untruncated) reply to a prompt."""
        folded = prompt.casefold()
        for phrase, answer in self.canned:
            if phrase in folded:
                return answer
        return f"Stub answer to: {prompt or NO_PROMPT}"

    def reply(self, params: Mapping[str, Any]) -> InputResponse:
        """The CreateMessageResult for these ``sampling/createMessage`` params."""
        max_tokens = params.get("maxTokens")
        limit = json_int(max_tokens)
        text, cut = truncate_tokens(self.reply_text(prompt_text(params)), limit)
        return {
            "role": "assistant",
            "content": {"type": "text", "text": text},
            "model": STUB_MODEL_NAME,
            "stopReason": "maxTokens" if cut else "endTurn",
        }

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """Reply to a sampling request; ``Skip`` anything else."""
        if request.get("method") != SAMPLING:
            raise Skip(f"the stub model only answers sampling, not {describe_request(key, request)}")
        params = request.get("params")
        return Answer(self.reply(params if isinstance(params, dict) else {}), SOURCE, "model")
