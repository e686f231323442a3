"""The interactive answer source: input requests answered by the person at the keyboard, through modals.

``InteractiveAnswers.answer(key, request)`` is awaited by the worker running a session call, on the app's event
loop. It pushes the right modal (elicitation form or URL consent, sampling, roots), waits for it to be dismissed and
returns an ``Answer`` (source "you", or "stub model" / "roots list" when no dialog was needed). Escape in a modal
(or the worker being cancelled) ends the call: ``CallCancelled`` is raised and the modal closes.

The call being answered is named in each modal's title: the screen wraps the session call in ``calling(label)``,
a context variable, so concurrent calls each see their own label.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar

from inspector.answers.roots import SOURCE as ROOTS_SOURCE
from inspector.answers.roots import ConfiguredRoots, Root
from inspector.answers.source import ANSWER_CLOCK, YOU, Answer, CallCancelled, NoAnswer, describe_request
from inspector.answers.stub_model import SOURCE as STUB_SOURCE
from inspector.answers.stub_model import StubModel
from inspector.protocol.methods import ELICITATION, ROOTS, SAMPLING
from inspector.ui.key_hold import hold_keys
from inspector.ui.modals.dialog import open_dialog
from inspector.ui.modals.url_check import open_in_browser

if TYPE_CHECKING:
    from textual.app import App

    from inspector.answers.source import InputRequest, InputResponse
    from inspector.timeline.model import Timeline
    from inspector.ui.key_hold import Hold
    from inspector.ui.modals.answer_dialog import AnswerModal, AskedFor
    from inspector.ui.modals.roots_editor import RootsReply
    from inspector.ui.modals.sampling import SamplingReply
    from inspector.ui.modals.url_consent import Opener

CURRENT_CALL: ContextVar[str | None] = ContextVar("inspector_current_call", default=None)
"""The label of the call whose input requests are being answered (e.g. ``tools/call book_meeting``)."""

RootsSource = ConfiguredRoots | list[Root] | Callable[[], ConfiguredRoots | list[Root]]
"""Where roots/list answers come from: a store, a list, or a callable returning either (read at each request)."""
HostSource = str | Callable[[], str | None] | None
ResultT = TypeVar("ResultT")


@contextmanager
def calling(label: str) -> Iterator[None]:
    """Name the call run inside this block, so the modals it opens are titled with it."""
    token = CURRENT_CALL.set(label)
    try:
        yield
    finally:
        CURRENT_CALL.reset(token)


class InteractiveAnswers:
    """Answers input requests by asking the user in modals (the ``AnswerSource`` protocol)."""

    def __init__(
        self,
        app: App[Any],
        roots: RootsSource,
        stub_auto: Callable[[], bool],
        *,
        server_host: HostSource = None,
        stub: StubModel | None = None,
        opener: Opener = open_in_browser,
        questions_left: Callable[[], int] = lambda: 0,
    ) -> None:
        self.app = app
        self._questions_left = questions_left
        """How many questions of the round being answered have no answer yet (the one in the dialog included)."""
        self._between: Hold | None = None
        """The keys held from an answer to the next question of the same round (its dialog opens at once)."""
        self._roots = roots
        self._stub_auto = stub_auto
        self._server_host = server_host
        self.stub = stub or StubModel()
        self.opener = opener
        self.always_stub = False
        """Set when the user ticks "answer every sampling request with the stub model" in the sampling dialog."""
        self.ask_roots = True
        """Cleared when the user ticks "don't ask again" in the roots dialog: roots/list then uses the store."""
        self.edited_roots: list[Root] | None = None
        """The roots as the user last sent them from the dialog (None until then); they win over the source."""

    def current_roots(self) -> list[Root]:
        """The roots that answer roots/list now: the user's last edit, else the source's."""
        if self.edited_roots is not None:
            return list(self.edited_roots)
        source = self._roots() if callable(self._roots) else self._roots
        return list(source.roots if isinstance(source, ConfiguredRoots) else source)

    def _keep_roots(self, roots: list[Root]) -> None:
        """Remember the user's roots, and write them back into a store or list the source hands out."""
        self.edited_roots = list(roots)
        source = self._roots() if callable(self._roots) else self._roots
        if isinstance(source, ConfiguredRoots):
            source.roots = list(roots)
        else:
            source[:] = roots

    @property
    def server_host(self) -> str | None:
        """The server's host (HTTP) or name (stdio), for the URL dialog's "unlike the server's domain" warning."""
        return self._server_host() if callable(self._server_host) else self._server_host

    def stub_enabled(self) -> bool:
        """Sampling goes to the stub model without a dialog (ticked in the dialog, or set by the app)."""
        return self.always_stub or self._stub_auto()

    async def answer(self, key: str | None, request: InputRequest) -> Answer:
        """Ask the user for the answer to one input request; ``CallCancelled`` when they cancel the call."""
        method = request.get("method")
        raw = request.get("params")
        params: dict[str, Any] = raw if isinstance(raw, dict) else {}
        # The modals (and the validators behind them) are imported when the first one opens, not at startup:
        # the TUI's first paint should not wait for forms nobody asked for yet.
        from inspector.ui.modals.answer_dialog import AskedFor
        from inspector.ui.modals.elicitation import ElicitationModal
        from inspector.ui.modals.url_consent import UrlConsentModal

        asked = AskedFor(CURRENT_CALL.get(), key)
        if method == ELICITATION:
            if params.get("mode") == "url":
                url_modal = UrlConsentModal(params, asked, server_host=self.server_host, opener=self.opener)
                return Answer(await self._ask(url_modal, key, request), YOU, "person")
            return Answer(await self._ask(ElicitationModal(params, asked), key, request), YOU, "person")
        if method == SAMPLING:
            return await self._sampling(asked, request, params)
        if method == ROOTS:
            return await self._roots_answer(asked, request)
        raise NoAnswer(f"the inspector cannot answer {describe_request(key, request)}: unknown input request method")

    async def _sampling(self, asked: AskedFor, request: InputRequest, params: dict[str, Any]) -> Answer:
        if self.stub_enabled():
            return Answer(self.stub.reply(params), STUB_SOURCE, "model")
        from inspector.answers.validation import validate_sampling_answer
        from inspector.ui.modals.sampling import SamplingModal

        reply: SamplingReply = await self._ask(SamplingModal(params, asked), asked.key, request)
        if reply.always_stub:
            self.always_stub = True
        if reply.response is None:
            # The person read the question and handed it to the model: the wait so far was theirs, only what
            # follows is the model's (timed on the session's clock, as every time on the timeline is).
            clock = ANSWER_CLOCK.get()
            began = clock()
            response = self.stub.reply(params)
            return Answer(response, STUB_SOURCE, "person", (clock() - began) * 1000.0)
        validate_sampling_answer(params, reply.response)
        return Answer(reply.response, YOU, "person")

    async def _roots_answer(self, asked: AskedFor, request: InputRequest) -> Answer:
        if not self.ask_roots:
            return Answer(_roots_result(self.current_roots()), ROOTS_SOURCE)
        from inspector.answers.validation import validate_roots_answer
        from inspector.ui.modals.roots_editor import RootsModal

        reply: RootsReply = await self._ask(RootsModal(self.current_roots(), asked), asked.key, request)
        self._keep_roots(reply.roots)
        if reply.dont_ask:
            self.ask_roots = False
        response = _roots_result(reply.roots)
        validate_roots_answer(response)
        return Answer(response, YOU, "person")

    async def _ask(self, modal: AnswerModal[ResultT | None], key: str | None, request: InputRequest) -> ResultT:
        """Push ``modal`` and wait for its result; ``None`` (Escape) becomes ``CallCancelled``."""
        future: asyncio.Future[ResultT | None] = asyncio.get_running_loop().create_future()

        def settle(result: ResultT | None) -> None:
            if not future.done():
                future.set_result(result)

        modal.on_answer = self._hold_for_next_question
        await open_dialog(self.app, modal, settle)
        self.release_between()  # the next question's dialog holds the keys now
        try:
            result = await future
        except asyncio.CancelledError:
            if modal in self.app.screen_stack:  # the call was cancelled elsewhere: close its question too
                modal.pop_until_active()
                modal.dismiss(None)
            raise
        if result is None:
            raise CallCancelled(f"the user cancelled the call at {describe_request(key, request)}")
        return result

    def _hold_for_next_question(self) -> None:
        """An answer was given: when the round asks another question, its dialog opens at once and the keys typed
        meanwhile are for it (rolling_login asks GitHub, then Google, in one round), not for the screen behind."""
        if self._between is None and self._questions_left() > 1:
            self._between = hold_keys(self.app)

    def release_between(self) -> None:
        """Give back the keys held between two questions (the next dialog holds them now, or the call ended)."""
        hold, self._between = self._between, None
        if hold is not None:
            hold.release()


def _roots_result(roots: list[Root]) -> InputResponse:
    """The ListRootsResult for ``roots``: fresh dicts, so later edits never change what was sent."""
    return {"roots": [dict(root) for root in roots]}


def questions_left(timeline: Timeline | None) -> int:
    """How many input requests of the round being answered have no answer yet (0: none is being answered)."""
    if timeline is None:
        return 0
    for call in reversed(timeline.calls[-8:]):
        last = call.rounds[-1] if call.in_flight and call.rounds else None
        if last is not None and last.kind == "request" and last.input_requests:
            return len(last.input_requests) - len(last.answers)
    return 0
