"""A bare app that shows the answer modals on their own: for tests, screenshots and trying them by hand.

``python -m inspector.ui.devtools.preview KIND`` asks one sample input request (``form`` = the demo's
``book_meeting`` elicitation, ``url``, ``sampling``, ``roots``, ``unsupported``) through ``InteractiveAnswers``, twice,
and shows each answer (or "cancelled") on the screen behind the modal. Nothing is fetched or opened: the URL
modal's opener always reports "no browser", so the URL is copied.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, Final

from textual import work
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Input, Static, TextArea

from inspector.answers.roots import ConfiguredRoots
from inspector.answers.source import CallCancelled, InputRequest, NoAnswer
from inspector.demo.schemas import MEETING_MESSAGE, MEETING_SCHEMA
from inspector.ui.interactive_answers import InteractiveAnswers, RootsSource, calling
from inspector.ui.safe_text import safe
from inspector.ui.themes import default_variables

SAMPLES: Final[dict[str, InputRequest]] = {
    "form": {"method": "elicitation/create", "params": {"message": MEETING_MESSAGE, "requestedSchema": MEETING_SCHEMA}},
    "url": {
        "method": "elicitation/create",
        "params": {
            "mode": "url",
            "message": "Sign in to your account to continue",
            "url": "https://accounts.xn--gogle-jye.com/signin?continue=%2Fmcp&session=7f3a",
        },
    },
    "sampling": {
        "method": "sampling/createMessage",
        "params": {
            "systemPrompt": "You are a geography tutor. Answer in one word.",
            "messages": [{"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}}],
            "modelPreferences": {"hints": [{"name": "claude"}], "costPriority": 0.2, "intelligencePriority": 0.8},
            "maxTokens": 100,
        },
    },
    "roots": {"method": "roots/list"},
    "unsupported": {
        "method": "elicitation/create",
        "params": {
            "message": "Where should we ship it?",
            "requestedSchema": {
                "type": "object",
                "properties": {"address": {"type": "object", "properties": {"city": {"type": "string"}}}},
            },
        },
    },
}
"""One input request of each kind the modals answer."""


class PreviewApp(App[None]):
    """An empty screen, themed like the inspector, that shows what the modals return."""

    CSS = "#preview-result { padding: 1 2; color: $text-muted; }"

    def compose(self) -> ComposeResult:
        yield Static("(no answer yet)", id="preview-result")

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """The inspector's own theme variables (``$timeline-input-required`` ...), as in the real app."""
        return default_variables()

    def show_result(self, text: str) -> None:
        """Show ``text`` (literally) behind the modal."""
        self.query_one("#preview-result", Static).update(safe(text))

    def steady(self) -> None:
        """Stop every cursor blinking, so screenshots are the same on every run."""
        for widget in self.screen.query("Input, TextArea"):
            if isinstance(widget, Input | TextArea):
                widget.cursor_blink = False


class ModalHost(PreviewApp):
    """Pushes one modal at start; ``results`` holds what it was dismissed with (``None`` = cancel the call)."""

    def __init__(self, modal: Callable[[], Screen[Any]]) -> None:
        super().__init__()
        self.make_modal = modal
        self.results: list[Any] = []

    def on_mount(self) -> None:
        self.push_screen(self.make_modal(), self._settle)

    def _settle(self, result: Any) -> None:
        self.results.append(result)
        self.show_result(f"dismissed with {result!r}")


class AnswersHost(PreviewApp):
    """Asks ``requests`` in turn through ``InteractiveAnswers`` from a worker, as the session would."""

    def __init__(
        self,
        requests: list[tuple[str | None, InputRequest]],
        *,
        roots: RootsSource | None = None,
        stub_auto: Callable[[], bool] = lambda: False,
        server_host: str | None = None,
    ) -> None:
        super().__init__()
        self.requests = requests
        self.opened: list[str] = []
        """URLs the URL modal was asked to open (never really opened here)."""
        self.answers = InteractiveAnswers(
            self,
            roots if roots is not None else ConfiguredRoots(),
            stub_auto,
            server_host=server_host,
            opener=self._no_browser,
        )
        self.outcomes: list[Any] = []
        """Each request's ``Answer``, or the ``CallCancelled`` / ``NoAnswer`` it raised."""

    def _no_browser(self, url: str) -> bool:
        self.opened.append(url)
        return False

    def on_mount(self) -> None:
        self.ask_all()

    @work(exclusive=True)
    async def ask_all(self) -> None:
        """Answer each request in turn, inside ``calling(...)`` so the modals are titled with the call."""
        for key, request in self.requests:
            try:
                with calling("tools/call preview"):
                    answer = await self.answers.answer(key, request)
            except (CallCancelled, NoAnswer) as stopped:
                self.outcomes.append(stopped)
                self.show_result(f"{type(stopped).__name__}: {stopped}")
                continue
            self.outcomes.append(answer)
            self.show_result(f"answer from {answer.source}: {json.dumps(answer.response)}")


def main(argv: list[str]) -> None:
    """Run the preview for one sample kind (default ``form``), asked twice."""
    kind = argv[0] if argv else "form"
    if kind not in SAMPLES:
        raise SystemExit(f"usage: python -m inspector.ui.devtools.preview [{'|'.join(SAMPLES)}]")
    AnswersHost([(kind, SAMPLES[kind]), (kind, SAMPLES[kind])], server_host="example.com").run()


if __name__ == "__main__":
    main(sys.argv[1:])
