"""The selected call of the main screen: what the detail pane and the requestState panel show for it, and the keys
that act on it: export it, edit and resend it, cancel it while in flight. ``MainScreen`` derives from this screen;
the session work stays in ``MainScreen``.

Sending keys work on live sessions only: in a replay, resend says the recording is read-only and cancel is hidden.
A resent call's detail compares its result with the call it resent (``replay.diff.diff``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.binding import Binding, BindingType

from inspector.protocol.methods import INPUT_REQUIRED_METHODS
from inspector.ui.modals.answers_editor import AnswersEditor
from inspector.ui.modals.export import ExportModal
from inspector.ui.recorded import READ_ONLY
from inspector.ui.resend import EditedAnswers, ResendPlan, add_comparison, answers_of, resend_plan
from inspector.ui.screens.compose import ComposeResultValue, ComposeScreen
from inspector.ui.screens.replay_keys import ReplayKeys
from inspector.ui.widgets.catalog import Catalog
from inspector.ui.widgets.detail_view import DetailView
from inspector.ui.widgets.document import call_document, round_document
from inspector.ui.widgets.request_state import RequestStatePanel
from inspector.ui.widgets.timeline_view import TimelineView

if TYPE_CHECKING:
    from inspector.answers.base import AnswerSource
    from inspector.protocol.methods import CatalogKind
    from inspector.session.timeline import Call
    from inspector.ui.session_port import SessionPort


class CallActions(ReplayKeys):
    """The highlighted call or round: its detail, and the keys that act on it (see the module docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "export", "export", id="main.export", tooltip="Export the call: curl, JSON-RPC messages, Python"),
        Binding(
            "s",
            "resend",
            "edit & resend",
            id="main.resend",
            tooltip="Send the call again on the live connection: its arguments (call row) or answers (round row)",
        ),
        Binding(
            "k",
            "cancel_call",
            "cancel call",
            id="main.cancel",
            tooltip="Cancel (kill, as in top) the highlighted call in flight; the server is told when it can be",
        ),
    ]

    # Provided by MainScreen.
    session: SessionPort | None
    selected: tuple[int, int] | None
    """(call, round) shown in the detail pane."""
    state: str
    answers: AnswerSource
    resent_from: dict[int, int]
    """Resent call -> the call it resent (their results are compared in the detail pane)."""
    _unfold: bool

    def run_call(
        self,
        kind: CatalogKind,
        name: str,
        arguments: dict[str, Any] | None,
        *,
        answers: AnswerSource | None = None,
        resend_of: int | None = None,
    ) -> Any:
        raise NotImplementedError

    # ------------------------------------------------------------------------------------------------ detail
    @on(TimelineView.Highlighted)
    def _highlighted(self, event: TimelineView.Highlighted) -> None:
        self._unfold = False
        self._show(event.call, event.round)

    @on(DetailView.UnfoldRequested)
    def _unfold_requested(self) -> None:
        self._unfold = True
        if self.selected is not None:
            self._show(*self.selected, keep_scroll=True)

    def _maybe_show(self, call: int) -> None:
        if self.selected is not None and self.selected[0] == call:
            self._show(*self.selected, keep_scroll=True)

    def _show(self, call_index: int, round_index: int, *, keep_scroll: bool = False) -> None:
        call = self._timeline().call(call_index)
        if call is None:
            return
        self.selected = (call_index, round_index)
        detail = self.query_one(DetailView)
        panel = self.query_one(RequestStatePanel)
        if round_index and round_index <= len(call.rounds):
            round_ = call.rounds[round_index - 1]
            detail.show(round_document(call, round_, unfold=self._unfold), keep_scroll=keep_scroll)
            panel.where = f"#{call_index} round {round_index}"
            panel.state = round_.request_state
        else:
            doc = call_document(call, unfold=self._unfold)
            old = self._timeline().call(self.resent_from.get(call_index, 0))
            if old is not None:
                add_comparison(doc, old, call)
            detail.show(doc, keep_scroll=keep_scroll)
            with_state = [r for r in call.rounds if r.request_state is not None]
            panel.where = f"#{call_index} round {with_state[-1].index}" if with_state else f"#{call_index}"
            panel.state = with_state[-1].request_state if with_state else None
        self.refresh_bindings()

    # ------------------------------------------------------------------------------------------------ availability
    def selected_call(self) -> Call | None:
        """The highlighted call (whether its row or one of its rounds is highlighted)."""
        return self._timeline().call(self.selected[0]) if self.selected is not None else None

    def call_action_available(self, action: str) -> bool | None:
        """``check_action`` for these keys (None: not one of them)."""
        call = self.selected_call()
        live = self.replay is None
        if action == "export":
            return call is not None
        if action == "resend":
            return call is not None and (not live or call.method in INPUT_REQUIRED_METHODS)
        if action == "cancel_call":
            return live and call is not None and call.in_flight and self.session is not None
        if action in ("next_step", "all_steps"):
            return self.steps_available()
        return None

    # ------------------------------------------------------------------------------------------------ export
    def action_export(self) -> None:
        """Open the export dialog on the highlighted call (and round, for curl)."""
        if self.selected is None:
            return
        call, round_ = self.selected
        header = self.replay.header if self.replay is not None else None
        self.app.push_screen(ExportModal(self._timeline(), call, round_, header=header))

    # ------------------------------------------------------------------------------------------------ resend
    def action_resend(self) -> None:
        """Compose the highlighted call again (its arguments), or edit the answers of its rounds, and send it."""
        call = self.selected_call()
        if call is None:
            return
        if self.replay is not None:
            self.notify(READ_ONLY, title="replay", severity="warning")
            return
        if self.session is None or self.state != "connected":
            self.notify("not connected: nothing can be sent", severity="warning")
            return
        plan = resend_plan(call, self.query_one(Catalog).items)
        if plan is None:
            self.notify(f"{call.method} cannot be resent (tools/call, prompts/get and resources/read can)")
            return
        round_ = self.selected[1] if self.selected is not None else 0
        answers = answers_of(call)
        if round_ and answers:
            self._edit_answers(call, round_, plan, answers)
        else:
            self._compose_again(call, plan)

    def _compose_again(self, call: Call, plan: ResendPlan) -> None:
        def composed(value: ComposeResultValue | None) -> None:
            if value is None:
                return
            name, arguments = value
            if plan.kind == "templates":
                self.run_call("resources", str(arguments.get("uri", name)), None, resend_of=call.index)
            else:
                self.run_call(plan.kind, name, arguments, resend_of=call.index)

        screen = ComposeScreen(plan.item, kind=plan.kind, initial=plan.arguments, title=plan.title)
        self.app.push_screen(screen, composed)

    def _edit_answers(self, call: Call, round_: int, plan: ResendPlan, answers: dict[str, Any]) -> None:
        def edited(value: dict[str, Any] | None) -> None:
            if value is None:
                return
            kind: CatalogKind = "resources" if plan.kind == "templates" else plan.kind
            name = str(plan.arguments.get("uri", "")) if kind == "resources" else str(plan.item.get("name", ""))
            arguments = None if kind == "resources" else plan.arguments
            source = EditedAnswers(value, self.answers)
            self.run_call(kind, name, arguments, answers=source, resend_of=call.index)

        self.app.push_screen(AnswersEditor(call, round_, answers), edited)

    # ------------------------------------------------------------------------------------------------ cancel
    async def action_cancel_call(self) -> None:
        """Cancel the highlighted call: the session fails its request in flight (and tells the server); when
        nothing was on the wire (e.g. between rounds) the worker driving it is cancelled instead."""
        call = self.selected_call()
        if call is None or not call.in_flight or self.session is None:
            return
        on_the_wire = await self.session.cancel(call.index)
        if not on_the_wire:
            self.workers.cancel_group(self, "call")
        self.notify(f"#{call.index} cancelled", timeout=3)
